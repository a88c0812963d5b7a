import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  KebAuthError,
  KebClient,
  KebConfigError,
  KebHttpError,
  KebSchemaError,
  KebTimeoutError,
  KebTransport,
  StaticTokenProvider,
} from "@fleet-auditor/keb";
import { afterEach, describe, expect, it } from "vitest";
import { useKebSimulator } from "../../helpers/keb.ts";

const kit = useKebSimulator({ fleet: { size: 250, seed: 3 } });
afterEach(() => kit.sim.faults.clear());

const page1 = { states: ["all" as const], page: 1 };

describe("KebClient against faults", () => {
  it("returns a validated page", async () => {
    const page = await kit.client().listPage({ states: ["all"], page: 2, pageSize: 100 });
    expect(page.totalCount).toBe(250);
    expect(page.data.map((r) => r.instanceID)).toEqual(
      kit.sim.fleet
        .all()
        .slice(100, 200)
        .map((i) => i.instanceID),
    );
  });

  it("meets a fault that changes a page the simulator has served before, and only once", async () => {
    const client = kit.client();
    const page = { states: ["all" as const], page: 2, pageSize: 100 };
    expect((await client.listPage(page)).data).toHaveLength(100);
    kit.sim.faults.add({ page: 2, action: { kind: "empty" } });
    expect((await client.listPage(page)).data).toHaveLength(0);
    expect((await client.listPage(page)).data).toHaveLength(100);
  });

  it("retries a burst of 503s and then succeeds", async () => {
    const before = kit.sim.stats.byPath["/runtimes"] ?? 0;
    kit.sim.faults.add({ action: { kind: "status", status: 503, body: "upstream connect error" }, times: 3 });
    const page = await kit.client().listPage(page1);
    expect(page.data).toHaveLength(100);
    expect((kit.sim.stats.byPath["/runtimes"] ?? 0) - before).toBe(4);
  });

  it.each([502, 504])("retries %i", async (status) => {
    kit.sim.faults.add({ action: { kind: "status", status }, times: 2 });
    await expect(kit.client().listPage(page1)).resolves.toMatchObject({ totalCount: 250 });
  });

  it("waits as long as Retry-After asks on a 429", async () => {
    kit.sim.faults.add({ action: { kind: "status", status: 429, retryAfter: "1", body: "slow down" } });
    const started = performance.now();
    await kit.client().listPage(page1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });

  it("gives up at once when Retry-After reaches past the deadline, with the real status", async () => {
    kit.sim.faults.add({ action: { kind: "status", status: 429, retryAfter: "30", body: "slow down" } });
    // Gave up at once rather than sleep toward its deadline: far under it, however loaded the machine.
    const started = performance.now();
    const err = await kit
      .client({ requestTimeoutMs: 20_000 })
      .listPage(page1)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KebHttpError);
    expect(err).toMatchObject({ code: "KEB_HTTP", status: 429, bodyExcerpt: "slow down" });
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("surfaces KEB's JSON error text on a 500 without retrying it", async () => {
    const before = kit.sim.stats.byPath["/runtimes"] ?? 0;
    kit.sim.faults.add({
      action: { kind: "status", status: 500, json: true, body: "while fetching instances: pq: timeout" },
    });
    const err = await kit
      .client()
      .listPage(page1)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: "KEB_HTTP",
      status: 500,
      bodyExcerpt: "while fetching instances: pq: timeout",
    });
    expect((kit.sim.stats.byPath["/runtimes"] ?? 0) - before).toBe(1);
  });

  it("surfaces a gateway's plain-text error after the retries run out", async () => {
    kit.sim.faults.add({
      action: { kind: "status", status: 503, body: "no healthy upstream" },
      times: Number.POSITIVE_INFINITY,
    });
    const err = await kit
      .client({ retry: { maxRetries: 2, baseDelayMs: 1 } })
      .listPage(page1)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "KEB_HTTP", status: 503, bodyExcerpt: "no healthy upstream" });
    expect((err as Error).message).toContain("HTTP 503: no healthy upstream");
  });

  it("retries a connection reset", async () => {
    kit.sim.faults.add({ action: { kind: "reset" }, times: 2 });
    await expect(kit.client().listPage(page1)).resolves.toMatchObject({ count: 100 });
  });

  it("asks again for a page whose body broke off", async () => {
    kit.sim.faults.add({ action: { kind: "truncate" }, times: 2 });
    await expect(kit.client().listPage(page1)).resolves.toMatchObject({ count: 100 });
  });

  it("asks again from the start for a page whose body broke off, never resuming it with a Range request", async () => {
    // KEB answers no ranges, and a resumed page would splice two answers of a list that moves.
    kit.sim.faults.add({ action: { kind: "truncate" } });
    const before = kit.sim.stats.byPath["/runtimes"] ?? 0;
    await expect(kit.client().listPage(page1)).resolves.toMatchObject({ count: 100 });
    expect((kit.sim.stats.byPath["/runtimes"] ?? 0) - before).toBe(2);
  });

  it("reports a body that is never JSON as KEB_SCHEMA after asking again", async () => {
    kit.sim.faults.add({ action: { kind: "invalid-json" }, times: 3 });
    const err = await kit
      .client()
      .listPage(page1)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KebSchemaError);
    expect((err as Error).message).toMatch(/body is not JSON .*upstream connect error/);
  });

  it("names the path and instance of an item that breaks the schema", async () => {
    kit.sim.faults.add({ action: { kind: "schema-invalid", item: 4 } });
    const err = await kit
      .client()
      .listPage({ ...page1, page: 2 })
      .catch((e: unknown) => e);
    const expectedId = kit.sim.fleet.all()[104]?.instanceID;
    expect(err).toMatchObject({
      code: "KEB_SCHEMA",
      path: "$.data[4].status.createdAt",
      instanceID: expectedId,
      page: 2,
    });
  });

  it("times out waiting for headers as KEB_TIMEOUT, within the deadline", async () => {
    kit.sim.faults.add({ action: { kind: "delay", ms: 1500 }, times: Number.POSITIVE_INFINITY });
    const err = await kit
      .client({ requestTimeoutMs: 800 })
      .listPage(page1)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KebTimeoutError);
    expect(err).toMatchObject({ code: "KEB_TIMEOUT", phase: "deadline" });
  });

  it("reports the headers timeout of the transport as KEB_TIMEOUT once retries are spent", async () => {
    kit.sim.faults.add({ action: { kind: "delay", ms: 2500 }, times: Number.POSITIVE_INFINITY });
    // The harness transport waits 2 s for headers; with no retries the headers phase is what fails.
    const err = await kit
      .client({ retry: { maxRetries: 0 }, requestTimeoutMs: 10_000 })
      .listPage(page1)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "KEB_TIMEOUT", phase: "headers" });
  });

  it("reports a body that stops arriving as KEB_TIMEOUT (body) after asking again", async () => {
    kit.sim.faults.add({ action: { kind: "stall" }, times: 3 });
    // A short body timeout: three stalls at the harness's 2 s would take 6 s of the suite.
    const transport = new KebTransport({ headersTimeoutMs: 2000, bodyTimeoutMs: 300 });
    const err = await kit
      .client({ requestTimeoutMs: 15_000, transport })
      .listPage(page1)
      .catch((e: unknown) => e);
    await transport.close();
    expect(err).toBeInstanceOf(KebTimeoutError);
    expect(err).toMatchObject({ code: "KEB_TIMEOUT", phase: "body" });
  });

  it("reports a redirect as what it is, naming only where it points, not as a body that is not JSON", async () => {
    kit.sim.faults.add({
      action: {
        kind: "status",
        status: 302,
        location: "https://login.example/oauth?client=x",
        body: "<html>login</html>",
      },
    });
    const err = await kit
      .client()
      .listPage(page1)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KebHttpError);
    expect((err as Error).message).toMatch(
      /HTTP 302: redirected to https:\/\/login.example: is KEB_URL the broker's API\?/,
    );
  });

  it("quotes a redirect's origin, never the path or query a gateway echoed the token into", async () => {
    const token = "tok-Location-1234567890";
    kit.sim.faults.add({ action: { kind: "echo", status: 302, style: "location" } });
    const err = await kit
      .client({ tokenProvider: new StaticTokenProvider(token) })
      .listPage(page1)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KebHttpError);
    const message = (err as Error).message;
    expect(message).toContain(`redirected to ${kit.sim.url}: is KEB_URL the broker's API?`);
    expect(message).not.toContain(token.slice(0, 12));
    expect(message).not.toContain("/login");
  });

  it("fails a page whose body passes the transport's size limit, without reading it all or asking again", async () => {
    const transport = new KebTransport({ maxResponseBytes: 1_000_000 });
    try {
      kit.sim.faults.add({ action: { kind: "oversized", bytes: 3_000_000 }, times: 3 });
      const before = kit.sim.stats.byPath["/runtimes"] ?? 0;
      const err = await kit
        .client({ transport })
        .listPage(page1)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(KebSchemaError);
      expect((err as Error).message).toMatch(/body is over the limit of 1000000 bytes/);
      // Not asked for again: the same page would be as large.
      expect((kit.sim.stats.byPath["/runtimes"] ?? 0) - before).toBe(1);
      kit.sim.faults.clear();
      // The same page under the default limit is read.
      kit.sim.faults.add({ action: { kind: "oversized", bytes: 3_000_000 } });
      await expect(kit.client().listPage(page1)).resolves.toMatchObject({ count: 100 });
    } finally {
      await transport.close();
    }
  });

  it("recovers when a stalled body is followed by a good answer", async () => {
    kit.sim.faults.add({ action: { kind: "stall" } });
    await expect(kit.client().listPage(page1)).resolves.toMatchObject({ count: 100 });
  });

  it("reports a refused connection as KEB_HTTP with status 0", async () => {
    // A port that was just free: nothing listens there. (fetch refuses well-known ports like 9 itself.)
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const client = new KebClient({
      baseUrl: `http://127.0.0.1:${port}`,
      transport: kit.transport,
      tokenProvider: new StaticTokenProvider("t"),
      retry: { maxRetries: 1, baseDelayMs: 1 },
    });
    const err = await client.listPage(page1).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "KEB_HTTP", status: 0 });
    expect((err as Error).message).toContain("ECONNREFUSED");
  });

  it("refuses plain http to a host that is not loopback", () => {
    const make = (baseUrl: string) =>
      new KebClient({ baseUrl, transport: kit.transport, tokenProvider: new StaticTokenProvider("t") });
    expect(() => make("http://kyma-env-broker.example.com")).toThrow(KebConfigError);
    expect(() => make("http://10.0.0.5:8080")).toThrow(/plain http is allowed only to a loopback host/);
    expect(() => make("http://localhost:8080")).not.toThrow();
    expect(() => make("http://[::1]:8080")).not.toThrow();
    expect(() => make("https://kyma-env-broker.example.com")).not.toThrow();
  });

  it("answers without a token with KEB_AUTH when the gateway wants one", async () => {
    kit.sim.faults.add({ action: { kind: "status", status: 403, body: "RBAC: access denied" } });
    const err = await kit
      .client()
      .listPage(page1)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KebAuthError);
    expect(err).toMatchObject({ status: 403 });
    expect((err as Error).message).toContain("runtimeViewer");
  });
});
