// `npm run typecheck`: the code (tsconfig.json's files) with the documentation's ```ts blocks
// (.snippets/, written by tools/snippets.ts and removed after) in one program, and sst.config.ts
// against SST's component types (tsconfig.sst.json, after making `.sst/platform` current), at once.

import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { asPageLines, SNIPPETS_DIR, writeSnippets } from "./snippets.ts";
import { ensureSstPlatform } from "./sst-platform.ts";

const root = new URL("../", import.meta.url).pathname;
const tsc = new URL("../node_modules/typescript/bin/tsc", import.meta.url).pathname;

ensureSstPlatform();
const snippets = writeSnippets(root);
const run = (project: string): Promise<number> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, "-p", project], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d;
    });
    child.stderr.on("data", (d: Buffer) => {
      out += d;
    });
    child.on("close", (code) => {
      if (out) process.stdout.write(`${project}:\n${asPageLines(out, snippets)}`);
      resolve(code ?? 1);
    });
  });
// The code and the snippets in one program (tools/snippets.ts), sst.config.ts in the other.
const codes = await Promise.all([run(`${SNIPPETS_DIR}/tsconfig.json`), run("tsconfig.sst.json")]);
rmSync(new URL(`../${SNIPPETS_DIR}`, import.meta.url), { recursive: true, force: true });
process.exitCode = codes.some((c) => c !== 0) ? 1 : 0;
