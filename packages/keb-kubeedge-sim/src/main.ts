#!/usr/bin/env node
// `npm run sim -- [--size N] [--seed N] [--flagged N] [--latency MS] [--port N] [--auth]`:
// a standalone KEB simulator on loopback, for trying the client or the CLI by hand.
import { parseArgs } from "node:util";
import { startKebSimulator } from "./server.ts";

// Bad arguments print one line and exit 1, not a stack trace.
const fail = (message: string): never => {
  process.stderr.write(`keb-kubeedge-sim: ${message}\n`);
  process.exit(1);
};
const { values } = (() => {
  try {
    return parseArgs({
      options: {
        size: { type: "string", default: "1000" },
        seed: { type: "string", default: "1" },
        flagged: { type: "string" },
        latency: { type: "string", default: "0" },
        port: { type: "string", default: "4800" },
        auth: { type: "boolean", default: false },
      },
    });
  } catch (err) {
    return fail((err as Error).message);
  }
})();
const number = (name: string, raw: string | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > max)
    return fail(`--${name} must be a whole number up to ${max}, got ${raw}`);
  return n;
};
const sim = await startKebSimulator({
  fleet: {
    size: number("size", values.size, 1_000_000) ?? 1000,
    seed: number("seed", values.seed),
    flagged: number("flagged", values.flagged),
  },
  latencyMs: number("latency", values.latency),
  port: number("port", values.port, 65_535),
  auth: values.auth
    ? { clients: [{ id: "fleet-auditor", secret: "local-secret", groups: ["runtimeViewer"] }] }
    : undefined,
});
process.stdout.write(`KEB simulator with ${sim.fleet.size} runtimes at ${sim.url}\n`);
if (values.auth)
  process.stdout.write(`token endpoint ${sim.tokenUrl} (client fleet-auditor / local-secret)\n`);
process.stdout.write(`try: curl '${sim.url}/runtimes?state=failed&state=error&page_size=5'\n`);
const stop = (): void => void sim.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
