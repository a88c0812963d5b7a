import type { DigestContext, DigestMessage, Transition } from "@fleet-auditor/audit";
import {
  type ChatbotNotification,
  DigestV1Schema,
  incidentPagerEvent,
  type PagerTrigger,
  renderDigests,
  renderPagerMessages,
  slackMessage,
} from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { failing, Landscape } from "../../helpers/incident-landscape.ts";
import { forLambda } from "../../helpers/sns-event.ts";
import { AT, ctx, t } from "../../helpers/transitions.ts";

// What every title says, in every channel: the incident's values first (state, reason, place),
// then how many and what happened, then the landscape; decorations are what a cut takes first.

const parts = (m: DigestMessage | undefined) => {
  const body = JSON.parse(m?.message ?? "{}") as { default: string; email: string; https: string };
  const digest = DigestV1Schema.parse(JSON.parse(body.default));
  const chatbot = JSON.parse(body.https) as ChatbotNotification;
  const slack = slackMessage(digest);
  const header = (slack.blocks[0] as { text: { text: string } }).text.text;
  return { subject: m?.subject ?? "", email: body.email, chatbot, digest, slack, header };
};

/** The PagerDuty trigger of a Critical-topic message. */
const triggerOf = (m: DigestMessage | undefined): PagerTrigger => {
  const digest = DigestV1Schema.parse(JSON.parse(forLambda(m?.message ?? "{}")));
  const event = incidentPagerEvent(digest, digest.incident as NonNullable<typeof digest.incident>);
  if (event.event_action !== "trigger") throw new Error("expected a trigger");
  return event;
};

const hours = (h: number): string => new Date(Date.parse(AT) - h * 3_600_000).toISOString();

describe("incident titles", () => {
  it("lead with the incident's state, reason and region, then how many, then the landscape, in every channel", () => {
    const l = new Landscape();
    const [m] = l.run(
      Array.from({ length: 30 }, (_, i) => failing(`r-${i}`, "eu-1", "err_quota")),
      0,
    );
    const p = parts(m);
    const title = "failed (err_quota) in eu-1: 30 new runtimes | prod-eu | CRITICAL | failing audit";
    expect(p.subject).toBe(`${title} [fleet-auditor]`);
    expect(p.chatbot.content.title).toBe(`:red_circle: ${title}`);
    expect(p.header).toBe(`:red_circle: ${title}`);
    expect(p.digest.subject).toBe(p.subject);
  });

  it("tell a partial recovery with its numbers, never as resolved, and an end with how long it lasted", () => {
    const l = new Landscape();
    const fleet = Array.from({ length: 30 }, (_, i) => failing(`r-${i}`, "eu-1", "err_quota"));
    l.run(fleet, 0);
    const [partial] = l.run(fleet.slice(0, 6), 1);
    const p = parts(partial);
    for (const title of [p.subject, p.chatbot.content.title, p.header, p.slack.text]) {
      expect(title).toContain("failed (err_quota) in eu-1: 24 recovered, 6 still failing | prod-eu");
      expect(title).not.toMatch(/resolved/i);
    }
    expect(p.digest.incident).toMatchObject({ status: "firing", firing: 6 });

    const [end] = l.run([], 3);
    const e = parts(end);
    for (const title of [e.subject, e.chatbot.content.title, e.header])
      expect(title).toContain("failed (err_quota) in eu-1: resolved, lasted 3h, 6 recovered | prod-eu");
    expect(e.digest.incident).toMatchObject({ status: "resolved", firing: 0, lastedSeconds: 3 * 3_600 });
    // The body says it too, with the incident's key.
    const key = e.digest.incident?.key as string;
    expect(e.email).toContain(`Incident ${key} ended: lasted 3h (since 2026-12-01 08:00 UTC).`);
    expect(e.chatbot.content.description).toContain(`Incident \`${key}\` ended: lasted 3h`);
    expect(JSON.stringify(e.slack.blocks)).toContain(`Incident \`${key}\` ended: lasted 3h`);
  });

  it("carry the incident's key in every message's body, so that a page and a thread can be matched", () => {
    const l = new Landscape();
    const [m] = l.run([failing("a", "eu-1"), failing("b", "eu-1")], 0);
    const p = parts(m);
    const key = p.digest.incident?.key as string;
    expect(key).toMatch(/^inc-/);
    expect(p.email).toContain(`Incident ${key}, since 2026-12-01 08:00 UTC (under 1m): 2 failing now.`);
    expect(p.chatbot.content.description.split("\n")[0]).toBe(
      `Incident \`${key}\`, since 2026-12-01 08:00 UTC (under 1m): 2 failing now.`,
    );
    expect(JSON.stringify(p.slack.blocks)).toContain(`Incident \`${key}\``);
  });

  it("name one runtime by its state and reason before its shoot and region", () => {
    const [m] = renderDigests(ctx, [t(1)]);
    expect(m?.subject).toBe(
      "failed (err_keb_timeout) shoot c-0000001 in westeurope: new | prod-eu | CRITICAL | failing audit",
    );
  });

  it("say what an incident grouped by audit alone holds, never its first member's reason as its own", () => {
    const states = ["failed", "error"];
    const reasons = ["err_provisioning", "err_timeout", "err_quota"];
    const many: Transition[] = Array.from({ length: 3_000 }, (_, i) =>
      t(i, "firing", {
        state: states[i % 2] as string,
        reason: reasons[i % 3] as string,
        region: `region-${i % 33}`,
      }),
    );
    const byAudit: DigestContext = {
      ...ctx,
      groupBy: ["audit"],
      forChannels: true,
      incident: { key: "inc-1", status: "firing", startsAt: hours(6), values: { audit: "" }, firing: 3_000 },
    };
    const p = parts(renderDigests(byAudit, many)[0]);
    const what =
      "error, failed: 3,000 new runtimes in 33 regions (err_provisioning 1,000 · err_quota 1,000 · err_timeout 1,000)";
    expect(p.chatbot.content.title).toBe(`:red_circle: ${what} | prod-eu | CRITICAL | failing audit`);
    expect(p.header).toContain(what);
    // The subject has 99 ASCII characters: the decorations went, the reasons are cut, the landscape stays.
    expect(p.subject).toBe(
      "error, failed: 3,000 new runtimes in 33 regions (err_provisioning 1,000 / err_quota 1,... | prod-eu",
    );
    expect(p.subject).not.toMatch(/^failed \(err_provisioning\)/);
    // The pager's summary, for a phone call: what, how many, where, since when.
    const pager = renderPagerMessages(
      byAudit,
      many.map((x) => ({
        ...x,
        incident: {
          key: "inc-1",
          startsAt: hours(6),
          openedAt: AT,
          firing: 3_000,
          pager: "trigger" as const,
          values: { audit: "" },
        },
      })),
    );
    const { summary } = triggerOf(pager[0]).payload;
    expect(summary).toContain(
      `${what} | prod-eu | CRITICAL | failing audit | since 2026-11-30 00:00 UTC (6h)`,
    );
    // Several descriptions would be one claimed for all: the first is said to be one.
    expect(summary).toMatch(/\| e\.g\. c-\d+: quota exceeded$/);
  });
});

describe("the pager's summary and details", () => {
  it("are written for a phone call, not 'CRITICAL failing: 2 firing', and carry what on-call needs", () => {
    const l = new Landscape();
    l.run([], 0);
    const critical = (hour: number, findings: ReturnType<typeof failing>[]) => l.runPager(findings, hour);
    const [m] = critical(1, [failing("a", "eu-1"), failing("b", "eu-1")]);
    const e = triggerOf(m);
    expect(e.payload.summary).not.toMatch(/^CRITICAL|failing: \d+ firing/);
    expect(e.payload.summary).toBe(
      "failed (err_provisioning) in eu-1: 2 new runtimes | prod-eu | CRITICAL | failing audit | since 2026-12-01 09:00 UTC (under 1m) | e.g. c-a: quota exceeded",
    );
    const key = e.dedup_key;
    expect(e.payload.custom_details).toMatchObject({
      incident_key: key,
      region: "eu-1",
      runbook: "https://runbooks.example/err_provisioning",
      silence: `fleet-auditor silences add --audit failing --incident ${key} --for 4h --comment 'acknowledged: incident ${key}' --by "$USER"`,
    });
    expect(e.payload.custom_details).not.toHaveProperty("shoot");
    expect(e.links.map((link) => link.text)).toEqual([
      "Console: c-a",
      "Console: c-b",
      "Runbook",
      "Run report",
    ]);
    const [one] = critical(2, [failing("a", "eu-1"), failing("b", "eu-1"), failing("x", "us-1")]);
    expect(triggerOf(one).payload.custom_details).toMatchObject({
      shoot: "c-x",
      region: "us-1",
      console: "https://console.example/runtimes/x",
    });
  });
});

describe("a title cut to its channel's room", () => {
  const long = (n: number, c: string): string => c.repeat(n);

  it("drops every decoration before it cuts a long reason, and keeps the count", () => {
    const reason = `err_${long(70, "r")}`;
    const [m] = renderDigests(ctx, [
      t(1, "firing", { reason }),
      t(2, "firing", { reason, region: "westeurope" }),
    ]);
    const p = parts(m);
    expect(p.subject.length).toBeLessThanOrEqual(99);
    expect(p.subject).not.toMatch(/CRITICAL|failing audit|fleet-auditor|prod-eu/);
    expect(p.subject).toMatch(/^failed \(err_r+\.\.\.: 2 new runtimes$/);
    // Chatbot's title has room for all of it.
    expect(p.chatbot.content.title).toContain(
      `failed (${reason}) in westeurope: 2 new runtimes | prod-eu | CRITICAL`,
    );
  });

  it("never cuts the reason while it keeps a decoration, whatever the landscape's length", () => {
    const landscape = `prod-${long(120, "l")}`;
    const [m] = renderDigests({ ...ctx, landscape, forChannels: true }, [
      t(1, "firing", { reason: "err_provisioning_quota" }),
    ]);
    const p = parts(m);
    // The landscape is the last decoration to go: the audit and severity went before it.
    expect(p.subject).toBe("failed (err_provisioning_quota) shoot c-0000001 in westeurope: new");
    const header = p.header;
    expect(Array.from(header).length).toBeLessThanOrEqual(150);
    expect(header).toContain("failed (err_provisioning_quota) shoot c-0000001 in westeurope: new");
  });

  it("drops the first incident's place before '+N more', so that a message of several incidents is not titled as its first one alone", () => {
    // Room for the values, "+2 more" and the news, but not for the place besides.
    const reason = `err_${long(58, "r")}`;
    const [m] = renderDigests(ctx, [
      t(1, "firing", { reason, region: "eu-1" }),
      t(2, "firing", { reason, region: "eu-2" }),
      t(3, "firing", { reason, region: "eu-3" }),
    ]);
    const subject = m?.subject ?? "";
    expect(subject.length).toBeLessThanOrEqual(99);
    expect(subject).toBe(`failed (${reason}) +2 more: 3 new runtimes`);
  });

  it("cuts the place before the reason, and the reason before the state, when nothing else is left", () => {
    const reason = `err_${long(200, "x")}`;
    const [m] = renderDigests(ctx, [t(1, "firing", { reason })]);
    const subject = m?.subject ?? "";
    expect(subject).toHaveLength(99);
    expect(subject).toMatch(/^failed \(err_x+\.\.\.: new$/);
  });

  it("cuts a pager summary at PagerDuty's 1,024 characters, keeping what is wrong and how many", () => {
    const l = new Landscape();
    const [m] = l.runPager([failing("a", "eu-1", "err_quota"), failing("b", "eu-1", "err_quota")], 0);
    const digest = DigestV1Schema.parse(JSON.parse(forLambda(m?.message ?? "{}")));
    const event = incidentPagerEvent(
      { ...digest, landscape: `prod-${long(2_000, "l")}` },
      digest.incident as NonNullable<typeof digest.incident>,
    ) as PagerTrigger;
    const { summary } = event.payload;
    expect(Array.from(summary).length).toBeLessThanOrEqual(1_024);
    expect(summary).toBe("failed (err_quota) in eu-1: 2 new runtimes");
  });
});
