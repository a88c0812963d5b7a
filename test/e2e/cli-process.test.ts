import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import { describe, expect, it } from "vitest";
import { CLI_SOURCE, spawnCli as spawnAny } from "../helpers/cli.ts";
import { useKebSimulator } from "../helpers/keb.ts";

// The other CLI tests call runCli in process, or start the bundled CLI; these run the real binary
// from its TypeScript entry, as `npx fleet-auditor` does in a clone, so that what main.ts adds
// (process.argv, process.env, the standard streams, the exit code) stays covered there too.

const spawnCli: typeof spawnAny = (args, options = {}) => spawnAny(args, { script: CLI_SOURCE, ...options });
const kit = useKebSimulator({ fleet: { size: 200, seed: 3, flagged: 20 } });

describe("the fleet-auditor process", () => {
  it("exits 0 with the usage for --help, and 1 with two lines for an unknown option", async () => {
    const help = await spawnCli(["--help"]);
    expect(help).toMatchObject({ code: 0, stderr: "" });
    expect(help.stdout).toMatch(/^usage: fleet-auditor <command>/);
    const bad = await spawnCli(["apps", "status", "--colour", "red"]);
    expect(bad).toEqual({
      code: 1,
      stdout: "",
      stderr: "fleet-auditor: unknown option --colour\nSee 'fleet-auditor apps --help' for usage.\n",
    });
  });

  it("reads KEB_TOKEN from its environment, runs an audit and exits 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-proc-"));
    const out = await spawnCli(
      ["run", "--audit", "failing", "--keb-url", kit.sim.url, "--state-dir", dir, "--output", "json"],
      { env: { KEB_TOKEN: "local-token" } },
    );
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ audit: "failing", status: "completed", complete: true });
  });

  it("reads standard input for apps ingest -", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-proc-"));
    const lines = applicationTraffic({ applications: 3, seed: 2 }).join("\n");
    const out = await spawnCli(["apps", "ingest", "-", "--state-dir", dir, "--output", "json"], {
      stdin: lines,
    });
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ records: 6, failed: 0 });
  });

  it("exits 2 when the scan is incomplete", async () => {
    // A 400 is not retried: the run is incomplete at once, without backoff.
    kit.sim.faults.add({ page: 1, times: Number.POSITIVE_INFINITY, action: { kind: "status", status: 400 } });
    const dir = mkdtempSync(join(tmpdir(), "fa-proc-"));
    const out = await spawnCli(["run", "--audit", "failing", "--keb-url", kit.sim.url, "--state-dir", dir], {
      env: { KEB_TOKEN: "local-token" },
    });
    kit.sim.faults.clear();
    expect(out.code).toBe(2);
    expect(out.stdout).toContain("INCOMPLETE scan");
  });

  it("the standalone simulator refuses bad arguments in one line, without a stack trace", async () => {
    const { spawnSync } = await import("node:child_process");
    const main = new URL("../../packages/keb-kubeedge-sim/src/main.ts", import.meta.url).pathname;
    for (const args of [["--port", "99999"], ["--size=-5"]]) {
      const r = spawnSync(process.execPath, [main, ...args], { encoding: "utf8", timeout: 20_000 });
      expect(r.status, args.join(" ")).toBe(1);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(/^keb-kubeedge-sim: --(port|size) must be a whole number/);
    }
  });
});
