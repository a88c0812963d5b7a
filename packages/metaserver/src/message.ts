import { type Application, decodeApplication } from "./application.ts";
import { MetaserverParseError } from "./errors.ts";
import { bindGoFields, isObject, type KeyOrder, lastValue, membersOf, structMembers } from "./go-json.ts";
import { checker, GoBool, GoInt, GoString, HEADER_FIELDS, MESSAGE_FIELDS, ROUTE_FIELDS } from "./schemas.ts";

/** Constants of `pkg/metaserver`. */
const APPLICATION_RESPONSE = "applicationResponse";
const WATCH_APP_SYNC = "watchapp/sync";

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
 * Keys bind as Go binds them (`go-json.ts`): the envelope's by their json tags, case-insensitively,
 * the last winning; an object content's in the sorted order of Go's map round trip.
 * Throws `MetaserverParseError` with a reason fit for the quarantine.
 */
export function decodeMessage(body: string): ApplicationMessage {
  let json = parseJson(body, "body");
  let viaSns = false;
  if (isObject(json) && json.Type === "Notification" && typeof json.Message === "string") {
    json = parseJson(json.Message, "SNS Message");
    viaSns = true;
  }
  const { header, route, content } = decodeEnvelope(json);
  const resource = route.resource ?? "";
  const operation = route.operation ?? "";
  const { object: contentJson, order } = contentObject(content);
  const node = nodeOf(resource);
  const response = operation === APPLICATION_RESPONSE;
  const sync = resource.endsWith(WATCH_APP_SYNC);
  let applications: Application[];
  if (sync) {
    applications = Object.entries(contentJson).map(([mapKey, value]) => {
      const app = decodeApplication(value, `content[${JSON.stringify(mapKey)}]`, order);
      return app.id === "" ? { ...app, id: mapKey } : app;
    });
  } else {
    applications = [decodeApplication(contentJson, "content", order)];
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
function nodeOf(resource: string): string | undefined {
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

/** The beehive envelope as Go decodes `model.Message`: `header` and `route` structs, `content` any value. */
function decodeEnvelope(json: unknown): {
  header: { msg_id: string; parent_msg_id?: string; timestamp: number };
  route: { resource?: string; operation?: string };
  content: unknown;
} {
  const at = (where: string) => `not a beehive message: ${where}`;
  const refuse = (where: string) => (value: unknown) => {
    throw new MetaserverParseError(
      "MS_ENVELOPE",
      `${at(where)}: expected an object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`,
    );
  };
  if (!isObject(json)) refuse("(body)")(json);
  const top = bindGoFields(membersOf(json as Record<string, unknown>, "document"), MESSAGE_FIELDS);
  const h = bindGoFields(structMembers(top.get("header"), "document", refuse("header")) ?? [], HEADER_FIELDS);
  const r = bindGoFields(structMembers(top.get("route"), "document", refuse("route")) ?? [], ROUTE_FIELDS);
  const text = (bound: Map<string, unknown[]>, field: string, where: string) =>
    lastValue(bound.get(field), checker(GoString, "MS_ENVELOPE", at(where)));
  const msgId = text(h, "msg_id", "header.msg_id");
  const timestamp = lastValue(
    h.get("timestamp"),
    checker(GoInt.nonnegative(), "MS_ENVELOPE", at("header.timestamp")),
  );
  if (!msgId)
    throw new MetaserverParseError("MS_ENVELOPE", `${at("header.msg_id")}: msg_id must not be empty`);
  if (timestamp === undefined)
    throw new MetaserverParseError("MS_ENVELOPE", `${at("header.timestamp")}: required`);
  // Checked as Go decodes them, though nothing here reads them.
  for (const field of ["resourceversion", "type"]) text(h, field, `header.${field}`);
  lastValue(h.get("sync"), checker(GoBool, "MS_ENVELOPE", at("header.sync")));
  const route: { resource?: string; operation?: string } = {};
  for (const field of ROUTE_FIELDS) {
    const value = text(r, field, `route.${field}`);
    if (field === "resource" || field === "operation") route[field] = value;
  }
  const parent = text(h, "parent_msg_id", "header.parent_msg_id");
  return {
    header: { msg_id: msgId, timestamp, ...(parent ? { parent_msg_id: parent } : {}) },
    route,
    // An `interface{}`: the last value bound replaces any before it, `null` too.
    content: top.get("content")?.at(-1),
  };
}

/**
 * The content's object and the order Go meets its keys in: an object went through a Go map
 * (sorted); a string is JSON text decoded as it is (document order).
 */
function contentObject(content: unknown): { object: Record<string, unknown>; order: KeyOrder } {
  if (isObject(content)) return { object: content, order: "sorted" };
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
    if (isObject(inner)) return { object: inner, order: "document" };
    throw new MetaserverParseError("MS_CONTENT", "content string does not hold a JSON object");
  }
  throw new MetaserverParseError(
    "MS_CONTENT",
    `content must be a JSON object or a string of JSON text, got ${content === null ? "null" : Array.isArray(content) ? "an array" : typeof content}`,
  );
}
