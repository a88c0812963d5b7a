import {
  countOf,
  type DigestMessage,
  fillTemplate,
  linkValues,
  rollUps,
  rollUpText,
  type Transition,
} from "@fleet-auditor/audit";
import { kebPresenter } from "@fleet-auditor/keb-audits";
import { type DigestV1, renderDigests, slackMessage } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { ctx, t } from "../../helpers/transitions.ts";

// What an on-call person reads first must be the same in every channel: what needs action (new
// critical, then changed, reminders, resolved last), a roll-up of an event that spans many
// groups, every incident's runtimes named before any is named twice, counts as people write
// them, and links only where a page can exist.

const variants = (m: DigestMessage | undefined) =>
  JSON.parse(m?.message ?? "{}") as { default: string; email: string; https: string };

function channels(transitions: Transition[]) {
  const [m] = renderDigests(ctx, transitions);
  const v = variants(m);
  const digest = JSON.parse(v.default) as DigestV1;
  const chatbot = JSON.parse(v.https) as { content: { description: string; nextSteps: string[] } };
  // Slack renders what the incidents topic carries: the digest with its rows for channels.
  const [forSlack] = renderDigests({ ...ctx, forChannels: true }, transitions);
  const slack = JSON.stringify(slackMessage(JSON.parse(variants(forSlack).default) as DigestV1));
  return { subject: m?.subject ?? "", email: v.email, chatbot, digest, slack };
}

/** Where each of `needles` first appears in `text` (-1: absent). */
const positions = (text: string, needles: string[]): number[] => needles.map((n) => text.indexOf(n));

describe("every channel leads with what matters", () => {
  it("tells new critical, then changed, then reminders, then resolved, whatever the sizes", () => {
    const transitions = [
      ...Array.from({ length: 30 }, (_, i) => t(100 + i, "resolved", { region: "r-resolved" })),
      ...Array.from({ length: 20 }, (_, i) => t(200 + i, "reminder", { region: "r-reminder" })),
      ...Array.from({ length: 10 }, (_, i) => t(300 + i, "changed", { region: "r-changed" })),
      t(400, "firing", { region: "r-warning", severity: "warning" }),
      t(401, "firing", { region: "r-critical" }),
    ];
    const c = channels(transitions);
    const order = ["r-critical", "r-warning", "r-changed", "r-reminder", "r-resolved"];
    const ascending = (p: number[]) => p.every((x, i) => x >= 0 && (i === 0 || x > (p[i - 1] as number)));
    expect(ascending(positions(c.chatbot.content.description, order))).toBe(true);
    expect(ascending(positions(c.slack, order))).toBe(true);
    // The e-mail's summary rows and its sections, both.
    const [summary, sections] = c.email.split("\nNEW (");
    expect(ascending(positions(summary as string, order))).toBe(true);
    expect(ascending(positions(sections as string, order))).toBe(true);
    expect([...new Set(c.digest.groups.map((g) => g.region))]).toEqual(order);
  });

  it("rolls up an event that spans many groups into one line, the same words in every channel", () => {
    const reasons = ["err_keb_timeout", "err_kyma_failed", "err_quota"];
    const transitions = Array.from({ length: 3_000 }, (_, i) =>
      t(i, "firing", { region: `region-${i % 10}`, reason: reasons[i % 3] as string }),
    );
    const c = channels(transitions);
    const line =
      "3,000 runtimes failed in 10 regions: err_keb_timeout 1,000 · err_kyma_failed 1,000 · err_quota 1,000";
    expect(c.email).toContain(`NEW: ${line}`);
    const plain = (s: string) => s.replace(/`/g, "");
    expect(plain(c.chatbot.content.description)).toContain(line);
    expect(plain(c.slack)).toContain(line);
    // Below the threshold, no roll-up: three groups read as three lines.
    const three = transitions.filter((_, i) => i % 3 === 0 && i % 10 < 3);
    expect(channels(three).digest.groups).toHaveLength(3);
    expect(channels(three).email).not.toMatch(/^NEW: /m);
  });

  it("words a roll-up with one place, many reasons past four, and no reason", () => {
    const group = (reason: string, place: string, count: number) => ({
      kind: "firing" as const,
      state: "failed",
      reason,
      place,
      placeLabel: "region",
      count,
    });
    const many = rollUps(["a", "b", "c", "d", "e"].map((r, i) => group(r, "eu-1", 10 - i)));
    expect(rollUpText(many[0] as (typeof many)[0], "runtimes")).toBe(
      "40 runtimes failed in eu-1: a 10 · b 9 · c 8 · d 7 · …",
    );
    const bare = rollUps(["x", "y", "z", "w"].map((p) => group("", p, 1)));
    expect(rollUpText(bare[0] as (typeof bare)[0], "runtimes")).toBe("4 runtimes failed in 4 regions");
  });

  it("names every incident's first runtimes before any incident's second, when the publish has room for few", () => {
    // One huge incident and a distinct small one: the small one's runtimes are named too.
    const transitions = [
      ...Array.from({ length: 3_000 }, (_, i) => t(i, "firing", { region: "eu-1", reason: "err_big" })),
      ...Array.from({ length: 10 }, (_, i) =>
        t(50_000 + i, "firing", { region: "us-1", reason: "err_small", severity: "warning" }),
      ),
    ];
    const { digest } = channels(transitions);
    expect(digest.omitted).toBeGreaterThan(0);
    const named = digest.transitions.filter((r) => r.region === "us-1");
    expect(named.length).toBe(10);
  });

  it("collapsed changed groups say from what to what", () => {
    const changedFrom = (i: number, was: string, wasReason: string): Transition => {
      const now = t(i, "changed", { region: "eu-1", reason: "err_z" });
      return {
        ...now,
        previousState: was,
        previous: t(i, "firing", { state: was, reason: wasReason, severity: "warning" }).finding,
      };
    };
    const c = channels([
      ...Array.from({ length: 120 }, (_, i) => changedFrom(i, "error", "err_x")),
      ...Array.from({ length: 81 }, (_, i) => changedFrom(1_000 + i, "failed", "err_y")),
    ]);
    const from = "was error (err_x) 120, was failed (err_y) 81";
    expect(c.email).toContain(`    ${from}`);
    expect(c.chatbot.content.description).toContain(from);
    expect(c.slack).toContain(from);
    expect(c.digest.groups[0]?.from).toEqual([
      { was: "error (err_x)", count: 120 },
      { was: "failed (err_y)", count: 81 },
    ]);
  });

  it("names the run once, beside where its report is", () => {
    const c = channels([t(1), t(2, "reminder")]);
    // Links (the report's, a button's) may hold it: they are where the report is.
    const count = (s: string) => s.replace(/https?:\/\/[^\s"|>]+/g, "").split("run-1").length - 1;
    // The e-mail's head, and the report command (which must name it).
    expect(count(c.email)).toBe(2);
    expect(c.email).not.toMatch(/^Run run-1\.$/m);
    // Chatbot: only in the report line's command; its next steps do not repeat the report.
    expect(count(c.chatbot.content.description)).toBe(1);
    expect(c.chatbot.content.nextSteps.join("\n")).not.toContain("Full report");
    // Slack: the Run field, and the report command.
    expect(count(c.slack)).toBe(2);
  });

  it("writes counts as people do: singular for one, thousands separated", () => {
    expect(countOf(1, "runtimes")).toBe("1 runtime");
    expect(countOf(20_000, "runtimes")).toBe("20,000 runtimes");
    expect(countOf(1, "refusal kinds")).toBe("1 refusal kind");
    const one = renderDigests({ ...ctx, listed: 1, flagged: 1 }, [t(1)])[0];
    expect(variants(one).email).toContain("Scan complete: 1 runtime listed, 1 flagged.");
    const reminders = channels(Array.from({ length: 10 }, (_, i) => t(i, "reminder")));
    expect(reminders.subject).toContain("10 still failing");
    for (const text of [reminders.email, reminders.chatbot.content.description, reminders.slack])
      expect(text).not.toContain("(s)");
  });

  it("links a runbook only for a reason that is a code, never a slug of free text", () => {
    const runbook = (reason: string) =>
      fillTemplate(ctx.links?.runbook, linkValues(t(1, "firing", { reason }).finding, kebPresenter));
    expect(runbook("err_keb_timeout")).toBe("https://runbooks.example/err_keb_timeout");
    expect(runbook("CrashLoopBackOff")).toBe("https://runbooks.example/CrashLoopBackOff");
    expect(runbook("etcdserver: request timed out")).toBeUndefined();
    const c = channels([t(1, "firing", { reason: "etcdserver: request timed out" })]);
    expect(c.email).not.toContain("runbooks.example");
    expect(c.chatbot.content.nextSteps.join("\n")).not.toContain("Runbook");
    expect(c.slack).not.toContain("runbooks.example");
  });

  it("writes no placeholder where a group has no place or tally", () => {
    const c = channels([
      { ...t(1, "firing", { region: "" }), finding: { ...t(1).finding, labels: { state: "failed" } } },
    ]);
    for (const text of [c.email, c.chatbot.content.description, c.slack]) {
      expect(text).not.toMatch(/ in `?-`?[;,\s]/);
      expect(text).not.toMatch(/plans -/);
    }
  });
});
