import { createServer, type IncomingMessage } from "node:http";
import { type Dispatcher, type RetryingRequest, retryUntil } from "@fleet-auditor/http";
import { createHttpAgent, RETRY_INTERCEPTORS } from "@fleet-auditor/http/agent";
import { afterAll, describe, expect, it } from "vitest";
import { answerFault, type HttpFault } from "../../helpers/http-fault.ts";
import { useTestProxy } from "../../helpers/http-proxy.ts";
import { forTheFile, onLoopback } from "../../helpers/loopback.ts";

// The package's agent and retry interceptor on their own, against a server on loopback: what the
// KEB client, Slack and the pager all rely on. `app.test` resolves nowhere: it is reached through
// the test proxy alone, which forwards it to the same server.

/** What the server answers next (a fault each), then 200 "ok"; every request it saw. */
const script: { faults: HttpFault[]; seen: IncomingMessage[]; big?: number } = { faults: [], seen: [] };
const server = forTheFile(
  "at",
  () =>
    onLoopback(
      createServer((req, res) => {
        script.seen.push(req);
        if (req.url === "/redirect")
          return void res.writeHead(302, { location: "https://elsewhere.test/" }).end();
        if (req.url === "/big") return void res.end("x".repeat(script.big ?? 0));
        const fault = script.faults.shift();
        if (fault) return answerFault(res, fault);
        res.end("ok");
      }),
    ),
  () => {
    script.faults = [];
    script.seen = [];
  },
);
const port = (): number => Number(new URL(server.at.origin).port);
const proxy = useTestProxy({ "app.test": { host: "127.0.0.1", port } });

const agents: Dispatcher[] = [];
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
});

/** An agent closed after the file. */
function agent(options: Parameters<typeof createHttpAgent>[0] = {}): Dispatcher {
  const made = createHttpAgent(options);
  agents.push(made);
  return made;
}

/** A GET through `dispatcher` whose retries end before `deadlineAt`. */
function get(
  dispatcher: Dispatcher,
  url: string,
  deadlineAt = Date.now() + 10_000,
): Promise<Dispatcher.ResponseData> {
  const target = new URL(url);
  const request: RetryingRequest = {
    origin: target.origin,
    path: target.pathname,
    method: "GET",
    retryOptions: { retry: retryUntil(deadlineAt, { baseDelayMs: 10, maxDelayMs: 20, random: () => 0 }) },
  };
  return dispatcher.request(request);
}

describe("the HTTP agent", () => {
  it("reaches a host outside loopback through HTTP_PROXY, and a loopback host directly whatever NO_PROXY says", async () => {
    const http = agent({ proxy: { httpProxy: proxy.proxy.url, noProxy: "elsewhere.test" } });
    const viaProxy = await get(http, "http://app.test/through");
    expect(await viaProxy.body.text()).toBe("ok");
    expect(proxy.proxy.seen.some((line) => line.includes("app.test"))).toBe(true);

    const before = proxy.proxy.seen.length;
    const direct = await get(http, `${server.at.origin}/direct`);
    expect(await direct.body.text()).toBe("ok");
    expect(proxy.proxy.seen.length).toBe(before);
    expect(script.seen.map((r) => r.url)).toEqual(["/through", "/direct"]);
  });

  it("follows no redirect: the 302 is the answer", async () => {
    const res = await get(agent(), `${server.at.origin}/redirect`);
    await res.body.dump();
    expect(res.statusCode).toBe(302);
    expect(script.seen).toHaveLength(1);
  });

  it("fails a body past maxResponseBytes with undici's UND_ERR_RES_EXCEEDED_MAX_SIZE", async () => {
    script.big = 4096;
    const res = await get(agent({ maxResponseBytes: 1024 }), `${server.at.origin}/big`);
    await expect(res.body.text()).rejects.toMatchObject({ code: "UND_ERR_RES_EXCEEDED_MAX_SIZE" });
  });
});

describe("the deadline-aware retry interceptor", () => {
  it("retries a 503 and a 429 until the answer comes", async () => {
    script.faults = [{ status: 503 }, { status: 429 }];
    const res = await get(agent().compose(RETRY_INTERCEPTORS), `${server.at.origin}/retried`);
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe("ok");
    expect(script.seen).toHaveLength(3);
  });

  it("makes no retry whose wait would end past the deadline: the last answer stands", async () => {
    script.faults = [{ status: 503, body: "busy", retryAfter: "30" }];
    const res = await get(
      agent().compose(RETRY_INTERCEPTORS),
      `${server.at.origin}/late`,
      Date.now() + 5_000,
    );
    expect(res.statusCode).toBe(503);
    expect(await res.body.text()).toBe("busy");
    expect(script.seen).toHaveLength(1);
  });

  it("never resumes a body that broke off after its headers with a Range request", async () => {
    script.faults = [{ status: 200, body: "half of it", breakOff: true }];
    const res = await get(agent().compose(RETRY_INTERCEPTORS), `${server.at.origin}/broken`);
    await expect(res.body.text()).rejects.toThrow();
    expect(script.seen).toHaveLength(1);
    expect(script.seen.some((r) => r.headers.range !== undefined)).toBe(false);
  });
});
