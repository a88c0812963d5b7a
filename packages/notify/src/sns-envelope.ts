import type { DigestMessage } from "@fleet-auditor/audit";

// One SNS publish as AWS takes and counts it: the JSON-structured body with a key per protocol,
// the message attributes, and the size SNS holds it to. Pure and free of the AWS SDK, and a
// subpath of its own (`@fleet-auditor/notify/sns-envelope`), so that the render package fits its
// digests to the same count the publisher sends by without loading the SDK.

/** SNS's limit for a whole publish (message and attributes), bytes. */
export const SNS_MESSAGE_LIMIT = 262_144;

/**
 * What a publish may weigh by `byteSize`: SNS's limit less a margin of 2 KiB, so that a digest
 * fitted to the byte is not refused for anything SNS counts that is not foreseen here.
 */
export const SNS_BYTE_BUDGET = SNS_MESSAGE_LIMIT - 2 * 1024;

/** One message attribute as SNS takes it (`MessageAttributeValue`). */
export interface SnsAttribute {
  DataType: "String" | "String.Array";
  StringValue: string;
}

/** The text of a publish for each protocol that reads one of its own. */
export interface ProtocolBodies {
  /** Every protocol without a key of its own: Lambda, SQS, `email-json`, Firehose. */
  default: string;
  email: string;
  /** AWS Chatbot, subscribed over HTTPS. */
  https: string;
}

/**
 * The `Message` of a `MessageStructure=json` publish: one body per protocol, in this key order.
 * `default` carries one copy for every protocol without a key, rather than a `lambda` and an
 * `sqs` key: SNS counts each key against its 256 KiB, and two copies would halve what fits.
 */
export function snsMessage(bodies: ProtocolBodies): string {
  return JSON.stringify({ default: bodies.default, email: bodies.email, https: bodies.https });
}

/**
 * The message attributes of a publish, as SNS takes them: `audit` and `severity` (String) and
 * `kinds` (String.Array), which subscriptions filter on, and `format` (String: `digest`,
 * `incident`, `health`, `test` or `summary`) for subscribers that read it. The one definition of what is sent, so
 * that `byteSize` counts exactly that.
 */
export function snsAttributes(attributes: DigestMessage["attributes"]): Record<string, SnsAttribute> {
  return {
    audit: { DataType: "String", StringValue: attributes.audit },
    severity: { DataType: "String", StringValue: attributes.severity },
    kinds: { DataType: "String.Array", StringValue: JSON.stringify(attributes.kinds) },
    ...(attributes.format ? { format: { DataType: "String", StringValue: attributes.format } } : {}),
  };
}

/**
 * UTF-8 bytes of a publish as AWS counts them ("all parts of the message attribute, including
 * name, type, and value"): the body, every attribute's name, data type and value (`snsAttributes`),
 * and the subject too, which SNS may not count: a byte too many here costs nothing.
 */
export function byteSize(m: Pick<DigestMessage, "message" | "subject" | "attributes">): number {
  let attributes = 0;
  for (const [name, value] of Object.entries(snsAttributes(m.attributes))) {
    attributes +=
      Buffer.byteLength(name) + Buffer.byteLength(value.DataType) + Buffer.byteLength(value.StringValue);
  }
  return Buffer.byteLength(m.message) + Buffer.byteLength(m.subject) + attributes;
}
