import { randomUUID } from "node:crypto";
import type { LambdaFunctionURLEvent } from "aws-lambda";

/**
 * An HTTP request as a Lambda function URL hands it to its function (the API Gateway payload
 * format 2.0): header names in lower case, the body as text, or base64 with `isBase64Encoded`
 * (as function URLs pass a body that is not text; `base64` asks for that form).
 */
export function functionUrlEvent(
  request: { method?: string; headers: Record<string, string>; body?: string | Buffer },
  options: { base64?: boolean } = {},
): LambdaFunctionURLEvent {
  const method = request.method ?? "POST";
  const raw = request.body === undefined ? undefined : Buffer.from(request.body);
  const base64 = options.base64 === true || (raw !== undefined && typeof request.body !== "string");
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const host = "abcdefghijklmnopqrstuvwxyz012345.lambda-url.eu-central-1.on.aws";
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: "/",
    rawQueryString: "",
    headers: { host, "x-forwarded-proto": "https", ...headers },
    requestContext: {
      accountId: "anonymous",
      apiId: host.split(".")[0] as string,
      domainName: host,
      domainPrefix: host.split(".")[0] as string,
      http: {
        method,
        path: "/",
        protocol: "HTTP/1.1",
        sourceIp: "203.0.113.7",
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: randomUUID(),
      routeKey: "$default",
      stage: "$default",
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    isBase64Encoded: base64,
    ...(raw === undefined ? {} : { body: base64 ? raw.toString("base64") : raw.toString("utf8") }),
  };
}
