// `npm test`'s static checks (`npm run lint`, `typecheck` and `deps`) at once instead of one after
// the other: the two type checks take about 20 s and leave the second core idle part of the time,
// which biome and knip fill (about 6 s less than in a row, measured). Each step is its package.json
// script, run by a shell with node_modules/.bin first on PATH as npm runs it, so the scripts stay
// the one place that says what a step runs. Each step's output is printed whole, after it ends, one
// step after the other, so they do not interleave; a failing step's output comes last, under its
// name, and any failing step fails the whole, after every step has run.
//
// `node tools/check.ts [step …]` runs the given steps only.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

const root = new URL("../", import.meta.url).pathname;
const STEPS = ["lint", "typecheck", "deps"];

interface Outcome {
  step: string;
  code: number;
  output: string;
  seconds: number;
}

const scripts = (
  JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { scripts: Record<string, string> }
).scripts;

function run(step: string): Promise<Outcome> {
  const script = scripts[step];
  if (script === undefined) throw new Error(`tools/check.ts: package.json has no script "${step}"`);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", script], {
      cwd: root,
      env: { ...process.env, PATH: `${root}node_modules/.bin:${process.env.PATH ?? ""}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => {
      output += d;
    });
    child.stderr.on("data", (d: Buffer) => {
      output += d;
    });
    child.on("close", (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      resolve({ step, code: code ?? (signal ? 1 : 0), output, seconds });
    });
  });
}

const steps = process.argv.length > 2 ? process.argv.slice(2) : STEPS;
const outcomes = await Promise.all(steps.map(run));
// Passing steps first, failing ones last: what needs reading ends up above the prompt.
for (const o of [...outcomes].sort((a, b) => Number(a.code !== 0) - Number(b.code !== 0))) {
  const verdict = o.code === 0 ? "ok" : `FAILED (exit ${o.code})`;
  process.stdout.write(`\n> ${o.step}: ${scripts[o.step]}\n${o.output}`);
  process.stdout.write(
    `${o.output.endsWith("\n") || o.output === "" ? "" : "\n"}> ${o.step} ${verdict} in ${o.seconds.toFixed(1)} s\n`,
  );
}
const failed = outcomes.filter((o) => o.code !== 0).map((o) => o.step);
if (failed.length > 0) process.stdout.write(`\ncheck: ${failed.join(", ")} failed\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
