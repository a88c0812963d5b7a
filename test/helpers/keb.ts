import {
  KebClient,
  type KebClientOptions,
  KebTransport,
  StaticTokenProvider,
  type TokenProvider,
} from "@fleet-auditor/keb";
import { type KebSimulator, type SimulatorOptions, startKebSimulator } from "@fleet-auditor/keb-kubeedge-sim";
import { afterAll, beforeAll } from "vitest";

/** A simulator and a transport for one test file; the simulator is closed after it. */
export interface KebHarness {
  sim: KebSimulator;
  transport: KebTransport;
  /** A client on the simulator; fast retries so fault tests stay quick. */
  client(overrides?: Partial<KebClientOptions> & { tokenProvider?: TokenProvider }): KebClient;
  /** GET a raw path on the simulator (no client logic), parsed as JSON when it is JSON. */
  raw(
    pathAndQuery: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: unknown; text: string }>;
}

/** Starts a simulator before the file's tests and closes it after. */
export function useKebSimulator(options: SimulatorOptions = {}): KebHarness {
  const harness = {} as KebHarness;
  beforeAll(async () => {
    harness.sim = await startKebSimulator(options);
    harness.transport = new KebTransport({ headersTimeoutMs: 2000, bodyTimeoutMs: 2000 });
  });
  afterAll(async () => {
    await harness.transport?.close();
    await harness.sim?.close();
  });
  harness.client = (overrides = {}) =>
    new KebClient({
      baseUrl: harness.sim.url,
      transport: harness.transport,
      tokenProvider: new StaticTokenProvider("test-token"),
      retry: { baseDelayMs: 5, maxDelayMs: 50 },
      requestTimeoutMs: 5000,
      ...overrides,
    });
  harness.raw = async (pathAndQuery, headers = {}) => {
    const res = await fetch(`${harness.sim.url}${pathAndQuery}`, { headers });
    const text = await res.text();
    let body: unknown = text;
    if (res.headers.get("content-type")?.includes("json")) body = JSON.parse(text);
    return { status: res.status, body, text };
  };
  return harness;
}

/** The instance IDs of a raw `/runtimes` answer. */
export function ids(body: unknown): string[] {
  return (body as { data: Array<{ instanceID: string }> }).data.map((r) => r.instanceID);
}
