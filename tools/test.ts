// `npm test`: the static checks (`tools/check.ts`: lint, typecheck, deps) and Vitest at once. The
// suite is CPU-bound on these 2-core machines but leaves a core idle at times (its start, its
// tail, processes waiting on loopback servers); the checks fill it instead of holding Vitest back
// for their 25 s. Vitest's output streams as it runs; the checks' is printed after it, whole. Any
// failure fails the whole, after both have ended. Arguments go to Vitest (`npm test -- FILE`).
import { spawn } from "node:child_process";

const root = new URL("../", import.meta.url).pathname;

/** Runs a Node script; resolves with its exit code (1 when a signal ended it). */
function node(args: string[], capture: boolean): { done: Promise<number>; output: () => string } {
  let output = "";
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  child.stdout?.on("data", (d: Buffer) => {
    output += d;
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d;
  });
  const done = new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? 1)));
  return { done, output: () => output };
}

const checks = node([`${root}tools/check.ts`], true);
const vitest = node([`${root}node_modules/vitest/vitest.mjs`, "run", ...process.argv.slice(2)], false);
const [checked, tested] = await Promise.all([checks.done, vitest.done]);
process.stdout.write(`\n${checks.output()}`);
if (checked !== 0) process.stdout.write("\nnpm test: the static checks failed (above)\n");
process.exit(checked || tested);
