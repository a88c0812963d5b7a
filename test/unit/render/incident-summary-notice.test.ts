import { readFileSync } from "node:fs";
import { type IncidentStats, incidentStats, topicsOf } from "@fleet-auditor/audit";
import { byteSize, SNS_BYTE_BUDGET } from "@fleet-auditor/notify";
import {
  CHATBOT_DESCRIPTION_LIMIT,
  type ChatbotNotification,
  type IncidentSummaryContext,
  incidentSummaryNotice,
  SUMMARY_ROWS,
  SUMMARY_V1,
  SummaryV1Schema,
} from "@fleet-auditor/render";
import { pagerEventFor, slackMessageFor } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { summaryV1JsonSchema } from "../../../tools/digest-schema-json.ts";
import { refusal as slackRefusal } from "../../helpers/fake-slack.ts";
import { HOSTILE_VALUES, incidentRecord, manyIncidentRecords } from "../../helpers/incident-records.ts";
import { schemaValidator } from "../../helpers/json-schema.ts";

// A window's incident summary in every variant a subscriber of the alerts topic can get (e-mail,
// Chatbot, the structured document the Slack function posts): what is wrong first, bounded
// whatever the window held, and inert whatever the fleet named its shoots.

const COMMITTED = new URL("../../../schemas/fleet-auditor.summary.v1.schema.json", import.meta.url);
const MINUTE = 60_000;
const ctx: IncidentSummaryContext = {
  landscape: "prod-eu",
  window: "7d",
  audits: ["failing", "expired", "applications"],
  store: { region: "eu-central-1", table: "fleet-audit-prod" },
};

/** A week's figures, given as the statistics give them: every line below can be read off them. */
const week: IncidentStats = {
  since: "2026-11-23T08:00:00.000Z",
  until: "2026-11-30T08:00:00.000Z",
  opened: 12,
  ended: 10,
  open: 3,
  timeToResolve: { count: 10, p50Ms: 42 * MINUTE, p90Ms: 190 * MINUTE },
  byAudit: [
    { value: "failing", opened: 9, ended: 8, p50Ms: 40 * MINUTE, p90Ms: 120 * MINUTE },
    { value: "expired", opened: 3, ended: 2, p50Ms: 60 * MINUTE, p90Ms: 190 * MINUTE },
  ],
  byReason: [{ value: "err_provisioning", opened: 12, ended: 10, p50Ms: 42 * MINUTE, p90Ms: 190 * MINUTE }],
  byRegion: [{ value: "eu-west-1", opened: 12, ended: 10, p50Ms: 42 * MINUTE, p90Ms: 190 * MINUTE }],
  noisiest: [
    {
      key: "inc-noisy",
      audit: "failing",
      route: "default",
      values: { region: "eu-west-1", reason: "err_provisioning" },
      events: 14,
      members: 20,
      pages: 2,
      reminders: 3,
      changes: 1,
    },
  ],
  flapping: [
    {
      audit: "failing",
      route: "default",
      values: { region: "eu-west-1" },
      episodes: 4,
      keys: ["inc-f1", "inc-f2", "inc-f3", "inc-f4"],
    },
    {
      audit: "expired",
      route: "default",
      values: { plan: "trial" },
      episodes: 3,
      keys: ["inc-e1", "inc-e2", "inc-e3"],
    },
  ],
};
const quiet: IncidentStats = {
  ...week,
  opened: 0,
  ended: 0,
  open: 0,
  timeToResolve: { count: 0 },
  byAudit: [],
  byReason: [],
  byRegion: [],
  noisiest: [],
  flapping: [],
};

type Bodies = { default: string; email: string; https: string };
const bodies = (m: ReturnType<typeof incidentSummaryNotice>): Bodies => JSON.parse(m.message) as Bodies;

describe("an incident summary", () => {
  it("says what is wrong first in its subject, with the landscape, in ASCII under 100 characters, [fleet-auditor] last", () => {
    const m = incidentSummaryNotice(ctx, week);
    expect(m.subject).toBe(
      "12 incidents opened, 3 still open; p50 time to resolve 42m; 2 flapping | prod-eu [fleet-auditor]",
    );
    expect(incidentSummaryNotice(ctx, quiet).subject).toBe(
      "no incident opened, none open | prod-eu | summary of 7d [fleet-auditor]",
    );
    const long = incidentSummaryNotice(
      { ...ctx, landscape: "a-very-long-landscape-name-of-forty-char", audit: "applications" },
      { ...week, opened: 123_456, open: 98_765 },
    ).subject;
    expect(long.length).toBeLessThan(100);
    expect(long).toMatch(/^123,456 incidents opened, 98,765 still open; .* \[fleet-auditor\]$/);
    expect(long).toMatch(/^[\x20-\x7e]+$/);
  });

  it("goes to the alerts topic alone, as a summary that tells no transition", () => {
    const m = incidentSummaryNotice(ctx, week);
    expect(m.attributes).toEqual({ audit: "all", severity: "info", kinds: ["summary"], format: "summary" });
    expect(topicsOf(m)).toEqual(["alerts"]);
    expect(topicsOf({ attributes: m.attributes })).toEqual(["alerts"]);
    expect([m.transitions, m.omitted]).toEqual([[], []]);
    expect(incidentSummaryNotice({ ...ctx, audit: "failing" }, week).attributes.audit).toBe("failing");
  });

  it("reads in its e-mail: headline, window, breakdowns, flapping, noisiest, then the commands against the stage's table", () => {
    const email = bodies(incidentSummaryNotice(ctx, week)).email;
    const lines = email.split("\n");
    expect(lines[0]).toBe(
      "fleet-auditor [prod-eu] incidents of the last 7d: 12 incidents opened, 3 still open; p50 time to resolve 42m; 2 flapping.",
    );
    expect(lines[1]).toBe(
      "From 2026-11-23 08:00 UTC to 2026-11-30 08:00 UTC, audits failing, expired, applications; 10 ended: time to resolve p50 42m, p90 3h 10m.",
    );
    const titles = lines.filter((l) => l.endsWith(":") && !l.startsWith("-"));
    expect(titles).toEqual([
      "By audit:",
      "By reason:",
      "By region:",
      "Flapping (opened and ended again and again):",
      "Noisiest:",
    ]);
    expect(email).toContain("- failing: 9 opened, 8 ended, p50 40m, p90 2h\n");
    expect(email).toContain("- failing region=eu-west-1: 4 episodes, latest inc-f4\n");
    expect(email).toContain(
      "- failing region=eu-west-1 reason=err_provisioning inc-noisy: 14 events, 20 members, 2 pages, 3 reminders, 1 change\n",
    );
    expect(lines.slice(-3)).toEqual([
      "More: AWS_REGION=eu-central-1 AUDIT_TABLE=fleet-audit-prod fleet-auditor incidents stats --since 7d",
      "As a page: AWS_REGION=eu-central-1 AUDIT_TABLE=fleet-audit-prod fleet-auditor incidents report --since 7d -o html > report.html",
      expect.stringMatching(/^Summary sum-[\w-]{24}\.$/),
    ]);
    // A store no shell can take leaves the commands out, never cut or flattened.
    const unpastable = incidentSummaryNotice({ ...ctx, store: { table: "audit\nrm -rf ~" } }, week);
    expect(bodies(unpastable).email).not.toContain("rm -rf");
    expect(bodies(unpastable).email).toContain(
      "fleet-auditor incidents stats and incidents report show more",
    );
    expect(JSON.parse(bodies(unpastable).default).commands).toEqual({});
    const narrowed = bodies(
      incidentSummaryNotice({ ...ctx, audit: "failing", store: { stateDir: "/s" } }, week),
    );
    expect(narrowed.email).toContain(
      "As a page: fleet-auditor incidents report --since 7d --audit failing -o html --state-dir /s > report.html",
    );
  });

  it("says a quiet window is quiet, with no empty section", () => {
    const email = bodies(incidentSummaryNotice(ctx, quiet)).email;
    expect(email.split("\n").slice(0, 2)).toEqual([
      "fleet-auditor [prod-eu] incidents of the last 7d: no incident opened, none open.",
      "From 2026-11-23 08:00 UTC to 2026-11-30 08:00 UTC, audits failing, expired, applications; none ended.",
    ]);
    expect(email).not.toMatch(/^By |^Noisiest|^Flapping/m);
  });

  it("is a Chatbot custom notification of its own thread, the commands as next steps", () => {
    const chatbot = JSON.parse(bodies(incidentSummaryNotice(ctx, week)).https) as ChatbotNotification;
    expect(chatbot).toMatchObject({
      version: "1.0",
      source: "custom",
      content: {
        textType: "client-markdown",
        title:
          ":bar_chart: [prod-eu] incidents of the last 7d: 12 incidents opened, 3 still open; p50 time to resolve 42m; 2 flapping",
        nextSteps: [
          "More: `AWS_REGION=eu-central-1 AUDIT_TABLE=fleet-audit-prod fleet-auditor incidents stats --since 7d`",
          "As a page: `AWS_REGION=eu-central-1 AUDIT_TABLE=fleet-audit-prod fleet-auditor incidents report --since 7d -o html &gt; report.html`",
        ],
      },
      metadata: {
        eventType: "fleet-auditor.summary",
        threadId: expect.stringMatching(/^fleet-auditor:prod-eu:summary:sum-/),
      },
    });
    expect(chatbot.content.description).toContain(
      "*Flapping (opened and ended again and again)*\n• failing region=eu-west-1: 4 episodes",
    );
    expect(Object.values(chatbot.metadata.additionalContext).every((v) => typeof v === "string")).toBe(true);
  });

  it("has a structured default its zod schema and JSON Schema both take, and a committed JSON Schema", () => {
    const doc = JSON.parse(bodies(incidentSummaryNotice(ctx, week)).default);
    expect(SummaryV1Schema.parse(doc)).toMatchObject({
      schema: SUMMARY_V1,
      landscape: "prod-eu",
      window: "7d",
      opened: 12,
      open: 3,
      audits: ["failing", "expired", "applications"],
      key: expect.stringMatching(/^sum-[\w-]{24}$/),
      commands: { stats: expect.stringContaining("incidents stats --since 7d") },
    });
    const validate = schemaValidator(summaryV1JsonSchema());
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...doc, opened: -1 })).toBe(false);
    expect(JSON.parse(readFileSync(COMMITTED, "utf8"))).toEqual(summaryV1JsonSchema());
    // The same window of the same audits has the same key; another window another.
    const key = (s: IncidentStats) => JSON.parse(bodies(incidentSummaryNotice(ctx, s)).default).key;
    expect(key(week)).toBe(doc.key);
    expect(key({ ...week, until: "2026-12-07T08:00:00.000Z" })).not.toBe(doc.key);
  });

  it("stays a few KB for a busy window (2,000 incidents, 79 flapping): every list cut to its first rows, the rest counted", () => {
    const fixture = manyIncidentRecords(2_000);
    const stats = incidentStats(fixture.records, fixture, { noisiest: 50 });
    const m = incidentSummaryNotice(ctx, stats);
    expect(byteSize(m)).toBeLessThan(32 * 1024);
    expect(byteSize(m)).toBeLessThan(SNS_BYTE_BUDGET);
    const doc = SummaryV1Schema.parse(JSON.parse(bodies(m).default));
    expect(doc.noisiest).toHaveLength(SUMMARY_ROWS.noisiest);
    expect(doc.more.noisiest).toBe(45);
    expect(doc.flapping).toHaveLength(SUMMARY_ROWS.flapping);
    expect(doc.more.flapping).toBe(stats.flapping.length - SUMMARY_ROWS.flapping);
    expect(bodies(m).email).toContain(`${stats.flapping.length} flapping`);
    expect(doc.opened).toBe(stats.opened);
    const chatbot = JSON.parse(bodies(m).https) as ChatbotNotification;
    expect(chatbot.content.description.length).toBeLessThanOrEqual(CHATBOT_DESCRIPTION_LIMIT);
    expect(slackRefusal(slackMessageFor(bodies(m).default).message)).toBeUndefined();
  });

  it("keeps hostile label values on one line in e-mail and inert in Chatbot and Slack", () => {
    const hostile = [...HOSTILE_VALUES, "<!channel> *boss*\nSubject: fired", "x".repeat(5_000)];
    const records = hostile.map((value, i) =>
      incidentRecord({
        key: `inc-h${i}`,
        openedAt: "2026-11-29T10:00:00.000Z",
        values: { region: value },
        common: { region: value, reason: value },
        events: 10 + i,
      }),
    );
    const stats = incidentStats(records, { since: new Date(week.since), until: new Date(week.until) });
    const m = incidentSummaryNotice(ctx, stats);
    const { email, https, default: doc } = bodies(m);
    expect(email).not.toMatch(/^Subject:/m);
    expect(email).toContain("<!channel> *boss* Subject: fired");
    expect(email.split("\n").every((l) => l.length < 1_000)).toBe(true);
    const chatbot = JSON.parse(https) as ChatbotNotification;
    const slack = JSON.stringify(slackMessageFor(doc).message);
    for (const text of [chatbot.content.description, slack]) {
      expect(text).not.toMatch(/<(img|svg|script|!channel)/);
      expect(text).toContain("&lt;img src=x onerror=alert(1)&gt;");
    }
    expect(slackRefusal(slackMessageFor(doc).message)).toBeUndefined();
  });
});

describe("an incident summary delivered", () => {
  it("is posted to Slack as a message of its own: the headline, the sections, the commands", () => {
    const posted = slackMessageFor(bodies(incidentSummaryNotice(ctx, week)).default);
    expect(posted.incident).toBeUndefined();
    expect(posted.place).toBeUndefined();
    expect(slackRefusal(posted.message)).toBeUndefined();
    expect(posted.message.text).toBe(
      "[prod-eu] incidents of the last 7d: 12 incidents opened, 3 still open; p50 time to resolve 42m; 2 flapping",
    );
    expect(posted.message.blocks[0]).toMatchObject({ type: "header" });
    const text = JSON.stringify(posted.message);
    expect(text).toContain("*Noisiest*");
    expect(text).toContain("fleet-auditor incidents report --since 7d -o html &gt; report.html");
  });

  it("is refused by the pager, which it is never sent to, and by name when its schema refuses it", () => {
    const doc = bodies(incidentSummaryNotice(ctx, week)).default;
    expect(() => pagerEventFor(doc)).toThrow(/an incident summary is not for the pager/);
    const broken = JSON.stringify({ ...JSON.parse(doc), until: "yesterday" });
    expect(() => slackMessageFor(broken)).toThrow(
      /fleet-auditor.summary\/v1 that its schema refuses.*Message.until/,
    );
  });
});
