import { retryUntil } from "@fleet-auditor/http";
import { describe, expect, it } from "vitest";

// The decision undici's retry handler asks for, from the package's pure policy: the same
// answers as `retryDelayMs`, and never a wait that would end past the deadline.

type Decision = { retried: boolean; timer: unknown; after: Error | null | undefined };

/** Asks `retryUntil` about `err` at retry `counter` and waits for its answer. */
async function decide(err: Error, counter: number, deadlineAt: number): Promise<Decision> {
  const retry = retryUntil(deadlineAt, { baseDelayMs: 10, maxDelayMs: 20, random: () => 0 });
  let timer: unknown;
  const after = await new Promise<Error | null | undefined>((resolve) => {
    timer = (retry as (...args: unknown[]) => unknown)(err, { state: { counter }, opts: {} }, resolve);
  });
  return { retried: after === null, timer, after };
}

/** An error as undici's retry handler passes a status: `UND_ERR_REQ_RETRY` carrying it. */
const status = (statusCode: number, headers: Record<string, string> = {}): Error =>
  Object.assign(new Error("Request failed"), { code: "UND_ERR_REQ_RETRY", statusCode, headers });
const failure = (code: string): Error => Object.assign(new Error(code), { code });
const later = (): number => Date.now() + 60_000;

describe("retryUntil", () => {
  it("retries 429, 502, 503 and 504 after the policy's wait, handing undici the timer to clear on abort", async () => {
    for (const code of [429, 502, 503, 504]) {
      const d = await decide(status(code), 1, later());
      expect(d.retried, String(code)).toBe(true);
      expect(d.timer).toBeDefined();
    }
  });

  it("hands every other status on at once: KEB's 500, a redirect, a refusal", async () => {
    for (const code of [500, 302, 401, 403, 404]) {
      const err = status(code);
      expect(await decide(err, 1, later())).toMatchObject({ retried: false, after: err });
    }
  });

  it("retries a connection reset or refusal and a headers timeout, but no other failure", async () => {
    for (const code of ["ECONNRESET", "ECONNREFUSED", "UND_ERR_SOCKET", "UND_ERR_HEADERS_TIMEOUT"])
      expect((await decide(failure(code), 1, later())).retried, code).toBe(true);
    for (const code of ["UND_ERR_BODY_TIMEOUT", "UND_ERR_RES_EXCEEDED_MAX_SIZE", "ENOTFOUND"])
      expect((await decide(failure(code), 1, later())).retried, code).toBe(false);
  });

  it("stops once the retries are spent", async () => {
    expect((await decide(status(503), 4, later())).retried).toBe(true);
    expect((await decide(status(503), 5, later())).retried).toBe(false);
  });

  it("makes no retry whose wait would end at or after the deadline, Retry-After's included", async () => {
    const err = status(429, { "retry-after": "30" });
    expect(await decide(err, 1, Date.now() + 10_000)).toMatchObject({
      retried: false,
      after: err,
      timer: undefined,
    });
    expect((await decide(status(503), 1, Date.now() + 5)).retried).toBe(false);
  });
});
