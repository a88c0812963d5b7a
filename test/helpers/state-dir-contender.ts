// A process starting on a state directory, for tests that start many at once:
// `node state-dir-contender.ts <dir>`. It prints `ready` once loaded; for each line `go <epoch ms>`
// on stdin it spins until that moment (so that all contenders try within the same millisecond or
// so), tries the state-directory lock, and prints `held` or `busy <code>`. A holder keeps the lock
// until stdin ends (then it releases it) or it is killed (then the lock is left behind, stale).
import { createInterface } from "node:readline";
import { lockStateDir } from "../../packages/store/src/state-dir-lock.ts";

const dir = process.argv[2] as string;
const lines = createInterface({ input: process.stdin });
process.stdout.write("ready\n");
let release: (() => void) | undefined;
lines.on("line", (line) => {
  if (release) {
    // Still ours (a holder that was not killed takes part in no later trial, but must answer).
    process.stdout.write("held\n");
    return;
  }
  const at = Number(line.replace(/^go /, ""));
  while (Date.now() < at) {
    // Spin: a timer would spread the starts over the event loop's granularity.
  }
  try {
    release = lockStateDir(dir);
    process.stdout.write("held\n");
  } catch (err) {
    process.stdout.write(`busy ${(err as { code?: string }).code ?? (err as Error).message}\n`);
  }
});
lines.on("close", () => release?.());
