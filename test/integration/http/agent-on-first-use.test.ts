import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { type RetryingRequest, retryingAgentOnFirstUse, retryUntil } from "@fleet-auditor/http";
import { describe, expect, it } from "vitest";
import { answerFault, type HttpFault } from "../../helpers/http-fault.ts";
import { forTheFile, onLoopback } from "../../helpers/loopback.ts";

// The agent the KEB transport sends through, built at its first request: the package's root loads
// no undici, so that a cold start does not pay for it before a run sends anything.

const ROOT = new URL("../../../", import.meta.url).pathname;

const script: { faults: HttpFault[]; seen: number } = { faults: [], seen: 0 };
const server = forTheFile(
  "at",
  () =>
    onLoopback(
      createServer((_req, res) => {
        script.seen++;
        const fault = script.faults.shift();
        if (fault) return answerFault(res, fault);
        res.end("ok");
      }),
    ),
  () => {
    script.faults = [];
    script.seen = 0;
  },
);

/** Whether undici's index was evaluated, in a fresh Node process, after `code` ran there. */
function undiciLoadedAfter(code: string): boolean {
  const out = execFileSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `${code}
      const { createRequire } = await import("node:module");
      const cache = createRequire(import.meta.url).cache;
      process.stdout.write(String(Object.keys(cache).some((f) => f.includes("/node_modules/undici/index.js"))));`,
    ],
    { cwd: ROOT, env: { PATH: process.env.PATH ?? "" } },
  );
  return out.toString() === "true";
}

describe("retryingAgentOnFirstUse", () => {
  it("loads no undici at the package's import, and loads it at the first call", () => {
    const root = `const http = await import("@fleet-auditor/http"); const onFirstUse = http.retryingAgentOnFirstUse();`;
    expect(undiciLoadedAfter(root)).toBe(false);
    expect(undiciLoadedAfter(`${root} await onFirstUse();`)).toBe(true);
    // The yardstick of the check: the agent's own subpath does load it.
    expect(undiciLoadedAfter(`await import("@fleet-auditor/http/agent");`)).toBe(true);
  });

  it("builds one agent, at the first call, and retries through it within the deadline", async () => {
    const onFirstUse = retryingAgentOnFirstUse({ connections: 2 });
    const [first, second] = await Promise.all([onFirstUse(), onFirstUse()]);
    expect(second).toBe(first);
    expect(await onFirstUse()).toBe(first);
    script.faults = [{ status: 503 }];
    const request: RetryingRequest = {
      origin: server.at.origin,
      path: "/page",
      method: "GET",
      retryOptions: { retry: retryUntil(Date.now() + 10_000, { baseDelayMs: 10, random: () => 0 }) },
    };
    const res = await first.retrying.request(request);
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe("ok");
    expect(script.seen).toBe(2);
    await first.agent.close();
  });
});
