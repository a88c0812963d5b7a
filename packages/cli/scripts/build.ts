// `npm run build:cli [-- --outfile FILE]`: the CLI as one file, `dist/fleet-auditor.mjs`, that
// runs with a plain Node 22 anywhere, no clone, no node_modules: `node fleet-auditor.mjs …` or,
// made executable, `./fleet-auditor.mjs …` (it starts with `#!/usr/bin/env node`).
//
// Three things esbuild cannot bundle by itself are made bundleable here:
// - the embedded store loads dynalite through `createRequire`, which esbuild leaves to run time;
// - dynalite requires its actions by name without the `.js` (`require('./actions/' + action)`),
//   which esbuild's glob requires do not match;
// - LevelDB (classic-level, under dynalite) is a native addon that node-gyp-build looks up next
//   to its own file. Its prebuilt binaries for the platforms operators run (Linux x64 glibc and
//   musl, Linux arm64, macOS, Windows x64) are embedded, gzipped, and the one for this machine is
//   written to a private temporary directory and loaded when the embedded store first opens (it
//   is removed again where the system allows; Windows keeps a loaded DLL).
import { chmodSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { build, type Plugin } from "esbuild";

const root = new URL("../../../", import.meta.url).pathname;
const { values } = parseArgs({ options: { outfile: { type: "string" } } });
const outfile = values.outfile ?? join(root, "dist/fleet-auditor.mjs");

/** Platform directories of classic-level's prebuilds that go into the bundle. */
const PLATFORMS = ["linux-x64", "linux-arm64", "darwin-x64+arm64", "win32-x64"];

const EMBEDDED_DYNAMO = /packages[\\/]store[\\/]src[\\/]embedded-dynamo\.ts$/;
const RUNTIME_REQUIRE = "const require = createRequire(import.meta.url);";

/** `path`'s source with each `[from, to]` replaced; the build fails when a `from` is gone (a new version). */
function patched(path: string, ...replacements: Array<[string, string]>): string {
  let source = readFileSync(path, "utf8");
  for (const [from, to] of replacements) {
    if (!source.includes(from))
      throw new Error(`${path} no longer has \`${from}\`: update ${import.meta.url}`);
    source = source.replaceAll(from, to);
  }
  return source;
}

/** dynalite through esbuild's own `require`, so that it is bundled instead of looked up at run time. */
const bundleDynalite: Plugin = {
  name: "bundle-dynalite",
  setup(b) {
    b.onLoad({ filter: EMBEDDED_DYNAMO }, ({ path }) => ({
      contents: patched(path, [RUNTIME_REQUIRE, ""]),
      loader: "ts",
    }));
    b.onLoad({ filter: /dynalite[\\/]index\.js$/ }, ({ path }) => ({
      contents: patched(
        path,
        ["require('./actions/' + action)", "require('./actions/' + action + '.js')"],
        ["require('./validations/' + action)", "require('./validations/' + action + '.js')"],
      ),
      loader: "js",
    }));
  },
};

/** classic-level's binding: the prebuilt addon for this platform, from the bundle itself. */
const embedLevelDb: Plugin = {
  name: "embed-leveldb",
  setup(b) {
    b.onLoad({ filter: /classic-level[\\/]binding\.js$/ }, ({ path }) => {
      const prebuilds = join(dirname(path), "prebuilds");
      const builds: Record<string, Array<[string, string]>> = {};
      for (const dir of PLATFORMS) {
        const [platform, archs] = dir.split("-") as [string, string];
        const files = readdirSync(join(prebuilds, dir))
          .filter((f) => f.endsWith(".node"))
          .map((f): [string, string] => [
            f,
            gzipSync(readFileSync(join(prebuilds, dir, f))).toString("base64"),
          ]);
        for (const arch of archs.split("+")) builds[`${platform}-${arch}`] = files;
      }
      return { contents: LOADER.replace("__BUILDS__", JSON.stringify(builds)), loader: "js" };
    });
  },
};

/** CommonJS, like the module it stands in for; the binding is loaded on first use only. */
const LOADER = `
const { mkdtempSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { gunzipSync } = require("node:zlib");
const BUILDS = __BUILDS__;
let binding;
function load() {
  if (binding) return binding;
  const key = process.platform + "-" + process.arch;
  const builds = BUILDS[key];
  if (!builds) throw new Error("this fleet-auditor bundle has no LevelDB for " + key + " (the embedded store): run it from a clone, or point it at AWS");
  // musl (Alpine) reports no glibc; its build is tried first there, last elsewhere.
  const musl = process.platform === "linux" && !process.report?.getReport().header.glibcVersionRuntime;
  const ordered = [...builds].sort(([a], [b]) => (a.includes("musl") === musl ? -1 : 0) - (b.includes("musl") === musl ? -1 : 0));
  const dir = mkdtempSync(join(tmpdir(), "fleet-auditor-leveldb-"));
  let failure;
  for (const [name, gz] of ordered) {
    const file = join(dir, name);
    writeFileSync(file, gunzipSync(Buffer.from(gz, "base64")), { mode: 0o700 });
    try {
      binding = require(file);
      break;
    } catch (err) {
      failure = err;
    }
  }
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {}
  if (!binding) throw failure;
  return binding;
}
module.exports = new Proxy({}, { get: (_, key) => load()[key] });
`;

await build({
  entryPoints: [join(root, "packages/cli/src/main.ts")],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  // The bundle's own require, for the CommonJS it holds (the AWS SDK, dynalite) and the addon.
  banner: {
    js: "import { createRequire as __cliRequire } from 'node:module'; const require = __cliRequire(import.meta.url);",
  },
  plugins: [bundleDynalite, embedLevelDb],
  legalComments: "none",
  logLevel: "warning",
});
// esbuild keeps main.ts's `#!/usr/bin/env node`: executable, the file runs as a command.
chmodSync(outfile, 0o755);
process.stdout.write(`built ${outfile} (${Math.round(readFileSync(outfile).length / 1024)} KB)\n`);
