// `npm run pack:cli [-- --pack-destination DIR]`: the bundled CLI (npm run build:cli) as an npm
// package of one file, `dist/fleet-auditor-cli-<version>.tgz`, with `fleet-auditor` as its `bin`.
// Installing it puts the command on PATH, from a clone or from the tarball alone, offline:
//
//   npm install -g dist/fleet-auditor-cli-0.1.0.tgz                  (npm's global prefix)
//   npm install -g --prefix ~/.local dist/fleet-auditor-cli-0.1.0.tgz (~/.local/bin)
//
// The package declares no dependencies (the bundle holds them all), so npm needs no registry.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const root = new URL("../../../", import.meta.url).pathname;
const { values } = parseArgs({ options: { "pack-destination": { type: "string" } } });
const destination = resolve(values["pack-destination"] ?? join(root, "dist"));
const cli = JSON.parse(readFileSync(join(root, "packages/cli/package.json"), "utf8")) as { version: string };
const engines = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { engines: object }).engines;

const stage = mkdtempSync(join(tmpdir(), "fleet-auditor-pack-"));
try {
  const build = spawnSync(
    process.execPath,
    [join(root, "packages/cli/scripts/build.ts"), "--outfile", join(stage, "fleet-auditor.mjs")],
    { stdio: "inherit" },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
  // What `fleet-auditor --version` prints is the workspace's version: the tarball carries the same.
  const manifest = {
    name: "@fleet-auditor/cli",
    version: cli.version,
    description: "fleet-auditor, the command line of the Kyma control plane auditor, as one file",
    license: "Apache-2.0",
    type: "module",
    bin: { "fleet-auditor": "fleet-auditor.mjs" },
    files: ["fleet-auditor.mjs"],
    engines,
  };
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(destination, { recursive: true });
  const pack = spawnSync("npm", ["pack", "--json", "--pack-destination", destination], {
    cwd: stage,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (pack.status !== 0) process.exit(pack.status ?? 1);
  const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
  process.stdout.write(`packed ${join(destination, filename)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
