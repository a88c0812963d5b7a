import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runStagesTool } from "../../../tools/stages.ts";

// `npm run stages -- check` finds, without deploying, each problem the deploy would fail on,
// naming the stage and the field: one line each, exit 1; exit 0 with one OK line.

/** A stages file in a temporary directory (absolute, so it is printed as given). */
function stagesFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "fa-stages-")), "stages.json");
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const check = (...args: string[]) => runStagesTool(["check", ...args], {});
const ops = { opsEmail: "ops@example.com" };
const alerts = { alertEmails: [{ address: "team@example.com" }] };

describe("npm run stages -- check", () => {
  it("is the package's stages script", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));
    expect(pkg.scripts.stages).toBe("node tools/stages.ts");
  });

  it("names the stage and field of each problem AWS would refuse: a rate's number, a time zone, a filter policy, a region", () => {
    const path = stagesFile({
      default: { region: "eu-centrall-1" },
      stages: {
        hourly: { schedules: { enabled: false, failing: "rate(1 hours)", applications: "rate(15 minute)" } },
        berlin: { schedules: { enabled: false, timezone: "Europe/Munich" } },
        filtered: { alertEmails: [{ address: "team@example.com", filter: { severity: "critical" } }] },
      },
    });
    const out = check("--file", path);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe("");
    const lines = out.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    for (const [line, pattern] of [
      [0, /^default: default\.region: expected an AWS region/],
      [1, /^stage hourly: stages\.hourly\.schedules\.failing: expected "rate\(15 minutes\)"/],
      [2, /^stage hourly: stages\.hourly\.schedules\.applications: expected "rate\(15 minutes\)"/],
      [3, /^stage berlin: stages\.berlin\.schedules\.timezone: expected an IANA time zone/],
      [
        4,
        /^stage filtered: stages\.filtered\.alertEmails\[0\]\.filter\.severity: expected an array of values/,
      ],
    ] as const)
      expect(lines[line]?.slice(`${path}: `.length), String(line)).toMatch(pattern);
    expect(lines.every((l) => l.startsWith(`${path}: `))).toBe(true);
  });

  it("names who a scheduled or protected stage lacks, for the Ops alarms and for the alerts", () => {
    const path = stagesFile({
      default: {},
      stages: {
        nightly: { schedules: { enabled: true }, ...alerts },
        prod: { protected: true, ...ops },
        quiet: { schedules: { enabled: true } },
        dev: {},
        told: { protected: true, ...ops, ...alerts },
      },
    });
    const out = check("--file", path);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe(
      [
        `${path}: stage nightly: stages.nightly.opsEmail (or chatbot): name who hears the Ops alarms`,
        `${path}: stage prod: stages.prod.alertEmails (or chatbot, slack, pagerDuty, pagerEmail): name who hears the alerts`,
        `${path}: stage quiet: stages.quiet.opsEmail (or chatbot): name who hears the Ops alarms`,
        `${path}: stage quiet: stages.quiet.alertEmails (or chatbot, slack, pagerDuty, pagerEmail): name who hears the alerts`,
        "",
      ].join("\n"),
    );
    // --stage: what the deploy of that stage checks; a stage not listed is the default's.
    expect(check("--file", path, "--stage", "told")).toEqual({
      code: 0,
      stdout: `${path}: OK for stage told\n`,
      stderr: "",
    });
    expect(check("--file", path, "--stage", "prod").stdout.split("\n")).toHaveLength(2);
    expect(check("--file", path, "--stage", "alice").code).toBe(0);
    const scheduledDefault = stagesFile({ default: { schedules: { enabled: true }, ...ops } });
    expect(check("--file", scheduledDefault, "--stage", "alice").stdout).toBe(
      `${scheduledDefault}: stage alice: default.alertEmails (or chatbot, slack, pagerDuty, pagerEmail): name who hears the alerts\n`,
    );
  });

  it("names the stage and field of a schedule gap or summary window the deploy refuses, scheduled or not", () => {
    // The schema takes each of these; the deploy's own functions (auditSchedules, on every stage,
    // and incidentSummarySchedule) refuse them, so check must too.
    const monthly = { schedule: "cron(0 8 1 * ? *)", maxGap: "31 days" };
    const path = stagesFile({
      default: {},
      stages: {
        fivedaily: { schedules: { enabled: false, failing: "rate(5 days)" } },
        monthly: { schedules: { enabled: false, expired: monthly } },
        quick: {
          schedules: { enabled: false, expired: { schedule: "cron(* * * * ? *)", maxGap: "90 seconds" } },
        },
        summary: { incidentSummary: { since: "120d" } },
      },
    });
    const out = check("--file", path);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe("");
    expect(out.stdout).toBe(
      [
        `${path}: stage fivedaily: stages.fivedaily.schedules.failing: a gap of 432000 s cannot be watched: whole minutes, from 1 minute to 3.5 days`,
        `${path}: stage monthly: stages.monthly.schedules.expired: a gap of 2678400 s cannot be watched: whole minutes, from 1 minute to 3.5 days`,
        `${path}: stage quick: stages.quick.schedules.expired: a gap of 90 s cannot be watched: whole minutes, from 1 minute to 3.5 days`,
        `${path}: stage summary: stages.summary.incidentSummary.since is 120d, longer than the 90 days incident records are kept (incidentRetentionDays)`,
        "",
      ].join("\n"),
    );
    for (const stage of ["fivedaily", "monthly", "summary"]) {
      const one = check("--file", path, "--stage", stage);
      expect(one.code, stage).toBe(1);
      expect(one.stdout, stage).toMatch(new RegExp(`^${path}: stage ${stage}: stages\\.${stage}\\.`));
    }
    // A stage not listed deploys the default's: the default's field is named.
    const badDefault = stagesFile({ default: { schedules: { enabled: false, failing: "rate(5 days)" } } });
    expect(check("--file", badDefault, "--stage", "alice").stdout).toBe(
      `${badDefault}: stage alice: default.schedules.failing: a gap of 432000 s cannot be watched: whole minutes, from 1 minute to 3.5 days\n`,
    );
    // Kept long enough, the same window deploys.
    const kept = stagesFile({
      stages: { summary: { incidentSummary: { since: "120d" }, incidentRetentionDays: 120 } },
    });
    expect(check("--file", kept).code).toBe(0);
  });

  it("prints one OK line and exits 0 for a file the deploy takes", () => {
    const path = stagesFile({
      default: { region: "eu-west-1" },
      stages: {
        prod: { protected: true, schedules: { enabled: true, failing: "rate(1 hour)" }, ...ops, ...alerts },
      },
    });
    expect(check("--file", path)).toEqual({ code: 0, stdout: `${path}: OK for every stage\n`, stderr: "" });
  });

  it("exits 1 for a file that is not JSON, and 2 for a command it does not know", () => {
    const broken = check("--file", stagesFile("{ not json"));
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^stages: .*stages\.json: cannot be read as JSON: /);
    const usage = runStagesTool(["chek"], {});
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^stages: expected the command check\nusage: npm run stages -- check/);
    expect(runStagesTool(["check", "--stag", "prod"], {}).code).toBe(2);
  });
});
