import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { type FaultAction, FaultPlan, type FaultRule } from "./faults.ts";
import { Fleet, type MutationPlan } from "./fleet.ts";
import type { FleetOptions } from "./fleet-generator.ts";
import { RuntimesHandler } from "./runtimes-handler.ts";
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
      if (!res.headersSent) send(res, 500, "Internal Server Error", "text/plain");
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
    if (delay > 0) await sleep(delay);

    if (url.pathname === "/oauth2/token" && req.method === "POST" && auth) {
      const answer = await auth.token(new URLSearchParams(await readBody(req)), req.headers.authorization);
      return send(res, answer.status, JSON.stringify(answer.body), "application/json");
    }
    if (url.pathname === "/oauth2/certs" && auth)
      return send(res, 200, JSON.stringify(await auth.jwks()), "application/json");
    if (url.pathname.startsWith("/__sim/")) return admin(req, res, url.pathname);
    if (url.pathname !== "/runtimes") return send(res, 404, "404 page not found\n", "text/plain");
    // Istio admits only GET on /runtimes.
    if (req.method !== "GET") return send(res, 403, "RBAC: access denied", "text/plain");
    if (auth) {
      const denied = await auth.check(req.headers.authorization);
      if (denied) return send(res, denied.status, denied.text, "text/plain");
    }
    if (fault && (await injected(fault, res, url))) return;
    const query = new URLSearchParams(url.searchParams);
    if (fault?.kind === "overlap") query.set("__offset_shift", "-1");
    const answer = handler.handle(query);
    if (fault?.kind === "empty" && answer.status === 200)
      Object.assign(answer.body as object, { data: [], count: 0 });
    if (fault?.kind === "schema-invalid" && answer.status === 200) breakItem(answer.body, fault.item ?? 0);
    const text = JSON.stringify(answer.body);
    if (fault?.kind === "truncate") {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.write(text.slice(0, Math.floor(text.length / 2)));
      // Let the half body leave before the socket drops, as when a proxy cuts a stream.
      setTimeout(() => res.socket?.destroy(), 5);
      return;
    }
    send(res, answer.status, text, "application/json");
  };

  const injected = async (fault: FaultAction, res: ServerResponse, url: URL): Promise<boolean> => {
    switch (fault.kind) {
      case "status": {
        const headers: Record<string, string> = {};
        if (fault.retryAfter !== undefined) headers["retry-after"] = fault.retryAfter;
        const body = fault.json
          ? JSON.stringify({ error: fault.body ?? "injected" })
          : (fault.body ?? `${fault.status}`);
        send(res, fault.status, body, fault.json ? "application/json" : "text/plain", headers);
        return true;
      }
      case "reset":
        res.socket?.destroy();
        return true;
      case "invalid-json":
        send(
          res,
          200,
          "<html><body>upstream connect error or disconnect/reset before headers</body></html>",
          "application/json",
        );
        return true;
      case "shift": {
        // Rows before this page vanish (deprovisioning finished) and new ones appear at the end.
        const offset =
          (Number(url.searchParams.get("page") ?? "1") - 1) *
          Number(url.searchParams.get("page_size") ?? "100");
        for (const i of fleet.all().slice(0, Math.min(fault.deleteBefore, offset)))
          fleet.delete(i.instanceID);
        fleet.create(fault.create);
        return false;
      }
      default:
        return false;
    }
  };

  const admin = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (path === "/__sim/mutate" && req.method === "POST") {
      const changes = fleet.mutate(JSON.parse((await readBody(req)) || "{}") as MutationPlan);
      return send(res, 200, JSON.stringify({ changes }), "application/json");
    }
    if (path === "/__sim/faults" && req.method === "POST") {
      faults.add(...(JSON.parse(await readBody(req)) as FaultRule[]));
      return send(res, 204, "", "text/plain");
    }
    if (path === "/__sim/faults" && req.method === "DELETE") {
      faults.clear();
      return send(res, 204, "", "text/plain");
    }
    if (path === "/__sim/stats") {
      return send(
        res,
        200,
        JSON.stringify({ ...stats, size: fleet.size, version: fleet.version }),
        "application/json",
      );
    }
    send(res, 404, "404 page not found\n", "text/plain");
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

function send(
  res: ServerResponse,
  status: number,
  body: string,
  type: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body), ...headers });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

/** Makes one item violate the schema the way a broken backend might: a time that is not a time. */
function breakItem(body: unknown, index: number): void {
  const item = (body as { data?: Array<{ status?: Record<string, unknown> }> }).data?.[index];
  if (item?.status) item.status.createdAt = "yesterday";
}
