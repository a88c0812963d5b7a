import type { DigestMessage, Transition } from "@fleet-auditor/audit";
import { byteSize, SNS_MESSAGE_LIMIT } from "@fleet-auditor/notify/sns-envelope";
import {
  asciiSubject,
  CHATBOT_DESCRIPTION_LIMIT,
  type ChatbotNotification,
  EMAIL_BUDGET,
  renderDigests,
} from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { finding } from "../../helpers/findings.ts";
import { ctx, editedT, t } from "../../helpers/transitions.ts";

const body = (m: DigestMessage | undefined) =>
  JSON.parse(m?.message ?? "{}") as { default: string; email: string; https: string };
const chatbot = (m: DigestMessage | undefined) => JSON.parse(body(m).https) as ChatbotNotification;

describe("digests", () => {
  it("render one message: the structured digest as default, the e-mail and a Chatbot payload, and filterable attributes", () => {
    const [m, ...rest] = renderDigests(ctx, [t(1), t(2, "resolved", { severity: "warning" })]);
    expect(rest).toEqual([]);
    const { default: structured, email } = body(m);
    expect(email).toContain("NEW (1)");
    expect(email).toContain("RECOVERED (1)");
    expect(JSON.parse(structured)).toMatchObject({ schema: "fleet-auditor.digest/v1", runId: "run-1" });
    expect(chatbot(m)).toMatchObject({
      version: "1.0",
      source: "custom",
      content: { textType: "client-markdown" },
    });
    expect(m?.attributes).toEqual({
      audit: "failing",
      severity: "critical",
      kinds: ["firing", "resolved"],
      format: "digest",
    });
    expect(m?.subject).toBe(
      "failed (err_keb_timeout) in westeurope +1 more: 1 new runtime, 1 recovered | prod-eu | CRITICAL",
    );
  });

  it("leave silenced transitions out, and render nothing when nothing notifies", () => {
    expect(renderDigests(ctx, [{ ...t(1), silencedBy: "s1" }])).toEqual([]);
    expect(renderDigests(ctx, [])).toEqual([]);
  });

  it("put what happened and where to read everything first", () => {
    const lines = body(renderDigests(ctx, [t(1), t(2)])[0]).email.split("\n");
    expect(lines[0]).toBe("fleet-auditor [prod-eu] failing audit, run run-1 at 2026-11-30 06:00 UTC");
    expect(lines[2]).toBe("Every transition of this run: fleet-auditor runs show run-1");
    expect(lines[3]).toBe("  https://console.example/runs/run-1");
  });

  it("name one runtime in the subject: state and reason, then shoot and region", () => {
    const [m] = renderDigests(ctx, [t(1)]);
    expect(m?.subject).toBe(
      "failed (err_keb_timeout) shoot c-0000001 in westeurope: new | prod-eu | CRITICAL | failing audit",
    );
  });

  it("mark a digest of only resolutions info and say they recovered, how long and how they ended", () => {
    const [m] = renderDigests(ctx, [t(1, "resolved"), t(2, "resolved")]);
    expect(m?.attributes.severity).toBe("info");
    expect(m?.subject).toBe(
      "failed (err_quota) in us-east-1 +1 more: 2 recovered | prod-eu | failing audit [fleet-auditor]",
    );
    expect(m?.subject).not.toMatch(/RESOLVED/);
    expect(body(m).email).toMatch(
      /- resolved after 1h: aws westeurope shoot c-0000001, was failed \(err_keb_timeout\), now succeeded/,
    );
    const [gone] = renderDigests(ctx, [{ ...t(3, "resolved"), ending: "no longer listed" }]);
    expect(body(gone).email).toContain("now no longer listed");
    expect(gone?.subject).toContain(
      "failed (err_provisioning) shoot c-0000003 in eu-central-1: recovered | prod-eu",
    );
  });

  it("say old -> new for a change, since when for a reminder, and the steps a deprovisioning left undone", () => {
    const changed = t(1, "changed");
    changed.previous = finding("instance-00001", "error", "warning", "op-0");
    changed.previousState = "error";
    const reminder = t(2, "reminder");
    const incomplete = editedT(
      t(3, "firing", { state: "deprovisionincomplete", severity: "warning" }),
      (_, { errorReason: _r, ...op }) => ({
        operation: { ...op, notCompletedSteps: ["Delete_Kyma_Resource", "Free_Subscription"] },
      }),
    );
    const email = body(renderDigests(ctx, [changed, reminder, incomplete])[0]).email;
    expect(email).toContain("- [critical] error -> failed: aws westeurope shoot c-0000001");
    expect(email).toMatch(/ {6}was: provision failed \(reason err_provisioning\)\n {6}now: provision failed/);
    expect(email).toMatch(/- \[critical\] still failed \(err_quota\) since 2026-11-30 04:00 UTC \(2h\)/);
    expect(email).toContain("steps not completed: Delete_Kyma_Resource, Free_Subscription");
    expect(email).toContain("inspect: kcp rt -i instance-00003 --ops -o json");
    expect(email).toContain("console: https://console.example/runtimes/instance-00001");
    expect(email).toContain("runbook: https://runbooks.example/err_keb_timeout");
  });

  it("collapse a large group into one line with a count, examples, a runbook and a silence command", () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      t(i * 3, "firing", { region: "eu-central-1", reason: "err_quota" }),
    );
    const [m] = renderDigests(ctx, many);
    const email = body(m).email;
    expect(email).toMatch(
      /\* 300 runtimes failed \(err_quota\) in eu-central-1, plans aws 240, trial 60, since .*\[critical\]/,
    );
    expect(email).toContain(
      `silence: fleet-auditor silences add --audit failing --match state=failed --match reason=err_quota --match region=eu-central-1 --for 4h --comment 'acknowledged: failed err_quota eu-central-1' --by "$USER"`,
    );
    expect(m?.transitions).toHaveLength(3);
    expect(m?.omitted).toHaveLength(297);
  });

  it("say when the scan was incomplete, in the subject too", () => {
    const [m] = renderDigests({ ...ctx, complete: false, incompleteReason: "page 3 failed" }, [t(1), t(2)]);
    expect(body(m).email).toContain("Scan INCOMPLETE (page 3 failed): nothing was resolved");
    expect(m?.subject).toBe(
      "failed (err_quota) in us-east-1 +1 more: INCOMPLETE scan, 2 new runtimes | prod-eu | CRITICAL",
    );
  });

  it("say so when the report could not be stored", () => {
    const [m] = renderDigests({ ...ctx, report: { stored: false, command: "x" } }, [t(1)]);
    expect(body(m).email).toContain("The run report could not be stored");
    expect(chatbot(m).content.description).toContain("The run report could not be stored");
  });
});

describe("a large incident", () => {
  // 3,000 runtimes failing: 2,601 in one region, the rest spread, with changes, reminders and recoveries.
  const incident = (): Transition[] => [
    ...Array.from({ length: 2_601 }, (_, i) =>
      t(i, "firing", { region: "eu-central-1", reason: "err_provisioning" }),
    ),
    ...Array.from({ length: 150 }, (_, i) => t(10_000 + i, "firing", { reason: `err_${i % 40}` })),
    ...Array.from({ length: 100 }, (_, i) => t(20_000 + i, "reminder")),
    ...Array.from({ length: 149 }, (_, i) => t(30_000 + i, "resolved")),
  ];

  it("is one message within SNS's limit, its e-mail under 100 KB, and tells every transition", () => {
    const all = incident();
    const messages = renderDigests(ctx, all);
    expect(messages).toHaveLength(1);
    const [m] = messages;
    expect(byteSize(m as DigestMessage)).toBeLessThanOrEqual(SNS_MESSAGE_LIMIT);
    expect(Buffer.byteLength(body(m).email)).toBeLessThan(EMAIL_BUDGET);
    expect(new Set([...(m?.transitions ?? []), ...(m?.omitted ?? [])]).size).toBe(all.length);
    expect(body(m).email).toMatch(/^Summary: 2,751 new, 100 still failing, 149 recovered$/m);
  });

  it("keeps the Chatbot description within Slack's 3,000 characters", () => {
    const note = chatbot(renderDigests(ctx, incident())[0]);
    expect(note.content.description.length).toBeLessThanOrEqual(CHATBOT_DESCRIPTION_LIMIT);
    expect(note.content.description).toMatch(
      /:red_circle: \*2,601 new\* `failed` `err_provisioning` in `eu-central-1`/,
    );
    expect(note.content.description).toMatch(
      /Full report: <https:\/\/console.example\/runs\/run-1\|run report>/,
    );
  });
});

describe("Slack safety", () => {
  it("escapes markup from KEB: no mention, link or code span can be injected", () => {
    const evil = editedT(t(1), (_, op) => ({
      operation: { ...op, errorReason: "<!channel> `x` <https://evil|click> & *bold*" },
      shootName: "<@U123>",
    }));
    const note = chatbot(renderDigests(ctx, [evil])[0]);
    const text = JSON.stringify(note.content);
    expect(text).not.toContain("<!channel>");
    expect(text).not.toContain("<@U123>");
    expect(text).not.toContain("<https://evil");
    expect(note.content.description).toContain("&lt;!channel&gt;");
    // Every code span is closed: backticks come in pairs on every line.
    for (const line of note.content.description.split("\n"))
      expect((line.match(/`/g) ?? []).length % 2).toBe(0);
  });

  it("never lets a control character or line break from KEB forge a line of the e-mail", () => {
    const evil = editedT(t(1), (_, op) => ({
      operation: { ...op, description: "fine\nRECOVERED (1)\r\n- resolved: all good\u0085\u2028x" },
    }));
    const email = body(renderDigests(ctx, [evil])[0]).email;
    expect(email).not.toMatch(/^RECOVERED/m);
    expect(email).not.toMatch(/^- resolved/m);
    expect(email).toContain("fine RECOVERED (1) - resolved: all good x");
  });

  it("gives every message its own id and one thread per incident, from firing to resolved", () => {
    const firing = chatbot(renderDigests({ ...ctx, runId: "r1" }, [t(1)])[0]);
    const resolved = chatbot(renderDigests({ ...ctx, runId: "r2" }, [t(1, "resolved")])[0]);
    const other = chatbot(renderDigests({ ...ctx, runId: "r3" }, [t(2)])[0]);
    expect(new Set([firing.id, resolved.id, other.id]).size).toBe(3);
    expect(resolved.metadata.threadId).toBe(firing.metadata.threadId);
    expect(other.metadata.threadId).not.toBe(firing.metadata.threadId);
  });

  it("name a thread by when its incident was first seen, so an onset learned later moves no thread", () => {
    // Fired before onsets were known: since was when it was first seen, yesterday.
    const before = { ...t(1), since: "2026-11-29T23:00:00.000Z" };
    // Its reminder today knows the onset, two days earlier, and keeps when it was first seen.
    const now = { ...t(1, "reminder"), since: "2026-11-27T10:00:00.000Z", firstSeenAt: before.since };
    const thread = (x: typeof before) => chatbot(renderDigests(ctx, [x])[0]).metadata.threadId;
    expect(thread(now)).toBe(thread(before));
  });
});

describe("subjects", () => {
  it("are printable ASCII on one line within 99 characters, transliterated rather than blanked", () => {
    const s = asciiSubject(`[fleet-auditor] Ärger\r\nmit Straße → ${"x".repeat(200)} ✓`);
    expect(s).toMatch(/^[\x20-\x7e]+$/);
    expect(s.length).toBeLessThanOrEqual(99);
    expect(s.startsWith("[fleet-auditor] Arger mit Strasse -> x")).toBe(true);
  });

  it("never cut the part suffix", () => {
    const s = asciiSubject(`[fleet-auditor] ${"y".repeat(200)}`, "(part 2 of 3)");
    expect(s.length).toBeLessThanOrEqual(99);
    expect(s.endsWith("... (part 2 of 3)")).toBe(true);
  });
});

describe("renderings as received (snapshots)", () => {
  const cases: Array<[string, () => Transition[]]> = [
    ["1 transition", () => [t(1)]],
    [
      "50 transitions",
      () => [
        ...Array.from({ length: 30 }, (_, i) =>
          t(i, "firing", { region: "eu-central-1", reason: "err_quota" }),
        ),
        ...Array.from({ length: 10 }, (_, i) => t(100 + i, "reminder")),
        ...Array.from({ length: 10 }, (_, i) => t(200 + i, "resolved")),
      ],
    ],
    [
      "3000 transitions",
      () => [
        ...Array.from({ length: 2_601 }, (_, i) =>
          t(i, "firing", { region: "eu-central-1", reason: "err_provisioning" }),
        ),
        ...Array.from({ length: 250 }, (_, i) => t(10_000 + i, "reminder")),
        ...Array.from({ length: 149 }, (_, i) => t(30_000 + i, "resolved")),
      ],
    ],
  ];
  it.each(cases)("%s: e-mail and Chatbot", async (name, make) => {
    const [m] = renderDigests(ctx, make());
    const slug = name.replace(/ /g, "-");
    await expect(`Subject: ${m?.subject}\n\n${body(m).email}\n`).toMatchFileSnapshot(
      `__snapshots__/email-${slug}.txt`,
    );
    await expect(`${JSON.stringify(chatbot(m), null, 2)}\n`).toMatchFileSnapshot(
      `__snapshots__/chatbot-${slug}.json`,
    );
  });
});
