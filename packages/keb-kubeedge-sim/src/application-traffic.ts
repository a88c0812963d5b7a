import { encodeBytes, identifier } from "@fleet-auditor/metaserver";
import { Random } from "./random.ts";

const KEYS = [
  ["/core/v1/pods/default/null", "list", '{"labelSelector":"app=nginx","resourceVersion":"0"}'],
  ["/core/v1/configmaps/default/app-config", "get", "{}"],
  ["/core/v1/services/null/null", "watch", '{"watch":true,"resourceVersion":"48290","timeoutSeconds":412}'],
  ["/apps/v1/deployments/default/nginx", "get", "{}"],
  ["/core/v1/secrets/kube-system/edge-token", "get", "{}"],
  ["/discovery.k8s.io/v1/endpointslices/null/null", "watch", '{"watch":true,"timeoutSeconds":377}'],
  ["/core/v1/nodes/null/NODE", "get", "{}"],
  ["/core/v1/events/default/null", "create", "{}"],
] as const;

/** Options of `applicationTraffic`. */
export interface TrafficOptions {
  applications: number;
  nodes?: number;
  seed?: number;
  /** The first message's header time, ms. */
  start?: number;
  /** Share of Applications the cloud rejects. Default 0.1. */
  rejectShare?: number;
  /** Give every Application its own namespace, so that no two share an ID. */
  distinct?: boolean;
}

/**
 * Realistic metaserver traffic for demos, tests and benchmarks: for each Application a request
 * (`InApplying`, as the edge sends it, route `node/<id>/null`) and a response (`applicationResponse`,
 * Approved or Rejected with a k8s Status), as the cloud side sees them. Returns message bodies in
 * the order they were produced.
 */
export function applicationTraffic(options: TrafficOptions): string[] {
  const rng = new Random(options.seed ?? 1);
  const rnd = (): number => rng.next();
  const nodes = options.nodes ?? 20;
  let t = options.start ?? Date.UTC(2026, 10, 29, 6);
  const out: string[] = [];
  const uuid = (): string => {
    const h = Array.from({ length: 32 }, () => Math.floor(rnd() * 16).toString(16)).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
  };
  for (let i = 0; i < options.applications; i++) {
    const node = `edge-${String(Math.floor(rnd() * nodes) + 1).padStart(3, "0")}`;
    const [template, verb, option] = KEYS[Math.floor(rnd() * KEYS.length)] as (typeof KEYS)[number];
    let key = template
      .replace("NODE", node)
      .replace("app-config", `app-config-${i}`)
      .replace("nginx", `nginx-${i}`);
    if (options.distinct)
      key = key
        .split("/")
        .map((seg, n) => (n === 4 ? `ns-${i}` : seg))
        .join("/");
    const optionBytes = new TextEncoder().encode(option);
    const id = identifier({ nodename: node, key, verb, option: optionBytes, subresource: "" });
    const requestId = uuid();
    const app = {
      ID: id,
      Key: key,
      Verb: verb,
      Nodename: node,
      Option: encodeBytes(option),
      ReqBody: null,
      Subresource: "",
      RespBody: null,
      Status: "InApplying",
      Reason: "",
      Error: { ErrStatus: { metadata: {} } },
      Timestamp: "0001-01-01T00:00:00Z",
    };
    t += 50 + Math.floor(rnd() * 2000);
    out.push(
      JSON.stringify({
        header: { msg_id: requestId, timestamp: t },
        route: {
          source: "metaserver",
          group: "dynamiccontroller",
          operation: "null",
          resource: `node/${node}/null`,
        },
        content: app,
      }),
    );
    const rejected = rnd() < (options.rejectShare ?? 0.1);
    const response = rejected
      ? { ...app, Status: "Rejected", ...rejection(verb, key) }
      : {
          ...app,
          Status: "Approved",
          RespBody: encodeBytes('{"kind":"Status","apiVersion":"v1","metadata":{}}'),
        };
    t += 5 + Math.floor(rnd() * 300);
    out.push(
      JSON.stringify({
        header: { msg_id: uuid(), parent_msg_id: requestId, timestamp: t },
        route: {
          source: "dynamiccontroller",
          group: "resource",
          operation: "applicationResponse",
          resource: `node/${node}/ignore/Application/ignore`,
        },
        content: response,
      }),
    );
  }
  return out;
}

/** How the cloud rejects a request of this verb: a k8s Status, or only a Reason for list errors. */
function rejection(
  verb: string,
  key: string,
): { Reason: string; Error: { ErrStatus: Record<string, unknown> } } {
  const [, , , resource = "", , name = ""] = key.split("/");
  const status = (reason: string, code: number, message: string) => ({
    Reason: "",
    Error: {
      ErrStatus: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message,
        reason,
        details: { name, kind: resource },
        code,
      },
    },
  });
  if (verb === "get") return status("NotFound", 404, `${resource} "${name}" not found`);
  if (verb === "create") return status("AlreadyExists", 409, `${resource} "${name}" already exists`);
  if (verb === "watch")
    return status(
      "Forbidden",
      403,
      `${resource} is forbidden: User "system:node:edge" cannot watch resource "${resource}"`,
    );
  return {
    Reason: `get current list error: ${resource} is forbidden for this node`,
    Error: { ErrStatus: { metadata: {} } },
  };
}
