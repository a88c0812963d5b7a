import {
  ClientCredentialsTokenProvider,
  type KebClient,
  KebDeadlineError,
  KebTransport,
  type ScanResult,
  scanAll,
} from "@fleet-auditor/keb";
import { Fleet, generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useKebSimulator } from "../../helpers/keb.ts";

// One deadline for the whole run, carried by one AbortSignal into the KEB client: a KEB (or a
// token endpoint) that answers slowly, or asks for a retry later than the run can wait, ends the
// scan incomplete with KEB_DEADLINE, its request in flight aborted, instead of running the
// function into its timeout. The client's own limits are set far beyond the run's here, so that
// only the run's deadline can end these scans.

const kit = useKebSimulator({ fleet: new Fleet([]) });
const guarded = useKebSimulator({
  fleet: { size: 50, seed: 3, flagged: 10 },
  auth: { clients: [{ id: "auditor", secret: "s3cret-value", groups: ["runtimeViewer"] }] },
});
const patient = new KebTransport({ headersTimeoutMs: 120_000, bodyTimeoutMs: 120_000 });
const SLOW = 120_000;

beforeEach(() => {
  kit.sim.faults.clear();
  // 1,050 runtimes: 11 pages of 100.
  kit.sim.fleet.reset(generateFleet({ size: 1050, seed: 5, flagged: 120 }));
});
afterEach(() => {
  kit.sim.faults.clear();
  guarded.sim.faults.clear();
});

const client = (): KebClient => kit.client({ transport: patient, requestTimeoutMs: 300_000 });
const runtimesRequests = (): number => kit.sim.stats.byPath["/runtimes"] ?? 0;

describe("the run's deadline at the KEB client", () => {
  it("ends a scan that a slow KEB keeps past it incomplete with KEB_DEADLINE, the request in flight aborted", async () => {
    kit.sim.faults.add({ page: 3, times: Number.POSITIVE_INFINITY, action: { kind: "delay", ms: SLOW } });
    const before = runtimesRequests();
    const deadline = new AbortController();
    const scans = scanAll(client(), [{ states: ["all"] }], { concurrency: 1, signal: deadline.signal });
    await vi.waitFor(() => expect(runtimesRequests() - before).toBe(3), { timeout: 30_000 });
    deadline.abort(new DOMException("the run's time is up", "TimeoutError"));
    const [scan] = (await scans) as [ScanResult];
    expect(scan).toMatchObject({ complete: false, pages: 2, listed: 200, totalCount: 1050 });
    expect(scan.runtimes).toHaveLength(200);
    expect(scan.error).toBeInstanceOf(KebDeadlineError);
    expect(scan.error?.code).toBe("KEB_DEADLINE");
    expect(scan.incompleteReason).toMatch(
      /^page 3: the run's deadline passed before GET .*page=3.* answered$/,
    );
    // The simulator saw the request go away, and no later page was asked for.
    await vi.waitFor(() => expect(kit.sim.stats.inFlight).toBe(0), { timeout: 30_000 });
    expect(runtimesRequests() - before).toBe(3);
  });

  it("does not decode a page whose body arrived once the deadline has passed", async () => {
    const deadline = new AbortController();
    const page = client().listPage(
      { states: ["all"], page: 1, pageSize: 100 },
      {
        signal: deadline.signal,
        // The body is in; the page waits for its turn to be decoded when the run's time is up.
        onResponse: () => deadline.abort(new DOMException("the run's time is up", "TimeoutError")),
      },
    );
    await expect(page).rejects.toMatchObject({ code: "KEB_DEADLINE" });
  });

  it("aborts a body that stops arriving when the deadline passes", async () => {
    kit.sim.faults.add({ page: 2, times: Number.POSITIVE_INFINITY, action: { kind: "stall" } });
    const before = runtimesRequests();
    const deadline = new AbortController();
    const scans = scanAll(client(), [{ states: ["all"] }], { concurrency: 1, signal: deadline.signal });
    await vi.waitFor(() => expect(runtimesRequests() - before).toBe(2), { timeout: 30_000 });
    // Headers and half the body of page 2 have come; the rest never will.
    await vi.waitFor(() => expect(kit.sim.stats.inFlight).toBe(1), { timeout: 30_000 });
    deadline.abort(new DOMException("the run's time is up", "TimeoutError"));
    const [scan] = (await scans) as [ScanResult];
    expect(scan).toMatchObject({ complete: false, pages: 1 });
    expect(scan.error?.code).toBe("KEB_DEADLINE");
    await vi.waitFor(() => expect(kit.sim.stats.inFlight).toBe(0), { timeout: 30_000 });
  });

  it("ends every query of scanAll with KEB_DEADLINE when the deadline has already passed, asking KEB nothing", async () => {
    const before = runtimesRequests();
    const results = await scanAll(client(), [{ states: ["all"] }, { states: ["failed", "error"] }], {
      signal: AbortSignal.abort(new DOMException("late", "TimeoutError")),
    });
    expect(results.map((r) => [r.complete, r.pages, r.error?.code])).toEqual([
      [false, 0, "KEB_DEADLINE"],
      [false, 0, "KEB_DEADLINE"],
    ]);
    expect(runtimesRequests()).toBe(before);
  });

  it("makes no retry that would wait past the deadline: the last answer stands", async () => {
    kit.sim.faults.add({
      page: 1,
      times: Number.POSITIVE_INFINITY,
      action: { kind: "status", status: 503, retryAfter: "20", body: "upstream busy" },
    });
    const before = runtimesRequests();
    const [scan] = (await scanAll(client(), [{ states: ["all"] }], {
      signal: new AbortController().signal,
      deadlineAt: Date.now() + 10_000,
    })) as [ScanResult];
    expect(scan.complete).toBe(false);
    expect(scan.error).toMatchObject({ code: "KEB_HTTP", status: 503 });
    expect(runtimesRequests() - before).toBe(1);
  });

  it("cuts a retry's wait short when the deadline aborts it", async () => {
    kit.sim.faults.add({
      page: 1,
      times: Number.POSITIVE_INFINITY,
      action: { kind: "status", status: 503, retryAfter: String(SLOW / 1000), body: "upstream busy" },
    });
    const before = runtimesRequests();
    const deadline = new AbortController();
    const scans = scanAll(client(), [{ states: ["all"] }], { signal: deadline.signal });
    await vi.waitFor(() => expect(runtimesRequests() - before).toBe(1), { timeout: 30_000 });
    deadline.abort(new DOMException("the run's time is up", "TimeoutError"));
    const [scan] = (await scans) as [ScanResult];
    expect(scan.error?.code).toBe("KEB_DEADLINE");
    expect(runtimesRequests() - before).toBe(1);
  });

  it("aborts a token request the issuer is slow to answer, and the scan ends with KEB_DEADLINE", async () => {
    guarded.sim.faults.add({
      path: "/oauth2/token",
      times: Number.POSITIVE_INFINITY,
      action: { kind: "delay", ms: SLOW },
    });
    const tokenProvider = new ClientCredentialsTokenProvider({
      tokenUrl: guarded.sim.tokenUrl,
      clientId: "auditor",
      clientSecret: "s3cret-value",
      transport: patient,
      timeoutMs: 300_000,
    });
    const source = guarded.client({ tokenProvider, transport: patient, requestTimeoutMs: 300_000 });
    const deadline = new AbortController();
    const scans = scanAll(source, [{ states: ["all"] }], { signal: deadline.signal });
    await vi.waitFor(() => expect(guarded.sim.stats.byPath["/oauth2/token"]).toBe(1), { timeout: 30_000 });
    deadline.abort(new DOMException("the run's time is up", "TimeoutError"));
    const [scan] = (await scans) as [ScanResult];
    expect(scan.error).toBeInstanceOf(KebDeadlineError);
    expect(scan.incompleteReason).toMatch(
      /the run's deadline passed before the token endpoint http:\/\/127\.0\.0\.1:\d+ answered/,
    );
    expect(scan.incompleteReason).not.toContain("s3cret-value");
    await expect(tokenProvider.getToken(AbortSignal.abort())).rejects.toMatchObject({ code: "KEB_DEADLINE" });
  });

  it("has the client throw KEB_DEADLINE for a page asked for after the deadline", async () => {
    await expect(
      client().listPage({ states: ["all"], page: 1, pageSize: 100 }, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: "KebDeadlineError", code: "KEB_DEADLINE" });
  });
});
