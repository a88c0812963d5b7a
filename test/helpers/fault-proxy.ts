import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

/**
 * A real HTTP proxy on loopback between the AWS SDK and an emulator (dynalite, fauxqs) that
 * injects faults by operation: the SDK's own retries, timeouts and error parsing run unchanged,
 * which a mocked client would skip. Operations are read as AWS routes them: DynamoDB's
 * `X-Amz-Target`, SNS's (query protocol) `Action` form field.
 */
export type FaultAction =
  /** An AWS error answer in the protocol's own format. */
  | { kind: "error"; status: number; code: string; message: string }
  /** BatchWriteItem only: nothing written, every request back as `UnprocessedItems`. */
  | { kind: "unprocessed" }
  /** The request reaches the emulator; the answer waits until `release` resolves. */
  | { kind: "hold"; release: Promise<void>; onHeld?: () => void }
  /** The connection drops before any answer (the request never reaches the emulator). */
  | { kind: "reset" };

export interface FaultRule {
  operation: string;
  /** How many matching requests this rule takes; then it is spent. */
  times: number;
  action: FaultAction;
  /** Only requests whose body contains this text (a table name, a key). */
  bodyIncludes?: string;
}

export interface FaultProxy {
  url: string;
  add(...rules: FaultRule[]): void;
  clear(): void;
  /** Every operation that came through, in order, faulted or not. */
  seen: string[];
  /** The same requests with their bodies (what a test reads keys from). */
  requests: Array<{ operation: string; body: string }>;
  close(): Promise<void>;
}

/** Starts a proxy to `upstream` (e.g. `http://127.0.0.1:8000`). */
async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  let rules: FaultRule[] = [];
  const seen: string[] = [];
  const requests: FaultProxy["requests"] = [];
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.socket?.destroy());
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readAll(req);
    const operation = operationOf(req, body);
    seen.push(operation);
    requests.push({ operation, body: body.toString("utf8") });
    const rule = rules.find(
      (r) => r.times > 0 && r.operation === operation && (!r.bodyIncludes || body.includes(r.bodyIncludes)),
    );
    if (rule) rule.times--;
    const action = rule?.action;
    if (action?.kind === "reset") {
      res.socket?.destroy();
      return;
    }
    if (action?.kind === "error") {
      const json = req.headers["x-amz-target"] !== undefined;
      const text = json
        ? JSON.stringify({
            __type: `com.amazonaws.dynamodb.v20120810#${action.code}`,
            message: action.message,
          })
        : `<ErrorResponse><Error><Type>Sender</Type><Code>${action.code}</Code><Message>${action.message}</Message></Error><RequestId>fault-proxy</RequestId></ErrorResponse>`;
      res.writeHead(action.status, {
        "content-type": json ? "application/x-amz-json-1.0" : "text/xml",
        "x-amzn-requestid": "fault-proxy",
      });
      res.end(text);
      return;
    }
    if (action?.kind === "unprocessed") {
      const { RequestItems } = JSON.parse(body.toString("utf8")) as { RequestItems: unknown };
      res.writeHead(200, { "content-type": "application/x-amz-json-1.0" });
      res.end(JSON.stringify({ UnprocessedItems: RequestItems }));
      return;
    }
    const answer = await forward(target, req, body);
    if (action?.kind === "hold") {
      action.onHeld?.();
      await action.release;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    add: (...more) => {
      rules.push(...more);
    },
    clear: () => {
      rules = [];
    },
    seen,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fault proxy for one test file, started before its tests and closed after. */
export function useFaultProxy(upstream: () => string): { proxy: FaultProxy } {
  const holder = {} as { proxy: FaultProxy };
  beforeAll(async () => {
    holder.proxy = await startFaultProxy(upstream());
  });
  afterAll(async () => {
    await holder.proxy?.close();
  });
  return holder;
}

/** A gate a `hold` waits on, and a promise that settles once a request is held at it. */
export function gate(): { release: () => void; held: Promise<void>; action: FaultAction } {
  let release = (): void => undefined;
  let onHeld = (): void => undefined;
  const released = new Promise<void>((r) => {
    release = r;
  });
  const held = new Promise<void>((r) => {
    onHeld = r;
  });
  return { release, held, action: { kind: "hold", release: released, onHeld } };
}

function operationOf(req: IncomingMessage, body: Buffer): string {
  const target = req.headers["x-amz-target"];
  if (typeof target === "string") return target.slice(target.lastIndexOf(".") + 1);
  return new URLSearchParams(body.toString("utf8")).get("Action") ?? `${req.method} ${req.url}`;
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function forward(
  target: URL,
  req: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const out = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (res) => {
        void readAll(res).then((b) => {
          const headers = { ...res.headers } as Record<string, string | string[]>;
          delete headers["transfer-encoding"];
          headers["content-length"] = String(b.length);
          resolve({ status: res.statusCode ?? 502, headers, body: b });
        }, reject);
      },
    );
    out.on("error", reject);
    out.end(body);
  });
}
