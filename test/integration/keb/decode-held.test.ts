import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  KebClient,
  KebTransport,
  type RuntimeSource,
  StaticTokenProvider,
  scanRuntimes,
} from "@fleet-auditor/keb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useKebSimulator } from "../../helpers/keb.ts";

// How many pages are held whose body arrived but which are not decoded yet, when KEB answers at
// once (pre-rendered bodies from a loopback server) and the caller's work on a page (onPage:
// classifying) takes some of the thread: a page is decoded in a turn of the event loop of its own
// (DecodeTurns), and bodies ending faster than that must not pile up (a listing of 150 held ~75).
const PAGES = 100;
const kit = useKebSimulator({ fleet: { size: PAGES * 100, seed: 5 }, latencyMs: 0 });
const bodies: Buffer[] = [];
let server: Server;
let url = "";
let transport: KebTransport;

beforeAll(async () => {
  for (let page = 1; page <= PAGES; page++) {
    const { text } = await kit.raw(`/runtimes?state=all&page=${page}&page_size=100&operation_detail=last`, {
      authorization: "Bearer test-token",
    });
    bodies.push(Buffer.from(text));
  }
  server = createServer((req, res) => {
    const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? 1);
    const body = bodies[page - 1] ?? Buffer.from(`{"data":[],"count":0,"totalCount":${PAGES * 100}}`);
    res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  transport = new KebTransport({ headersTimeoutMs: 5000, bodyTimeoutMs: 5000 });
}, 120_000);
afterAll(async () => {
  await transport.close();
  await new Promise((resolve) => server.close(resolve));
});

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

async function mostHeld(classifyMs: number): Promise<{ most: number; pages: number }> {
  const client = new KebClient({
    baseUrl: url,
    transport,
    tokenProvider: new StaticTokenProvider("test-token"),
  });
  let arrived = 0;
  let decoded = 0;
  let most = 0;
  const source: RuntimeSource = {
    async listPage(params, options: Parameters<RuntimeSource["listPage"]>[1] = {}) {
      const page = await client.listPage(params, {
        ...options,
        onResponse: () => {
          arrived++;
          most = Math.max(most, arrived - decoded);
          options.onResponse?.();
        },
      });
      decoded++;
      return page;
    },
  };
  const result = await scanRuntimes(
    source,
    { states: ["all"] },
    { concurrency: 4, retain: false, expectedTotal: PAGES * 100, onPage: () => busy(classifyMs) },
  );
  expect(result.complete).toBe(true);
  return { most, pages: result.pages };
}

describe("pages held undecoded", () => {
  it("stay a few however fast KEB answers", async () => {
    for (const classifyMs of [0, 3]) {
      const { most, pages } = await mostHeld(classifyMs);
      expect(pages).toBe(PAGES);
      expect(most, `pages held, classifying ${classifyMs} ms a page`).toBeLessThanOrEqual(12);
    }
  }, 120_000);
});
