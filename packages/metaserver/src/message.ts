import { type Application, decodeApplication } from "./application.ts";
import { MetaserverParseError } from "./errors.ts";
import { isObject } from "./go-json.ts";
import { BeehiveMessageSchema } from "./schemas.ts";

/** Constants of `pkg/metaserver`. */
export const APPLICATION_RESPONSE = "applicationResponse";
export const WATCH_APP_SYNC = "watchapp/sync";

/** What a message is about. */
export type MessageKind = "request" | "response" | "watchSync" | "watchSyncResponse";

/** A decoded beehive message carrying Applications. */
export interface ApplicationMessage {
  msgId: string;
  parentMsgId?: string;
  /** Header timestamp, ms since the epoch. */
  timestamp: number;
  kind: MessageKind;
  /** The node from `route.resource` (`node/<id>/…`), when present. */
  node?: string;
  resource: string;
  /** One for a request or response; any number (also none) for a watch sync. */
  applications: Application[];
  /** The body came wrapped in an SNS notification (SNS→SQS fan-out). */
  viaSns: boolean;
}

/**
 * Decodes one SQS message body: a beehive message as KubeEdge puts it on the wire, possibly
 * inside an SNS notification envelope. `content` may be a JSON object (WebSocket) or a string
 * holding JSON text (decoded again, as Go's `GetContentData` does); anything else is an error.
 * Throws `MetaserverParseError` with a reason fit for the quarantine.
 */
export function decodeMessage(body: string): ApplicationMessage {
  let json = parseJson(body, "body");
  let viaSns = false;
  if (isObject(json) && json.Type === "Notification" && typeof json.Message === "string") {
    json = parseJson(json.Message, "SNS Message");
    viaSns = true;
  }
  const envelope = BeehiveMessageSchema.safeParse(json);
  if (!envelope.success) {
    const issue = envelope.error.issues[0];
    throw new MetaserverParseError(
      "MS_ENVELOPE",
      `not a beehive message: ${issue?.path.join(".") || "(body)"}: ${issue?.message}`,
    );
  }
  const { header, route, content } = envelope.data;
  const resource = route?.resource ?? "";
  const operation = route?.operation ?? "";
  const contentJson = contentObject(content);
  const node = nodeOf(resource);
  const response = operation === APPLICATION_RESPONSE;
  const sync = resource.endsWith(WATCH_APP_SYNC);
  let applications: Application[];
  if (sync) {
    applications = Object.entries(contentJson).map(([mapKey, value]) => {
      const app = decodeApplication(value, `content[${JSON.stringify(mapKey)}]`);
      return app.id === "" ? { ...app, id: mapKey } : app;
    });
  } else {
    applications = [decodeApplication(contentJson)];
  }
  // The cloud trusts the authenticated connection's node, not the content's Nodename.
  if (node) applications = applications.map((a) => ({ ...a, nodename: node }));
  return {
    msgId: header.msg_id,
    parentMsgId: header.parent_msg_id || undefined,
    timestamp: header.timestamp,
    kind: sync ? (response ? "watchSyncResponse" : "watchSync") : response ? "response" : "request",
    node,
    resource,
    applications,
    viaSns,
  };
}

/** `node/<id>/…` → `<id>`. */
export function nodeOf(resource: string): string | undefined {
  const [first, second] = resource.split("/");
  return first === "node" && second ? second : undefined;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new MetaserverParseError("MS_NOT_JSON", `${what} is not JSON: ${(err as Error).message}`);
  }
}

function contentObject(content: unknown): Record<string, unknown> {
  if (isObject(content)) return content;
  if (typeof content === "string") {
    let inner: unknown;
    try {
      inner = JSON.parse(content);
    } catch {
      throw new MetaserverParseError(
        "MS_CONTENT",
        "content is a string but not JSON text (base64 content is not decoded, as in Go)",
      );
    }
    if (isObject(inner)) return inner;
    throw new MetaserverParseError("MS_CONTENT", "content string does not hold a JSON object");
  }
  throw new MetaserverParseError(
    "MS_CONTENT",
    `content must be a JSON object or a string of JSON text, got ${content === null ? "null" : Array.isArray(content) ? "an array" : typeof content}`,
  );
}
