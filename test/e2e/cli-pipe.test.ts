import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runArgs, cli as runCommandLine, spawnCli } from "../helpers/cli.ts";
import { useKebSimulator } from "../helpers/keb.ts";

// `fleet-auditor … | head -c 10`: the reader goes away before the CLI has written. kubectl, kcp
// and the AWS CLI end quietly then; so does fleet-auditor, with its command's own exit code.

const kit = useKebSimulator({ fleet: { size: 200, seed: 8, flagged: 20 } });

describe("fleet-auditor with its output piped into a reader that stops early", () => {
  it("prints nothing on stderr and exits 0 for --help and --version", async () => {
    for (const args of [["--help"], ["run", "--help"], ["--version"]]) {
      const out = await spawnCli(args, { closeStdout: true });
      expect(out, args.join(" ")).toEqual({ code: 0, stdout: "", stderr: "" });
    }
  }, 60_000);

  it("ends a command quietly with the exit code of what it did", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-pipe-"));
    const run = await runCommandLine(runArgs("failing", kit.sim.url, dir, "-o", "json"), {
      env: { KEB_TOKEN: "local-token" },
    });
    const { runId } = JSON.parse(run.stdout);
    for (const args of [
      ["runs", "show", runId, "--state-dir", dir, "--output", "json"],
      ["runs", "show", runId, "--state-dir", dir, "-o", "yaml"],
      ["runs", "list", "--state-dir", dir],
    ]) {
      const out = await spawnCli(args, { closeStdout: true });
      expect(out, args.join(" ")).toEqual({ code: 0, stdout: "", stderr: "" });
    }
    // A partial run stays a partial run (2) when nobody reads its summary.
    // A 400 is not retried: the run is incomplete at once, without backoff.
    kit.sim.faults.add({ page: 1, times: Number.POSITIVE_INFINITY, action: { kind: "status", status: 400 } });
    const partial = await spawnCli(runArgs("failing", kit.sim.url, dir, "-o", "json"), {
      env: { KEB_TOKEN: "local-token" },
      closeStdout: true,
    });
    kit.sim.faults.clear();
    expect(partial).toEqual({ code: 2, stdout: "", stderr: "" });
  }, 60_000);
});
