import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import { describe, expect, it } from "vitest";
import { cli as runCommandLine } from "../helpers/cli.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/kubeedge/${name}`, import.meta.url), "utf8");
const oneLine = (json: string) => JSON.stringify(JSON.parse(json));
const cli = (args: string[], stdin?: string) => runCommandLine(args, { stdin });

describe("fleet-auditor apps", () => {
  it("ingests a file through the Lambda handler code and reports the counts as JSON", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-apps-"));
    const traffic = applicationTraffic({ applications: 25, seed: 8, rejectShare: 0.4 });
    const file = join(dir, "messages.jsonl");
    writeFileSync(
      file,
      [
        ...traffic,
        // The last message again: its Application's row holds it, so it counts as a duplicate.
        traffic.at(-1),
        "{broken",
        oneLine(fixture("request-list.json")),
        oneLine(fixture("response-get-rejected.json")),
      ].join("\n"),
    );
    const out = await cli(["apps", "ingest", file, "--state-dir", dir, "--output", "json"]);
    expect(out.code).toBe(0);
    const counts = JSON.parse(out.stdout);
    expect(counts).toMatchObject({ records: 54, duplicate: 1, quarantined: 1, failed: 0, batches: 6 });
    expect(counts.applied + counts.stale + counts.duplicate + counts.quarantined).toBe(54);

    const rejected = JSON.parse(
      (
        await cli([
          "apps",
          "status",
          "--status",
          "Rejected",
          "--since",
          "2020-01-01T00:00:00Z",
          "--output",
          "json",
          "--state-dir",
          dir,
        ])
      ).stdout,
    );
    expect(rejected.length).toBeGreaterThan(3);
    for (const row of rejected) {
      expect(row).toMatchObject({ status: "Rejected" });
      expect(Object.keys(row)).toEqual(
        expect.arrayContaining(["id", "status", "node", "key", "verb", "updatedAt"]),
      );
      expect(row.error?.message ?? row.reason).toBeTruthy();
    }
    const withCode = rejected.find((r: { error?: { code?: number } }) => r.error?.code === 404);
    expect(withCode.error).toMatchObject({ reason: "NotFound" });

    const table = await cli(["apps", "status", "--node", "edge-node-1", "--state-dir", dir]);
    expect(table.stdout).toMatch(/NODE\s+STATUS\s+VERB\s+KEY/);
    expect(table.stdout).toMatch(/edge-node-1\s+(InApplying|Rejected)\s+/);

    const quarantine = JSON.parse(
      (await cli(["apps", "quarantine", "--output", "json", "--state-dir", dir])).stdout,
    );
    expect(quarantine).toHaveLength(1);
    expect(quarantine[0]).toMatchObject({ body: "{broken", code: "MS_NOT_JSON" });

    // Rows written by this version already carry their watch key: a reindex reads and writes none.
    const reindex = await cli(["apps", "reindex", "--output", "json", "--state-dir", dir]);
    expect(reindex.code).toBe(0);
    expect(JSON.parse(reindex.stdout)).toMatchObject({ updated: 0 });
    expect(JSON.parse(reindex.stdout).scanned).toBeGreaterThan(20);
  });

  it("reads standard input with -, and counts a re-ingest as duplicates", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-apps-"));
    const lines = applicationTraffic({ applications: 5, seed: 2 }).join("\n");
    const first = JSON.parse(
      (await cli(["apps", "ingest", "-", "--state-dir", dir, "--output", "json"], lines)).stdout,
    );
    const second = JSON.parse(
      (await cli(["apps", "ingest", "-", "--state-dir", dir, "--output", "json"], lines)).stdout,
    );
    expect(first.applied).toBeGreaterThan(0);
    expect(second).toMatchObject({ applied: 0, duplicate: first.applied });
  });

  it("reads a file saved with a byte order mark and CRLF line ends", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-apps-"));
    const lines = applicationTraffic({ applications: 2, seed: 4 });
    const out = await cli(
      ["apps", "ingest", "-", "--state-dir", dir, "--output", "json"],
      `\uFEFF${lines.join("\r\n")}\r\n`,
    );
    expect(JSON.parse(out.stdout)).toMatchObject({ records: 4, quarantined: 0, failed: 0 });
  });

  it("names the problem for bad input", async () => {
    expect((await cli(["apps", "ingest"])).stderr).toContain("apps ingest needs a FILE");
    expect((await cli(["apps", "status", "--since", "yesterday"])).stderr).toContain(
      "--since yesterday: expected an ISO time or a duration",
    );
    expect((await cli(["apps", "frobnicate"])).code).toBe(1);
  });
});
