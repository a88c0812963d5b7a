import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { echoAnswer } from "./echo.ts";
import { type FaultAction, FaultPlan, type FaultRule } from "./faults.ts";
import { Fleet, type MutationPlan } from "./fleet.ts";
import type { FleetOptions } from "./fleet-generator.ts";
import { answerText, RuntimesHandler } from "./runtimes-handler.ts";
import { SimAuth, type SimAuthOptions } from "./sim-auth.ts";

/** Settings of `startKebSimulator`. */
export interface SimulatorOptions {
  /** A fleet, or options to generate one. Default: 200 runtimes, seed 1. */
  fleet?: Fleet | FleetOptions;
  /** Require tokens from the built-in issuer on `/runtimes`. Off by default. */
  auth?: SimAuthOptions;
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1: the simulator never listens beyond loopback unless told to. */
  host?: string;
  /** Latency added to every request, ms. */
  latencyMs?: number;
}

/** A running simulator. */
export interface KebSimulator {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The token endpoint when `auth` is on. */
  tokenUrl: string;
  fleet: Fleet;
  faults: FaultPlan;
  auth: SimAuth | undefined;
  /** Requests served, by path, and the most `/runtimes` requests that were in flight at once. */
  stats: { requests: number; byPath: Record<string, number>; inFlight: number; maxInFlight: number };
  close(): Promise<void>;
}

/**
 * Starts a KEB simulator on loopback: `GET /runtimes` with KEB's semantics, an OAuth2 token
 * endpoint with Istio-style JWT checks, fault injection, and `/__sim/*` admin routes
 * (`POST /__sim/mutate`, `POST|DELETE /__sim/faults`, `GET /__sim/stats`).
 */
export async function startKebSimulator(options: SimulatorOptions = {}): Promise<KebSimulator> {
  const fleet =
    options.fleet instanceof Fleet ? options.fleet : Fleet.generate(options.fleet ?? { size: 200, seed: 1 });
  const faults = new FaultPlan();
  faults.latencyMs = options.latencyMs ?? 0;
  const handler = new RuntimesHandler(fleet);
  const stats: KebSimulator["stats"] = { requests: 0, byPath: {}, inFlight: 0, maxInFlight: 0 };
  let auth: SimAuth | undefined;

  const server = createServer((req, res) => {
    const counted = req.url?.startsWith("/runtimes") ?? false;
    if (counted) {
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      res.once("close", () => stats.inFlight--);
    }
    serve(req, res).catch((err: unknown) => {
      if (!res.headersSent) write(res, text(500, "Internal Server Error"));
      else res.destroy(err as Error);
    });
  });
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://sim");
    stats.requests++;
    stats.byPath[url.pathname] = (stats.byPath[url.pathname] ?? 0) + 1;
    const page = url.pathname === "/runtimes" ? Number(url.searchParams.get("page") ?? "1") : undefined;
    const fault = faults.take(url.pathname, page);
    const delay = faults.latencyMs + (fault?.kind === "delay" ? fault.ms : 0);
    // The latency is the whole time to answer: the simulator's own work happens inside it.
    const answerAt = performance.now() + delay;
    const reply = await route(req, url, fault);
    const left = answerAt - performance.now();
    // A client that gives up (a deadline) ends the wait: nothing is left to answer.
    const gone = new AbortController();
    res.once("close", () => gone.abort());
    if (left > 0) await sleep(left, undefined, { signal: gone.signal }).catch(() => undefined);
    if (gone.signal.aborted) return;
    write(res, reply);
  };

  const route = async (req: IncomingMessage, url: URL, fault: FaultAction | undefined): Promise<Reply> => {
    if (url.pathname === "/oauth2/token" && req.method === "POST" && auth) {
      // A token endpoint answers faults too (a proxy's HTML page, a 503).
      const injected = fault && (await inject(fault, url, req));
      if (injected) return injected;
      const answer = await auth.token(new URLSearchParams(await readBody(req)), req.headers.authorization);
      return json(answer.status, JSON.stringify(answer.body));
    }
    if (url.pathname === "/oauth2/certs" && auth) return json(200, JSON.stringify(await auth.jwks()));
    if (url.pathname.startsWith("/__sim/")) return admin(req, url.pathname);
    if (url.pathname !== "/runtimes") return text(404, "404 page not found\n");
    // Istio admits only GET on /runtimes.
    if (req.method !== "GET") return text(403, "RBAC: access denied");
    if (auth) {
      const denied = await auth.check(req.headers.authorization);
      if (denied) return text(denied.status, denied.text);
    }
    const injected = fault && (await inject(fault, url, req));
    if (injected) return injected;
    const query = new URLSearchParams(url.searchParams);
    if (fault?.kind === "overlap") query.set("__offset_shift", "-1");
    if (!fault || !RESHAPING.has(fault.kind)) {
      const { status, body } = handler.bytes(query);
      return json(status, body);
    }
    const answer = handler.handle(query);
    if (fault?.kind === "empty" && answer.status === 200) Object.assign(answer.body, { data: [], count: 0 });
    if (fault?.kind === "schema-invalid" && answer.status === 200)
      breakItem(answer.body.data, fault.item ?? 0);
    let body = answerText(answer);
    if (fault?.kind === "oversized" && answer.status === 200)
      body = `${body.slice(0, -1)},"padding":"${"x".repeat(fault.bytes)}"}`;
    if (fault?.kind === "truncate" || fault?.kind === "stall") return { kind: fault.kind, body };
    return json(answer.status, body);
  };

  /** A fault's own reply, or undefined when the request goes on (perhaps after changing the fleet). */
  const inject = async (fault: FaultAction, url: URL, req: IncomingMessage): Promise<Reply | undefined> => {
    switch (fault.kind) {
      case "echo":
        return { kind: "send", ...echoAnswer(fault, url, req, await readBody(req)) };
      case "status": {
        const headers: Record<string, string> = {};
        if (fault.retryAfter !== undefined) headers["retry-after"] = fault.retryAfter;
        if (fault.location !== undefined) headers.location = fault.location;
        if (fault.json)
          return json(fault.status, JSON.stringify({ error: fault.body ?? "injected" }), headers);
        return text(fault.status, fault.body ?? `${fault.status}`, headers);
      }
      case "reset":
        return { kind: "reset" };
      case "invalid-json":
        return json(
          200,
          "<html><body>upstream connect error or disconnect/reset before headers</body></html>",
        );
      case "shift": {
        // Rows before this page vanish (deprovisioning finished) and new ones appear at the end.
        const size = Number(url.searchParams.get("page_size") ?? "100");
        const offset = (Number(url.searchParams.get("page") ?? "1") - 1) * size;
        for (const i of fleet.all().slice(0, Math.min(fault.deleteBefore, offset)))
          fleet.delete(i.instanceID);
        fleet.create(fault.create);
        return undefined;
      }
      default:
        return undefined;
    }
  };

  const admin = async (req: IncomingMessage, path: string): Promise<Reply> => {
    if (path === "/__sim/mutate" && req.method === "POST") {
      const changes = fleet.mutate(JSON.parse((await readBody(req)) || "{}") as MutationPlan);
      return json(200, JSON.stringify({ changes }));
    }
    if (path === "/__sim/faults" && req.method === "POST") {
      faults.add(...(JSON.parse(await readBody(req)) as FaultRule[]));
      return text(204, "");
    }
    if (path === "/__sim/faults" && req.method === "DELETE") {
      faults.clear();
      return text(204, "");
    }
    if (path === "/__sim/stats")
      return json(200, JSON.stringify({ ...stats, size: fleet.size, version: fleet.version }));
    return text(404, "404 page not found\n");
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
  });
  const { port, address } = server.address() as AddressInfo;
  const url = `http://${address.includes(":") ? `[${address}]` : address}:${port}`;
  if (options.auth) auth = await SimAuth.create(url, options.auth);
  return {
    url,
    tokenUrl: `${url}/oauth2/token`,
    fleet,
    faults,
    auth,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What to do with a request once its latency is spent. */
// Faults that change a page's body: the page is built afresh, not taken from the handler's bytes.
const RESHAPING = new Set<FaultAction["kind"]>(["empty", "schema-invalid", "oversized", "truncate", "stall"]);

type Reply =
  | { kind: "send"; status: number; body: string | Buffer; type: string; headers?: Record<string, string> }
  | { kind: "reset" }
  /** Headers and half the body, then the socket drops (truncate) or stays silent (stall). */
  | { kind: "truncate" | "stall"; body: string };

function json(status: number, body: string | Buffer, headers?: Record<string, string>): Reply {
  return { kind: "send", status, body, type: "application/json", headers };
}

function text(status: number, body: string, headers?: Record<string, string>): Reply {
  return { kind: "send", status, body, type: "text/plain", headers };
}

function write(res: ServerResponse, reply: Reply): void {
  if (reply.kind === "reset") {
    res.socket?.destroy();
    return;
  }
  const body = reply.body;
  const headers =
    reply.kind === "send"
      ? { "content-type": reply.type, ...reply.headers }
      : { "content-type": "application/json" };
  res.writeHead(reply.kind === "send" ? reply.status : 200, {
    ...headers,
    "content-length": Buffer.byteLength(body),
  });
  if (reply.kind === "send") {
    res.end(body);
    return;
  }
  res.write(body.slice(0, Math.floor(body.length / 2)));
  // Let the half body leave before the socket drops; a stalled one is ended by the client or close().
  if (reply.kind === "truncate") setTimeout(() => res.socket?.destroy(), 5);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

/** Makes one item violate the schema the way a broken backend might: a time that is not a time. */
function breakItem(data: string[], index: number): void {
  const text = data[index];
  if (text === undefined) return;
  const item = JSON.parse(text) as { status: Record<string, unknown> };
  item.status.createdAt = "yesterday";
  data[index] = JSON.stringify(item);
}
