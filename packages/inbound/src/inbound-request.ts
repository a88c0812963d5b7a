import { type Refusal, refuse } from "./refusal.ts";

/**
 * A request as an inbound endpoint verifies it: its headers (names lower-case, as a Lambda function
 * URL gives them: a header sent twice arrives once, its values joined by commas) and its body's raw
 * bytes, exactly as they were sent (after the function URL's base64, when it applied one).
 */
export interface InboundRequest {
  headers: ReadonlyMap<string, string>;
  body: Buffer;
}

/**
 * What a Lambda function URL delivers (the API Gateway payload format 2.0): the fields read here.
 * Everything is optional: the event is not trusted to have any of them.
 */
export interface FunctionUrlEvent {
  headers?: Record<string, string | undefined> | null;
  body?: string | null;
  isBase64Encoded?: boolean;
  requestContext?: { http?: { method?: string } };
}

/**
 * The request in a function URL event, or a refusal: not a POST (`method`); a body past
 * `maxBodyBytes` (`too-large`), measured before it is decoded or hashed, so that a huge body costs
 * no more than its length. A base64 body is decoded to the bytes the sender signed; text is taken
 * as UTF-8, which is what the function URL decoded it from.
 */
export function inboundRequest(event: FunctionUrlEvent, maxBodyBytes: number): InboundRequest | Refusal {
  const method = event.requestContext?.http?.method;
  if (method !== "POST") return refuse("method", "only POST is answered");
  const text = typeof event.body === "string" ? event.body : "";
  // Base64 is 4 characters per 3 bytes: a string longer than that bound is too large already.
  const encodedMax = event.isBase64Encoded ? Math.ceil(maxBodyBytes / 3) * 4 : maxBodyBytes;
  if (text.length > encodedMax) return refuse("too-large", `the body is over ${maxBodyBytes} bytes`);
  const body = event.isBase64Encoded ? Buffer.from(text, "base64") : Buffer.from(text, "utf8");
  if (body.length > maxBodyBytes) return refuse("too-large", `the body is over ${maxBodyBytes} bytes`);
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (typeof value !== "string") continue;
    // The same header under two spellings is a header sent twice: joined, as the function URL
    // joins a repeated one, so that a verifier that wants one value refuses both.
    const lower = name.toLowerCase();
    const before = headers.get(lower);
    headers.set(lower, before === undefined ? value : `${before},${value}`);
  }
  return { headers, body };
}

/** Whether a value is a refusal rather than what was asked for. */
export function isRefusal(value: object): value is Refusal {
  return "refused" in value;
}
