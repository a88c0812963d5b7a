import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emptyStateDir, runArgs, cli as runCommandLine } from "../helpers/cli.ts";
import { useKebSimulator } from "../helpers/keb.ts";

const kit = useKebSimulator({ fleet: { size: 400, seed: 21, flagged: 40 } });
const cli = (args: string[]) => runCommandLine(args, { env: { KEB_TOKEN: "local-token", LANDSCAPE: "e2e" } });

describe("fleet-auditor runs", () => {
  it("lists runs and shows every transition of one by the run ID its message quotes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-runs-"));
    const run = runArgs("failing", kit.sim.url, dir, "--output", "json");
    const first = JSON.parse((await cli(run)).stdout);
    const steady = JSON.parse((await cli(run)).stdout);
    expect(first.transitions.length).toBeGreaterThan(0);
    expect(steady.transitions).toEqual([]);

    const listed = JSON.parse((await cli(["runs", "list", "--state-dir", dir, "--output", "json"])).stdout);
    expect(listed.map((r: { runId: string }) => r.runId)).toEqual([steady.runId, first.runId]);
    expect(listed[1]).toMatchObject({ audit: "failing", transitions: first.transitions.length });

    const shown = await cli(["runs", "show", first.runId, "--state-dir", dir, "--output", "json"]);
    expect(shown.code).toBe(0);
    const view = JSON.parse(shown.stdout);
    expect(view).toMatchObject({
      runId: first.runId,
      audit: "failing",
      status: "completed",
      complete: true,
      source: "report",
    });
    expect(view.transitions).toHaveLength(first.transitions.length);
    // Each transition as the engine made it: its finding with labels and the audit's detail.
    expect(Object.keys(view.transitions[0])).toEqual(
      expect.arrayContaining(["kind", "key", "finding", "state", "previousState", "severity", "since"]),
    );
    expect(Object.keys(view.transitions[0].finding)).toEqual(
      expect.arrayContaining(["key", "labels", "severity", "summary", "detail"]),
    );
    expect(view.transitions[0].finding.labels).toHaveProperty("shoot");

    const csv = (await cli(["runs", "show", first.runId, "--state-dir", dir, "--output", "csv"])).stdout
      .trim()
      .split("\r\n");
    expect(csv[0]).toMatch(/^kind,severity,state,previousState,instanceID,runtimeID,shootName,/);
    expect(csv).toHaveLength(first.transitions.length + 1);
    const table = (await cli(["runs", "show", first.runId, "--state-dir", dir])).stdout;
    expect(table).toMatch(new RegExp(`^run ${first.runId}: failing, completed, complete scan`));

    // A run without transitions keeps no report: its ledger record answers.
    const quiet = JSON.parse(
      (await cli(["runs", "show", steady.runId, "--state-dir", dir, "--output", "json"])).stdout,
    );
    expect(quiet).toMatchObject({ runId: steady.runId, source: "ledger", transitions: [] });

    // The message names the command that shows it.
    const outbox = (await import("node:fs")).readFileSync(join(dir, "outbox.jsonl"), "utf8");
    expect(outbox).toContain(`fleet-auditor runs show ${first.runId} --state-dir ${dir}`);
    // The landscape in every subject.
    expect(outbox).toMatch(/"subject":"[^"]* \| e2e( \||")/);
  });

  it("exits 1 naming the problem for an unknown run or bad input", async () => {
    const dir = await emptyStateDir("fa-runs-");
    const missing = await cli(["runs", "show", "no-such-run", "--state-dir", dir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no run no-such-run");
    expect((await cli(["runs", "show", "--state-dir", dir])).stderr).toContain("runs show needs a RUN_ID");
    expect((await cli(["runs", "list", "--output", "csv", "--state-dir", dir])).stderr).toContain(
      "--output must be json, yaml or table, got csv",
    );
    expect((await cli(["runs", "list", "--audit", "nightly", "--state-dir", dir])).code).toBe(1);
  });
});
