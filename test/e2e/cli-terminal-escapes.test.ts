import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ReportTransition, type RunReport, reportTransition } from "@fleet-auditor/audit";
import { kebPresenter } from "@fleet-auditor/keb-audits";
import { DynamoReportStore, startEmbeddedDynamo } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { cli, spawnCli } from "../helpers/cli.ts";
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
  const row: ReportTransition = { ...reportTransition(t(1), kebPresenter), ...hostile };
  const formula: ReportTransition = {
    ...reportTransition(t(2), kebPresenter),
    reason: '=HYPERLINK("https://x.example")',
  };
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
});
