import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cliVersion } from "@fleet-auditor/cli";
import { beforeAll, describe, expect, it } from "vitest";

// How an operator puts `fleet-auditor` on PATH (docs/cli.md, "Install"): `npm run pack:cli`
// packs the bundled CLI as a package of one file, and `npm install -g` installs the tarball,
// here into a temporary prefix, offline. The installed command then runs from a fresh
// environment: another directory, nothing but PATH and HOME, no clone or node_modules in reach.

const PACK = new URL("../../packages/cli/scripts/pack.ts", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "fa-install-"));
const prefix = join(work, "prefix");
const home = join(work, "home");

beforeAll(() => {
  const packed = spawnSync(process.execPath, [PACK, "--pack-destination", join(work, "dist")], {
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(packed.status, packed.stderr).toBe(0);
  const tarball = /^packed (.+\.tgz)$/m.exec(packed.stdout)?.[1] as string;
  expect(tarball).toBe(join(work, "dist", `fleet-auditor-cli-${cliVersion()}.tgz`));
  const installed = spawnSync(
    "npm",
    ["install", "--global", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", tarball],
    { encoding: "utf8", cwd: work, env: { PATH: process.env.PATH ?? "", HOME: home }, timeout: 120_000 },
  );
  expect(installed.status, installed.stderr).toBe(0);
}, 240_000);

/** `fleet-auditor ARGS` as a fresh shell runs it: found on PATH, from an empty directory. */
function installed(args: string[]) {
  const cwd = mkdtempSync(join(tmpdir(), "fa-fresh-"));
  return spawnSync("fleet-auditor", args, {
    cwd,
    encoding: "utf8",
    env: { PATH: [join(prefix, "bin"), dirname(process.execPath), "/usr/bin", "/bin"].join(":"), HOME: home },
    timeout: 60_000,
  });
}

describe("fleet-auditor installed from its packed tarball", () => {
  it("is on PATH as fleet-auditor, and prints its version", () => {
    expect(existsSync(join(prefix, "bin", "fleet-auditor"))).toBe(true);
    const version = installed(["--version"]);
    expect([version.status, version.stdout, version.stderr]).toEqual([
      0,
      `fleet-auditor ${cliVersion()}\n`,
      "",
    ]);
  });

  it("works on the embedded store and prints its completion script", () => {
    const listed = installed(["silences", "list", "--state-dir", join(work, "state"), "-o", "json"]);
    expect([listed.status, listed.stderr]).toEqual([0, ""]);
    expect(JSON.parse(listed.stdout)).toEqual([]);
    const completion = installed(["completion", "bash"]);
    expect(completion.status).toBe(0);
    expect(completion.stdout).toContain("complete -o default -F _fleet_auditor fleet-auditor\n");
  });
});
