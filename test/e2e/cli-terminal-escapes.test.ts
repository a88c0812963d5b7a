import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { IncidentEvent, RunReport, Transition } from "@fleet-auditor/audit";
import { DynamoReportStore, itemKey, startEmbeddedDynamo } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { cli, spawnCli } from "../helpers/cli.ts";
import { incidentRecord } from "../helpers/incident-records.ts";
import { runSummary } from "../helpers/summaries.ts";
import { t } from "../helpers/transitions.ts";

// Text from KEB and from the edge reaches the terminal through every table the CLI prints. A
// terminal runs what it is sent: ESC sequences clear the screen, retitle the window or hide lines,
// a line break starts a row of its own, a bidi override reorders what is read. Each must show as
// visible text: the first case through the real command in its own process, the others through
// the same code in this one (the process adds nothing to what is written, and costs a second).

/** Characters a terminal acts on instead of showing (C0, DEL, C1, line/paragraph separators, bidi). */
const ACTIVE = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]/u;

const CLEAR = "\u001b[2J\u001b[H";
const TITLE = "\u001b]0;pwned\u0007";
const hostile = {
  shootName: `c-1${CLEAR}`,
  region: "eu\nRESOLVED   all runtimes recovered",
  plan: `aws${TITLE}`,
  reason: "quota\r\u009b31mforged\u007f\u2028tail\u202egnp.exe",
};

async function storeReport(dir: string): Promise<RunReport> {
  // As a tampered store could hold them: past the bounds a finding gets where it is built.
  const relabelled = (tr: Transition, labels: Record<string, string>): Transition => ({
    ...tr,
    finding: { ...tr.finding, labels: { ...tr.finding.labels, ...labels } },
  });
  const row = relabelled(t(1), {
    shoot: hostile.shootName,
    region: hostile.region,
    plan: hostile.plan,
    reason: hostile.reason,
  });
  const formula = relabelled(t(2), { reason: '=HYPERLINK("https://x.example")' });
  const { transitions: _, ...summary } = runSummary({ runId: "run-esc", transitions: [] });
  const report: RunReport = {
    runId: "run-esc",
    audit: "failing",
    runKey: "adhoc:run-esc",
    scheduledTime: null,
    startedAt: summary.startedAt,
    summary,
    transitions: [row, formula],
  };
  const db = await startEmbeddedDynamo({ dir: join(dir, "dynamodb"), tables: ["fleet-auditor"] });
  try {
    await new DynamoReportStore({ client: db.client, tableName: "fleet-auditor" }).saveReport(report, 2e9);
  } finally {
    await db.close();
  }
  return report;
}

/** An incident whose label values and member summaries hold the hostile text, and one event of it. */
async function storeIncident(dir: string): Promise<string> {
  const record = incidentRecord({
    key: "inc-esc",
    values: { region: hostile.region, reason: hostile.reason },
    common: { shoot: hostile.shootName },
    examples: [{ key: "inst-1", summary: `${hostile.shootName} ${hostile.plan}` }],
  });
  const event: IncidentEvent = {
    key: record.key,
    at: record.openedAt,
    runId: "run-esc",
    what: ["opened"],
    joined: 3,
    changed: 0,
    left: 0,
    reminded: 0,
    silenced: 1,
    silences: [`s-1${TITLE}`],
    inhibited: 0,
    firing: 3,
    examples: [{ key: "inst-1", summary: hostile.reason }],
  };
  const db = await startEmbeddedDynamo({ dir: join(dir, "dynamodb"), tables: ["fleet-auditor"] });
  const put = (Item: Record<string, unknown>) =>
    db.client.send(new PutCommand({ TableName: "fleet-auditor", Item }));
  try {
    // As a tampered store could hold them: past the bounds the history writes.
    await put({ ...itemKey.incident("failing", record.key), record, endedAt: record.endedAt, ttl: 2e9 });
    await put({ ...itemKey.incidentEvent(record.key, event.at, "run-esc"), event, ttl: 2e9 });
  } finally {
    await db.close();
  }
  return record.key;
}

describe("terminal control characters from outside data in CLI output", () => {
  it("shows them escaped in the runs show table, one line per transition", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-esc-"));
    await storeReport(dir);
    const out = await spawnCli(["runs", "show", "run-esc", "--state-dir", dir]);
    expect(out.code).toBe(0);
    const lines = out.stdout.trimEnd().split("\n");
    // The head, a blank line, the column names, and one line per transition: nothing forged.
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(line).not.toMatch(ACTIVE);
    expect(lines.filter((l) => l.startsWith("RESOLVED"))).toEqual([]);
    expect(out.stdout).toContain("c-1\\x1b[2J\\x1b[H");
    expect(out.stdout).toContain("eu\\nRESOLVED");
    expect(out.stdout).toContain("aws\\x1b]0;pwned\\x07");
    expect(out.stdout).toContain("quota\\r\\x9b31mforged\\x7f\\u2028tail\\u202egnp.exe");
  });

  it("escapes them in runs show CSV too, which keeps one record per line and its formula guard", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-esc-"));
    await storeReport(dir);
    const out = await cli(["runs", "show", "run-esc", "--state-dir", dir, "--output", "csv"]);
    expect(out.code).toBe(0);
    const records = out.stdout.trimEnd().split("\r\n");
    expect(records).toHaveLength(3);
    for (const record of records) expect(record).not.toMatch(ACTIVE);
    expect(records[1]).toContain("eu\\nRESOLVED   all runtimes recovered");
    expect(records[1]).toContain("c-1\\x1b[2J\\x1b[H");
    expect(records[2]).toContain(`"'=HYPERLINK(""https://x.example"")"`);
  });

  it("writes them as JSON escapes in runs show JSON, which a program reads back unchanged", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-esc-"));
    const report = await storeReport(dir);
    const out = await cli(["runs", "show", "run-esc", "--state-dir", dir, "--output", "json"]);
    expect(out.code).toBe(0);
    for (const line of out.stdout.split("\n")) expect(line).not.toMatch(ACTIVE);
    expect(JSON.parse(out.stdout).transitions).toEqual(report.transitions);
  });

  it("shows them escaped in the apps status table", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-esc-"));
    const message = JSON.parse(
      readFileSync(new URL("../fixtures/kubeedge/response-get-rejected.json", import.meta.url), "utf8"),
    );
    message.header.timestamp = Date.now();
    message.content.Nodename = `edge-1${CLEAR}`;
    message.content.Key = "/core/v1/configmaps/default/app\nedge-9   Approved   get";
    message.content.Error.ErrStatus.message = `not found${TITLE}\r\u009b2J\u202eevil`;
    const file = join(dir, "messages.jsonl");
    writeFileSync(file, `${JSON.stringify(message)}\n`);
    const ingested = await cli(["apps", "ingest", file, "--state-dir", dir, "--output", "json"]);
    expect(JSON.parse(ingested.stdout)).toMatchObject({ applied: 1 });

    const out = await cli(["apps", "status", "--since", "2020-01-01T00:00:00Z", "--state-dir", dir]);
    expect(out.code).toBe(0);
    const lines = out.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toMatch(ACTIVE);
    expect(out.stdout).toContain("edge-1\\x1b[2J\\x1b[H");
    expect(out.stdout).toContain("app\\nedge-9   Approved   get");
    expect(out.stdout).toContain("not found\\x1b]0;pwned\\x07\\r\\x9b2J\\u202eevil");
  });

  it("writes them as JSON escapes in apps status JSON, which a program reads back unchanged", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-esc-"));
    const message = JSON.parse(
      readFileSync(new URL("../fixtures/kubeedge/response-get-rejected.json", import.meta.url), "utf8"),
    );
    message.header.timestamp = Date.now();
    message.content.Nodename = "edge-1\u009b2J\u202e";
    const file = join(dir, "messages.jsonl");
    writeFileSync(file, `${JSON.stringify(message)}\n`);
    await cli(["apps", "ingest", file, "--state-dir", dir, "--output", "json"]);
    const out = await cli([
      "apps",
      "status",
      "--since",
      "2020-01-01T00:00:00Z",
      "--state-dir",
      dir,
      "--output",
      "json",
    ]);
    expect(out.code).toBe(0);
    for (const line of out.stdout.split("\n")) expect(line).not.toMatch(ACTIVE);
    expect((JSON.parse(out.stdout) as Array<{ node: string }>)[0]?.node).toBe("edge-1\u009b2J\u202e");
  });

  it("shows them escaped in every incidents table: list, its CSV, show and stats", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-esc-"));
    const key = await storeIncident(dir);
    const since = ["--since", "2020-01-01T00:00:00Z", "--state-dir", dir];
    const list = await cli(["incidents", "list", ...since]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.trimEnd().split("\n")).toHaveLength(2);
    const csv = await cli(["incidents", "list", ...since, "-o", "csv"]);
    expect(csv.stdout.trimEnd().split("\r\n")).toHaveLength(2);
    const show = await cli(["incidents", "show", key, "--state-dir", dir]);
    expect(show.code, show.stderr).toBe(0);
    // The record's 12 fields, a blank line, the column names and the one event.
    expect(show.stdout.trimEnd().split("\n")).toHaveLength(15);
    const stats = await cli(["incidents", "stats", ...since]);
    for (const out of [list, csv, show, stats]) {
      // CSV records end in CRLF, as RFC 4180 has them.
      for (const line of out.stdout.split(/\r?\n/)) expect(line).not.toMatch(ACTIVE);
      expect(out.stdout).toContain("eu\\nRESOLVED");
      expect(out.stdout).not.toMatch(/^RESOLVED/m);
    }
    expect(show.stdout).toContain("c-1\\x1b[2J\\x1b[H aws\\x1b]0;pwned\\x07");
    expect(show.stdout).toContain("1 silenced (s-1\\x1b]0;pwned\\x07)");
    expect(stats.stdout).toContain("quota\\r\\x9b31mforged\\x7f\\u2028tail\\u202egnp.exe");
    const json = await cli(["incidents", "show", key, "--state-dir", dir, "-o", "json"]);
    for (const line of json.stdout.split("\n")) expect(line).not.toMatch(ACTIVE);
    expect(JSON.parse(json.stdout).record.values.reason).toBe(hostile.reason);
  });
});
