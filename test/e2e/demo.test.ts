import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { IncidentStats } from "@fleet-auditor/audit";
import { type DemoResult, runDemo } from "@fleet-auditor/demo";
import { KEB_AUDITS } from "@fleet-auditor/keb-audits";
import { applicationsAudit } from "@fleet-auditor/kubeedge-audit";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.ts";

let text = "";
let demo: DemoResult;

beforeAll(async () => {
  const out = new PassThrough();
  out.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  demo = await runDemo(out);
}, 60_000);

describe("npm start (the demo)", () => {
  it("runs the audits over a changing fleet and edge, printing each digest as a subscriber sees it", () => {
    const sections = text.split("━━ ").slice(1);
    expect(sections).toHaveLength(11);
    expect(sections[0]).toMatch(/failing: complete scan, \d+ flagged, \d+ firing, 1 message\(s\)/);
    expect(sections[0]).toContain(
      "┌─ e-mail: failed (err_provisioning) +11 more: 12 new runtimes | demo | CRITICAL",
    );
    expect(sections[0]).toContain("│ Every transition of this run: fleet-auditor runs show ");
    expect(sections[1]).toMatch(
      /failing: complete scan, \d+ flagged, no transitions, 0 message\(s\), 0 snapshot write\(s\)/,
    );
    expect(sections[2]).toMatch(/RECOVERED \(\d+\)/);
    // Counted from the onset of the failure (its operation), not from the first run that saw it.
    expect(sections[2]).toMatch(/resolved after \d+[mhd][^:]*: .*now succeeded/);
    expect(sections[2]).toContain("suspended in eu-central-1 +1 more: 2 new runtimes | demo | expired audit");
    expect(sections[3]).toMatch(/failing: already done by run \w+ for this scheduled time; nothing sent/);
    expect(sections[3]).not.toContain("e-mail");
    expect(sections[4]).toMatch(
      /failing: INCOMPLETE scan .*503: no healthy upstream.*no transitions, 0 message/,
    );
    expect(sections[5]).toContain(
      "e-mail: [fleet-auditor] [demo] failing audit DEGRADED since 2026-11-29 09:00 UTC",
    );
    expect(sections[5]).toMatch(/failing: INCOMPLETE scan .*DEGRADED notice sent/);
    expect(sections[6]).toContain(": 3 recovered | demo | failing audit [fleet-auditor]");
    expect(sections[6]).toContain("failing audit RECOVERED after 2h");
    expect(sections[7]).toMatch(/KubeEdge Applications: 96 SQS messages/);
    expect(sections[7]).toMatch(/\d+ rows written, \d+ stale, \d+ duplicate, 3 quarantined, 0 failed/);
    expect(sections[7]).toMatch(/Rejected\s+get\s+\S+\s+404 NotFound/);
    expect(sections[7]).toContain("MS_NOT_JSON");
    // The applications audit: a stuck Application and a refusing node told, then resolved.
    expect(sections[8]).toContain("stuck on node edge-003 +1 more: 2 new findings | demo | WARNING");
    expect(sections[8]).toContain("stuck: node edge-003: get /apps/v1/deployments/shop/checkout, since");
    expect(sections[8]).toContain("refused: node edge-017: 9 × 403 Forbidden on list services");
    expect(sections[9]).toContain("stuck on node edge-003 +1 more: 2 recovered | demo | applications audit");
    expect(sections[9]).toMatch(/applications: complete scan, 0 flagged, 2 resolved, 1 message\(s\)/);
  });

  it("ends with the incident history the runs kept, in a store the CLI reads, and its page", () => {
    const history = text.split("━━ ").at(-1) as string;
    expect(history).toMatch(/^Incident history/);
    expect(history).toContain(
      `$ fleet-auditor incidents list --since 2026-11-29T00:00:00Z --state-dir ${demo.stateDir}`,
    );
    expect(history).toMatch(/\n {2}KEY +AUDIT +ROUTE +WHAT +SEVERITY +OPENED +ENDED/);
    const page = join(demo.stateDir, "report.html");
    expect(history).toContain(`wrote ${page}: open it in a browser`);
    const html = readFileSync(page, "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("demo");
    expect(history).toContain(
      `fleet-auditor incidents stats --since 2026-11-29T00:00:00Z --state-dir ${demo.stateDir}`,
    );
  });

  it("quotes commands in its messages that act on the demo's store, so that one pasted finds its run", async () => {
    const quoted = [...text.matchAll(/^ {2}│ .*?(fleet-auditor (?:runs|silences|apps) .*)$/gm)].map(
      (m) => m[1] as string,
    );
    // A report line per digest, silence lines, the edge's inspect lines: all of them.
    expect(quoted.filter((c) => c.startsWith("fleet-auditor runs show ")).length).toBeGreaterThan(5);
    expect(quoted.filter((c) => c.startsWith("fleet-auditor silences add ")).length).toBeGreaterThan(5);
    expect(quoted.filter((c) => c.startsWith("fleet-auditor apps status ")).length).toBeGreaterThan(1);
    const elsewhere = quoted.filter((c) => !c.endsWith(` --state-dir ${demo.stateDir}`));
    expect(elsewhere).toEqual([]);
    // Pasted as printed (its words have nothing to quote), the report command finds the run.
    const report = quoted.find((c) => c.startsWith("fleet-auditor runs show ")) as string;
    const shown = await cli(report.split(" ").slice(1));
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^run [\w-]+: \w+, completed, complete scan/);
  });

  it("leaves a store where incidents stats gives what a hand count of the demo's runs gives", async () => {
    const count = await handCount(demo);
    // The count is of something: incidents opened, some ended, on more than one audit.
    expect(count.opened).toBeGreaterThan(5);
    expect(count.durations.length).toBeGreaterThan(2);
    expect(count.byAudit.size).toBeGreaterThan(1);
    const out = await cli([
      "incidents",
      "stats",
      "--since",
      "2026-11-29T00:00:00Z",
      "--state-dir",
      demo.stateDir,
      "-o",
      "json",
    ]);
    expect(out.code, out.stderr).toBe(0);
    const stats: IncidentStats = JSON.parse(out.stdout);
    const sorted = [...count.durations].sort((a, b) => a - b);
    expect(stats).toMatchObject({
      opened: count.opened,
      ended: sorted.length,
      open: count.opened - sorted.length,
      timeToResolve: { count: sorted.length, p50Ms: nearestRank(sorted, 50), p90Ms: nearestRank(sorted, 90) },
    });
    expect(Object.fromEntries(stats.byAudit.map((b) => [b.value, [b.opened, b.ended]]))).toEqual(
      Object.fromEntries(count.byAudit),
    );
  });
});

/** Each audit's `groupBy` labels, as the demo registers the audits (no regrouping variable). */
const GROUP_BY = new Map([...KEB_AUDITS, applicationsAudit].map((a) => [a.name, a.groupBy]));

interface Told {
  kind: string;
  key: string;
  finding: { labels: Record<string, string> };
}

/**
 * The demo's incidents counted by hand from what its runs told (each run's transitions, read from
 * its report with `runs show`), by the rule an on-call person knows: a finding that fires while
 * none with its audit's `groupBy` values is firing opens an incident; it stays in it until it
 * resolves; the incident ends when its last member resolves. Nothing here reads the history.
 */
async function handCount({ runs, stateDir }: DemoResult) {
  const firing = new Map<string, { members: Set<string>; openedAt: number; audit: string }>();
  const groupOf = new Map<string, string>();
  const durations: number[] = [];
  const byAudit = new Map<string, [number, number]>();
  const tally = (audit: string, i: 0 | 1) => {
    const row = byAudit.get(audit) ?? [0, 0];
    row[i]++;
    byAudit.set(audit, row);
  };
  let opened = 0;
  for (const run of runs) {
    if (run.status !== "completed" || run.transitions.length === 0) continue;
    const shown = await cli(["runs", "show", run.runId, "--state-dir", stateDir, "-o", "json"]);
    expect(shown.code, shown.stderr).toBe(0);
    const told: Told[] = JSON.parse(shown.stdout).transitions;
    const at = Date.parse(run.scheduledTime as string);
    // Those that fire join before those that resolve leave: an incident a run both joins and
    // leaves goes on.
    for (const t of told.filter((x) => x.kind === "firing")) {
      const values = (GROUP_BY.get(run.audit) ?? []).map((l) => t.finding.labels[l] ?? "");
      const group = JSON.stringify([run.audit, values]);
      groupOf.set(`${run.audit} ${t.key}`, group);
      const incident = firing.get(group) ?? { members: new Set(), openedAt: at, audit: run.audit };
      if (incident.members.size === 0) {
        opened++;
        tally(run.audit, 0);
      }
      incident.members.add(t.key);
      firing.set(group, incident);
    }
    for (const t of told.filter((x) => x.kind === "resolved")) {
      const group = groupOf.get(`${run.audit} ${t.key}`) as string;
      const incident = firing.get(group);
      incident?.members.delete(t.key);
      if (incident?.members.size === 0) {
        durations.push(at - incident.openedAt);
        tally(run.audit, 1);
        firing.delete(group);
      }
    }
  }
  return { opened, durations, byAudit };
}

/** The nearest-rank percentile: the smallest value with at least p% of the values at or below it. */
const nearestRank = (sorted: readonly number[], p: number): number | undefined =>
  sorted[Math.ceil((p / 100) * sorted.length) - 1];
