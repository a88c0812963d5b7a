import { readFileSync } from "node:fs";
import type { DigestMessage } from "@fleet-auditor/audit";
import { byteSize, SNS_MESSAGE_LIMIT } from "@fleet-auditor/notify/sns-envelope";
import { DIGEST_V1, DigestV1Schema, renderDigests, slackMessage } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { digestV1JsonSchema } from "../../../tools/digest-schema-json.ts";
import { schemaValidator } from "../../helpers/json-schema.ts";
import { ctx, t } from "../../helpers/transitions.ts";

/** What a Lambda and an SQS subscriber receive: the publish's `default` (it has no `lambda` or `sqs` key). */
const variants = (m: DigestMessage | undefined) => {
  const body = JSON.parse(m?.message ?? "{}") as { default: string; lambda?: string; sqs?: string };
  const forLambda = body.lambda ?? body.default;
  const forSqs = body.sqs ?? body.default;
  return { lambda: JSON.parse(forLambda) as unknown, sqs: JSON.parse(forSqs) as unknown };
};

const COMMITTED = new URL("../../../schemas/fleet-auditor.digest.v1.schema.json", import.meta.url);

describe("the structured variant (fleet-auditor.digest/v1)", () => {
  it("is what Lambda and SQS subscribers of every publish receive, valid under its zod schema", () => {
    const [m] = renderDigests({ ...ctx, repeats: "run-0" }, [
      t(1),
      t(2, "resolved", { severity: "warning" }),
      t(3, "changed"),
    ]);
    const { lambda, sqs } = variants(m);
    expect(lambda).toEqual(sqs);
    const digest = DigestV1Schema.parse(lambda);
    expect(digest).toMatchObject({
      schema: DIGEST_V1,
      audit: "failing",
      landscape: "prod-eu",
      runId: "run-1",
      severity: "critical",
      subject: m?.subject,
      scan: { complete: true, incompleteReason: null, listed: 20_000, flagged: 3 },
      counts: { firing: 1, changed: 1, reminder: 0, resolved: 1 },
      omitted: 0,
      report: {
        stored: true,
        command: "fleet-auditor runs show run-1",
        url: "https://console.example/runs/run-1",
      },
      repeats: "run-0",
    });
    expect(digest.groups.map((g) => `${g.kind} ${g.count}`).sort()).toEqual([
      "changed 1",
      "firing 1",
      "resolved 1",
    ]);
    const firing = digest.transitions.find((x) => x.kind === "firing");
    expect(firing).toMatchObject({
      instanceID: "instance-00001",
      severity: "critical",
      state: "failed",
      previousState: null,
      reason: "err_keb_timeout",
      links: {
        runtime: "https://console.example/runtimes/instance-00001",
        runbook: "https://runbooks.example/err_keb_timeout",
      },
    });
    expect(digest.transitions.find((x) => x.kind === "resolved")).toMatchObject({ ending: "succeeded" });
    expect(m?.omitted).toEqual([]);
  });

  it("names what fits SNS's 256 KiB with the rest counted, and counts as told only what both the e-mail and it name", () => {
    const many = Array.from({ length: 3_000 }, (_, i) => t(i));
    const [m] = renderDigests(ctx, many);
    expect(byteSize(m as DigestMessage)).toBeLessThanOrEqual(SNS_MESSAGE_LIMIT);
    const digest = DigestV1Schema.parse(variants(m).lambda);
    expect(digest.transitions.length).toBeGreaterThan(50);
    expect(digest.transitions.length + digest.omitted).toBe(3_000);
    expect(digest.omitted).toBeGreaterThan(0);
    const named = new Set(digest.transitions.map((x) => x.instanceID));
    expect(m?.transitions.length).toBeGreaterThan(0);
    for (const ref of m?.transitions ?? []) expect(named.has(many[ref]?.key as string)).toBe(true);
    expect((m?.transitions.length ?? 0) + (m?.omitted.length ?? 0)).toBe(3_000);
  });

  it("has a committed JSON Schema that matches the zod schema and accepts real digests", () => {
    // `npm run schema` writes it; this fails when the two drift apart.
    expect(JSON.parse(readFileSync(COMMITTED, "utf8"))).toEqual(digestV1JsonSchema());
    const validate = schemaValidator(digestV1JsonSchema());
    const [m] = renderDigests({ ...ctx, complete: false, incompleteReason: "HTTP 503" }, [
      t(1),
      t(2, "reminder"),
      t(4, "resolved"),
    ]);
    const { lambda } = variants(m);
    expect(validate(lambda), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...(lambda as object), schema: "fleet-auditor.digest/v2" })).toBe(false);
    expect(validate({ ...(lambda as object), counts: { firing: -1 } })).toBe(false);
    // Its times are `format: date-time`, checked as a consumer's validator checks them.
    expect(validate({ ...(lambda as object), at: "yesterday" })).toBe(false);
  });

  it("renders the examples of docs/contracts.md and docs/notifications.md (snapshots: the structured digest and its Slack message)", async () => {
    const [m] = renderDigests(ctx, [t(1)]);
    const digest = DigestV1Schema.parse(variants(m).lambda);
    await expect(`${JSON.stringify(digest, null, 2)}\n`).toMatchFileSnapshot(
      "__snapshots__/digest-v1-1-transition.json",
    );
    // Slack renders what the incidents topic carries: the digest with its rows for channels.
    const [forSlack] = renderDigests({ ...ctx, forChannels: true }, [t(1)]);
    const slack = slackMessage(DigestV1Schema.parse(variants(forSlack).lambda));
    await expect(`${JSON.stringify(slack, null, 2)}\n`).toMatchFileSnapshot(
      "__snapshots__/slack-1-transition.json",
    );
  });

  it("in Slack, says when a message may repeat an interrupted run's and when the report is missing", () => {
    const [m] = renderDigests(
      { ...ctx, repeats: "run-0", report: { stored: false, command: "fleet-auditor runs show run-1" } },
      [t(1)],
    );
    const message = slackMessage(DigestV1Schema.parse(variants(m).lambda));
    const notes = message.blocks.find((b) => b.type === "context");
    expect(JSON.stringify(notes)).toContain("Run `run-0` was interrupted after publishing");
    expect(JSON.stringify(notes)).toContain("The run report could not be stored");
  });
});
