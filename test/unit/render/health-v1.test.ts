import { readFileSync } from "node:fs";
import type { AuditHealth } from "@fleet-auditor/audit";
import {
  DigestV1Schema,
  HEALTH_RUNBOOK_DOC,
  HEALTH_V1,
  HealthV1Schema,
  healthNotice,
  renderDigests,
  slackMessage,
} from "@fleet-auditor/render";
import { slackMessageFor } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { healthV1JsonSchema } from "../../../tools/digest-schema-json.ts";
import { refusal as slackRefusal } from "../../helpers/fake-slack.ts";
import { schemaValidator } from "../../helpers/json-schema.ts";
import { ctx as digestCtx, t } from "../../helpers/transitions.ts";

const COMMITTED = new URL("../../../schemas/fleet-auditor.health.v1.schema.json", import.meta.url);

const bad: AuditHealth = {
  badRuns: 3,
  badSince: "2026-11-01T01:00:00.000Z",
  lastReason: "page 1 failed: HTTP 503 <!channel> *boom*\nsecond line",
  degradedNotified: false,
};
const ctx = { audit: "failing", runId: "run-7", at: "2026-11-01T03:00:00.000Z", landscape: "prod-eu" };

const structured = (m: ReturnType<typeof healthNotice>) =>
  HealthV1Schema.parse(JSON.parse((JSON.parse(m.message) as { default: string }).default));

describe("the structured health notice (fleet-auditor.health/v1)", () => {
  it("names the episode with one key from degraded to recovered, and a new one for the next episode", () => {
    const degraded = structured(healthNotice(ctx, "degraded", bad, { ...bad, badRuns: 2 }));
    const recovered = structured(
      healthNotice(
        { ...ctx, at: "2026-11-01T05:00:00.000Z" },
        "recovered",
        { ...bad, badRuns: 0 },
        {
          ...bad,
          badRuns: 5,
          degradedNotified: true,
        },
      ),
    );
    expect(degraded).toMatchObject({
      schema: HEALTH_V1,
      landscape: "prod-eu",
      status: "degraded",
      since: bad.badSince,
      badRuns: 3,
      runbook: HEALTH_RUNBOOK_DOC,
    });
    // One line, as every outside text in a message.
    expect(degraded.reason).toBe("page 1 failed: HTTP 503 <!channel> *boom* second line");
    expect(recovered).toMatchObject({ status: "recovered", badRuns: 5, key: degraded.key });
    const next = structured(
      healthNotice(ctx, "degraded", { ...bad, badSince: "2026-11-02T01:00:00.000Z" }, bad),
    );
    expect(next.key).not.toBe(degraded.key);
  });

  it("points to the runbook the RUNBOOK_URL_TEMPLATE gives for the auditor's own reason", () => {
    const m = healthNotice(
      { ...ctx, links: { runbook: "https://wiki.example/runbooks/{reason}" } },
      "degraded",
      bad,
      bad,
    );
    expect(structured(m).runbook).toBe("https://wiki.example/runbooks/fleet-auditor-degraded");
    expect((JSON.parse(m.message) as { email: string }).email).toContain(
      "Runbook: https://wiki.example/runbooks/fleet-auditor-degraded",
    );
    // A template that needs a label a notice has none of gives the README's section instead.
    const other = healthNotice(
      { ...ctx, links: { runbook: "https://wiki.example/{region}/{reason}" } },
      "degraded",
      bad,
      bad,
    );
    expect(structured(other).runbook).toBe(HEALTH_RUNBOOK_DOC);
  });

  it("is shown in Slack as the notice, escaped, with its runbook", () => {
    const m = healthNotice(
      { ...ctx, links: { runbook: "https://wiki.example/runbooks/{reason}" } },
      "degraded",
      bad,
      bad,
    );
    const { message, runId } = slackMessageFor((JSON.parse(m.message) as { default: string }).default);
    expect(runId).toBe("run-7");
    expect(slackRefusal(message)).toBeUndefined();
    const text = JSON.stringify(message);
    expect(message.blocks[0]).toMatchObject({
      type: "header",
      text: { text: expect.stringMatching(/DEGRADED/) },
    });
    expect(text).toContain("https://wiki.example/runbooks/fleet-auditor-degraded");
    expect(text).not.toContain("<!channel>");
    expect(text).toContain("&lt;!channel&gt;");
    // A notice its schema refuses is refused by name, not posted as text.
    const broken = JSON.stringify({ ...structured(m), since: "yesterday" });
    expect(() => slackMessageFor(broken)).toThrow(/fleet-auditor.health\/v1 that its schema refuses/);
  });

  it("has a committed JSON Schema that matches the zod schema and accepts real notices", () => {
    expect(JSON.parse(readFileSync(COMMITTED, "utf8"))).toEqual(healthV1JsonSchema());
    const validate = schemaValidator(healthV1JsonSchema());
    const notice = JSON.parse(
      (JSON.parse(healthNotice(ctx, "degraded", bad, bad).message) as { default: string }).default,
    );
    expect(validate(notice), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...notice, status: "flapping" })).toBe(false);
  });
});

describe("ages under a minute", () => {
  it("read in words in every chat text, since `<` is markup in Slack and Chatbot", () => {
    const fresh = { ...t(0), since: digestCtx.at };
    const [m] = renderDigests(digestCtx, [fresh]);
    const body = JSON.parse(m?.message ?? "{}") as { default: string; https: string; email: string };
    expect(body.email).toContain("(under 1m)");
    const chatbot = JSON.parse(body.https) as { content: { description: string } };
    expect(chatbot.content.description).toContain("(under 1m)");
    const slack = slackMessage(DigestV1Schema.parse(JSON.parse(body.default)));
    expect(slackRefusal(slack)).toBeUndefined();
    expect(JSON.stringify(slack)).toContain("(under 1m)");
  });
});
