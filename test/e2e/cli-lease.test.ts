import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DynamoAuditStore, startEmbeddedDynamo } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cli as runCommandLine, spawnCli } from "../helpers/cli.ts";
import { useKebSimulator } from "../helpers/keb.ts";

// A killed run's lease, skipped runs that exited 0, two commands on one state dir.

const kit = useKebSimulator({ fleet: { size: 300, seed: 9, flagged: 30 } });
const cli = (args: string[]) => runCommandLine(args, { env: { KEB_TOKEN: "local-token" } });
const run = (dir: string) => ["run", "--audit", "failing", "--keb-url", kit.sim.url, "--state-dir", dir];

async function leaveLease(dir: string): Promise<void> {
  const db = await startEmbeddedDynamo({ dir: join(dir, "dynamodb"), tables: ["fleet-auditor"] });
  const store = new DynamoAuditStore({ client: db.client, tableName: "fleet-auditor" });
  await store.acquireLease("failing", "killed-run", new Date(), new Date(Date.now() + 3_600_000));
  await db.close();
}

describe("leases and the state directory", () => {
  it("exits 2 for a run skipped for a held lease, shows the lease, and releases it with --force", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-lease-"));
    await leaveLease(dir);
    const skipped = await cli([...run(dir), "--output", "json"]);
    expect(skipped.code).toBe(2);
    expect(JSON.parse(skipped.stdout)).toMatchObject({ status: "skipped" });
    expect((await cli(["lease", "show", "--audit", "failing", "--state-dir", dir])).stdout).toMatch(
      /^the lease of failing is held by run killed-run until 20\d\d-/,
    );
    const refused = await cli(["lease", "release", "--audit", "failing", "--state-dir", dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("elsewhere add --force");
    const released = await cli(["lease", "release", "--audit", "failing", "--force", "--state-dir", dir]);
    expect(released).toMatchObject({ code: 0 });
    expect(released.stdout).toMatch(/^released the lease of failing \(run killed-run, until 20/);
    expect((await cli(run(dir))).code).toBe(0);
    expect((await cli(["lease", "show", "--audit", "failing", "--state-dir", dir])).stdout).toBe(
      "no lease on failing\n",
    );
  });

  it("prints the lease as JSON and YAML with -o, as every command that prints data does", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-lease-o-"));
    const show = (...o: string[]) => cli(["lease", "show", "--audit", "failing", "--state-dir", dir, ...o]);
    await leaveLease(dir);
    const held = await show("-o", "json");
    expect(held.code, held.stderr).toBe(0);
    const data = JSON.parse(held.stdout);
    expect(data).toEqual({
      audit: "failing",
      lease: { runId: "killed-run", expiresAt: expect.stringMatching(/^20\d\d-.*Z$/), expired: false },
    });
    expect(parse((await show("-o", "yaml")).stdout)).toEqual(data);
    // The table is the line it always was.
    expect((await show()).stdout).toBe(
      `the lease of failing is held by run killed-run until ${data.lease.expiresAt}\n`,
    );
    await cli(["lease", "release", "--audit", "failing", "--force", "--state-dir", dir]);
    const none = await show("-o", "json");
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout)).toEqual({ audit: "failing", lease: null });
  });

  it("says the state directory is in use by another process, and takes over a stale lock", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-lock-"));
    await cli(run(dir));
    writeFileSync(join(dir, "dynamodb", "fleet-auditor.lock"), String(process.pid));
    const busy = await cli(run(dir));
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain(`is in use by process ${process.pid}`);
    // A lock left by a process that is gone.
    writeFileSync(join(dir, "dynamodb", "fleet-auditor.lock"), "2147483646");
    expect((await cli(run(dir))).code).toBe(0);
  });

  it("refuses a damaged embedded store instead of starting an empty one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-damaged-"));
    expect((await cli(run(dir))).code).toBe(0);
    writeFileSync(join(dir, "dynamodb", "CURRENT"), "garbage\n");
    const damaged = await cli(run(dir));
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toMatch(
      /the embedded store in .*dynamodb cannot be opened .*move it aside to start empty/,
    );
    rmSync(join(dir, "dynamodb", "CURRENT"));
    expect((await cli(run(dir))).stderr).toContain("cannot be opened");
  });

  it("releases the lease when interrupted mid-run, so the next run is not skipped", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-sigint-"));
    kit.sim.faults.latencyMs = 4_000;
    const before = kit.sim.stats.requests;
    const child = spawnCli(run(dir), {
      env: { KEB_TOKEN: "local-token" },
      signalWhen: async () => {
        while (kit.sim.stats.requests === before) await new Promise((r) => setTimeout(r, 50));
      },
    });
    const out = await child;
    kit.sim.faults.latencyMs = 0;
    expect(out.code, out.stderr).toBe(130);
    expect(out.stderr).toContain("interrupted by SIGINT; the lease of failing was released");
    const next = await cli([...run(dir), "--output", "json"]);
    expect(JSON.parse(next.stdout)).toMatchObject({ status: "completed", complete: true });
  });
});
