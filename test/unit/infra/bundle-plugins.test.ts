import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import plugins from "../../../infra/bundle-plugins.mjs";

const ROOT = new URL("../../../", import.meta.url).pathname;
const PARSER_H1 = `${ROOT}node_modules/undici/lib/dispatcher/parser-h1.js`;
const STAND_IN = `${ROOT}infra/undici-milo-omitted.cjs`;
// SST's own bridge script, made by `sst install` (`tools/sst-platform.ts`, which CI runs before
// `npm test`, as the type check needs SST's platform too).
const BRIDGE = `${ROOT}.sst/platform/functions/nodejs-runtime/plugin.mjs`;

describe("the functions' bundle plugins", () => {
  it("leave undici's Milo parser out under esbuild, and keep its llhttp parser", async () => {
    const result = await build({
      stdin: { contents: `import "undici/lib/dispatcher/client.js";`, resolveDir: ROOT },
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      metafile: true,
      plugins,
      logLevel: "silent",
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((i) => i.includes("undici/lib/milo/"))).toEqual([]);
    expect(inputs).toContain("infra/undici-milo-omitted.cjs");
    expect(inputs).toContain("node_modules/undici/lib/llhttp/llhttp_simd-wasm.js");
  }, 30_000);

  it("resolve the same through SST's bridge, which runs them in a node process and filters on no path", async () => {
    // Fails rather than skips: CI always has the bridge, so its absence there means SST moved it.
    expect(
      existsSync(BRIDGE),
      `${BRIDGE} is missing: run \`node_modules/.bin/node tools/sst-platform.ts\` first`,
    ).toBe(true);
    const bridge = spawn(process.execPath, [BRIDGE, `${ROOT}infra/bundle-plugins.mjs`]);
    let stderr = "";
    bridge.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    // A bridge that exits fails the question at once, with what it said, instead of the timeout.
    const exited = once(bridge, "exit").then(([code]) => {
      throw new Error(`SST's bundle-plugin bridge exited (${code}) without answering: ${stderr.trim()}`);
    });
    exited.catch(() => undefined); // the kill below ends it too: not an error then
    const replies = createInterface({ input: bridge.stdout });
    const ask = async (id: number, path: string, importer: string) => {
      const line = once(replies, "line");
      const value = { path, importer, namespace: "file", resolveDir: "", kind: "require-call" };
      bridge.stdin.write(`${JSON.stringify({ id, command: "resolve", value })}\n`);
      const [reply] = await Promise.race([line, exited]);
      return (JSON.parse(String(reply)) as { value: { path?: string } }).value;
    };
    try {
      expect(await ask(0, "../milo/simd.js", PARSER_H1)).toEqual({ path: STAND_IN });
      expect(await ask(1, "../milo/no-simd.js", PARSER_H1)).toEqual({ path: STAND_IN });
      // Any other import, even one named like Milo elsewhere, is left to esbuild.
      expect(
        await ask(2, "../llhttp/llhttp_simd-wasm.js", PARSER_H1.replace("parser-h1", "client-h1")),
      ).toEqual({});
      expect(await ask(3, "../milo/simd.js", `${ROOT}packages/keb/src/client.ts`)).toEqual({});
    } finally {
      bridge.kill();
    }
  }, 30_000);

  it("stand in for Milo with a module that says what to do when undici is told to use it", () => {
    const milo = createRequire(import.meta.url)(STAND_IN) as { setup(): unknown };
    expect(() => milo.setup()).toThrow(/Milo HTTP parser is left out of this bundle: unset UNDICI_USE_MILO/);
  });
});
