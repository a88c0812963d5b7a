// The esbuild plugins of every function's bundle. SST loads this file (`nodejs.plugins`, set for
// every function in sst.config.ts) and the bundle benchmark and tests build with it, so what is
// measured is what is deployed. Plain JavaScript: SST runs it with the `node` on the PATH.
import { fileURLToPath } from "node:url";

const MILO_STAND_IN = fileURLToPath(new URL("./undici-milo-omitted.cjs", import.meta.url));
const PARSER_H1 = /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]parser-h1\.js$/;
const MILO_BUILD = /^\.\.\/milo\/(no-)?simd\.js$/;

/**
 * undici's Milo HTTP parser (two WebAssembly builds, about 150 KB of each bundle) runs only when
 * `UNDICI_USE_MILO` is set or a dispatcher is made with `useMilo` (this product makes none);
 * otherwise undici parses with llhttp. Its two modules resolve to a
 * stand-in that says so: that is what keeps Slack and the pager under their 1 MB bar.
 * @type {import("esbuild").Plugin}
 */
const undiciWithoutMilo = {
  name: "undici-without-milo",
  setup(build) {
    // SST's bridge to these plugins tests each filter against no path at all (an undefined), so
    // the filter takes every import and the callback picks.
    build.onResolve({ filter: /.*/ }, (args) =>
      PARSER_H1.test(args.importer ?? "") && MILO_BUILD.test(args.path ?? "")
        ? { path: MILO_STAND_IN }
        : undefined,
    );
  },
};

export default [undiciWithoutMilo];
