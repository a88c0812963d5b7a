// Runs a KEB simulator in its own process, so a benchmark measures the client alone.
// Prints one JSON line {"url": …} when it listens; stops when its parent closes stdin.
import { parseArgs } from "node:util";
import { startKebSimulator } from "@fleet-auditor/keb-kubeedge-sim";

const { values } = parseArgs({
  options: {
    size: { type: "string" },
    flagged: { type: "string" },
    latency: { type: "string" },
    seed: { type: "string" },
    "expired-share": { type: "string" },
  },
});
const sim = await startKebSimulator({
  fleet: {
    size: Number(values.size ?? 1000),
    flagged: Number(values.flagged ?? 100),
    seed: Number(values.seed ?? 1),
    ...(values["expired-share"] ? { expiredShare: Number(values["expired-share"]) } : {}),
  },
  latencyMs: Number(values.latency ?? 0),
});
process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);
process.stdin.resume();
process.stdin.on("end", () => void sim.close().then(() => process.exit(0)));
