import type { MessageAttributeValue, PublishInput } from "@aws-sdk/client-sns";

// What real SNS refuses and fauxqs takes (it counts only the body's size): the documented rules
// of Publish and PublishBatch, with SNS's own error codes and messages, so that every publish a
// test makes is held to them (see `sns-stand-in.ts`). Sources: the SNS API reference (Publish,
// PublishBatch, MessageAttributeValue) and shared/docs/reference/aws-limits-and-peers.md §4.2.

/** SNS's limit for one publish, and for all entries of a PublishBatch together, bytes. */
const SNS_LIMIT = 262_144;

/** One message as a Publish or a PublishBatch entry carries it. */
export type SnsEntry = Pick<
  PublishInput,
  "Message" | "Subject" | "MessageStructure" | "MessageAttributes"
> & { Id?: string };

/** An SNS refusal: the error code and message SNS answers with. */
export interface SnsRefusal {
  code: string;
  message: string;
}

/**
 * The size AWS counts: the body, and "all parts of the message attribute, including name, type,
 * and value". The subject is counted too, as the product counts it (stricter than SNS, never laxer).
 */
export function entryBytes(e: SnsEntry): number {
  let n = Buffer.byteLength(e.Message ?? "") + Buffer.byteLength(e.Subject ?? "");
  for (const [name, v] of Object.entries(e.MessageAttributes ?? {})) {
    n += Buffer.byteLength(name) + Buffer.byteLength(v.DataType ?? "");
    n += v.StringValue !== undefined ? Buffer.byteLength(v.StringValue) : (v.BinaryValue?.byteLength ?? 0);
  }
  return n;
}

/** Why SNS would refuse this message, or undefined when it would take it. */
export function refusal(e: SnsEntry): SnsRefusal | undefined {
  if (!e.Message) return invalid("Invalid parameter: Empty message");
  if (e.Subject !== undefined && !validSubject(e.Subject)) return invalid("Invalid parameter: Subject");
  if (e.MessageStructure !== undefined) {
    if (e.MessageStructure !== "json") return invalid("Invalid parameter: MessageStructure");
    const problem = structureProblem(e.Message);
    if (problem) return invalid(`Invalid parameter: Message Structure - ${problem}`);
  }
  for (const [name, value] of Object.entries(e.MessageAttributes ?? {})) {
    const problem = attributeProblem(name, value);
    if (problem) return { code: "InvalidParameterValue", message: problem };
  }
  if (entryBytes(e) > SNS_LIMIT) return invalid("Invalid parameter: Message too long");
  return undefined;
}

/** Why SNS would refuse a PublishBatch call as a whole, or undefined (entries are judged one by one). */
export function batchRefusal(entries: readonly SnsEntry[]): SnsRefusal | undefined {
  if (entries.length === 0)
    return { code: "EmptyBatchRequest", message: "The batch request doesn't contain any entries." };
  if (entries.length > 10)
    return {
      code: "TooManyEntriesInBatchRequest",
      message: "The batch request contains more entries than permissible.",
    };
  const ids = entries.map((e) => e.Id ?? "");
  if (ids.some((id) => !/^[\w-]{1,80}$/.test(id)))
    return {
      code: "InvalidBatchEntryId",
      message:
        "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.",
    };
  if (new Set(ids).size !== ids.length)
    return {
      code: "BatchEntryIdsNotDistinct",
      message: "Two or more batch entries in the request have the same Id.",
    };
  if (entries.reduce((n, e) => n + entryBytes(e), 0) > SNS_LIMIT)
    return {
      code: "BatchRequestTooLong",
      message: "The length of all the messages put together is more than the limit.",
    };
  return undefined;
}

/**
 * A subject SNS takes, by the safe reading of its rules: printable ASCII (the older wording of
 * the docs, and what AMP's SNS receiver enforces), no line break or control character, starting
 * with a letter, a number or punctuation, not empty, and less than 100 characters.
 */
function validSubject(subject: string): boolean {
  return /^[\x21-\x7e][\x20-\x7e]{0,98}$/.test(subject);
}

function structureProblem(message: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(message);
  } catch {
    return "JSON message body failed to parse";
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return "JSON message body failed to parse";
  const dflt = (body as Record<string, unknown>).default;
  return typeof dflt === "string" ? undefined : "No default entry in JSON message body";
}

function attributeProblem(name: string, v: MessageAttributeValue): string | undefined {
  if (name.length > 256) return "Length of message attribute name must be less than 256 bytes.";
  if (!/^[\w.-]+$/.test(name) || name.startsWith(".") || name.endsWith(".") || name.includes(".."))
    return `Invalid message attribute name '${name}'. Can only include alphanumeric characters, hyphens, underscores, or dots.`;
  if (/^(aws|amazon)\./i.test(name)) return `The message attribute name '${name}' is reserved.`;
  const type = v.DataType ?? "";
  if (!/^(String|Number|Binary)(\..+)?$/.test(type) || type.length > 256)
    return `The message attribute '${name}' has an invalid message attribute type, the set of supported type prefixes is Binary, Number, and String.`;
  const binary = type.startsWith("Binary");
  const value = binary ? v.BinaryValue : v.StringValue;
  if (value === undefined || (typeof value === "string" ? value === "" : value.byteLength === 0))
    return `The message attribute '${name}' must contain non-empty message attribute value for message attribute type '${type}'.`;
  if (type.startsWith("Number") && !Number.isFinite(Number(value)))
    return `The message attribute '${name}' with type 'Number' must contain a numeric value.`;
  if (type === "String.Array" && !isFlatArray(value as string))
    return `The message attribute '${name}' with type 'String.Array' must contain a JSON array of strings, numbers, true, false or null.`;
  return undefined;
}

function isFlatArray(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return (
      Array.isArray(value) &&
      value.every((x) => x === null || ["string", "number", "boolean"].includes(typeof x))
    );
  } catch {
    return false;
  }
}

function invalid(message: string): SnsRefusal {
  return { code: "InvalidParameter", message };
}
