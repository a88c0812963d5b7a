import type { DigestMessage, Transition } from "@fleet-auditor/audit";
import { Fleet, generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import {
  type DigestV1,
  DigestV1Schema,
  renderDigests,
  type SlackMessage,
  testNotice,
} from "@fleet-auditor/render";
import { runAudit } from "@fleet-auditor/use-cases";
import type { Context } from "aws-lambda";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { type FakeSlack, refusal, useFakeSlack } from "../helpers/fake-slack.ts";
import { useTestProxy } from "../helpers/http-proxy.ts";
import { failing, Landscape } from "../helpers/incident-landscape.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, withEnv } from "../helpers/lambda.ts";
import {
  FleetSource,
  MemoryAuditStore,
  MemoryPublisher,
  MemoryReportStore,
} from "../helpers/memory-ports.ts";
import { captureOutput } from "../helpers/output.ts";
import { useSns } from "../helpers/sns.ts";
import { forLambda, snsEvent } from "../helpers/sns-event.ts";
import { testAudits } from "../helpers/test-audits.ts";
import { startTlsRelay, type TlsRelay, testCertificate, trustInThisProcess } from "../helpers/test-tls.ts";
import { ctx, editedT, t } from "../helpers/transitions.ts";

// The Slack function, SNS → Block Kit → an incoming webhook, against a stand-in that
// refuses what Slack refuses and answers 429, 500 and invalid_blocks on demand.

const fake = useFakeSlack();
const kit = useKebSimulator({ fleet: { size: 200, seed: 81, flagged: 20 } });
const dynamo = useDynamo(["slack-chain"]);
const sns = useSns();
let slack: FakeSlack;
let restore: () => void = () => undefined;
let logs: string[] = [];

beforeEach(() => {
  slack = fake.slack;
  slack.attempts.length = 0;
  slack.faults.length = 0;
  logs = captureOutput();
});
afterEach(() => restore());

type Handler = (event: unknown, context: Context) => Promise<{ posted: number; dropped: number }>;

async function coldStart(vars: Record<string, string | undefined> = {}): Promise<Handler> {
  restore();
  restore = withEnv({
    SLACK_WEBHOOK_URL: slack.url,
    SLACK_MIN_INTERVAL_MS: "0",
    SLACK_DEADLINE_MARGIN_MS: "0",
    POWERTOOLS_LOG_LEVEL: "INFO",
    POWERTOOLS_METRICS_DISABLED: "true",
    ...vars,
  });
  vi.resetModules();
  return (await import("../../functions/slack.ts")).handler as Handler;
}

const withTime = (ms: number): Context => ({
  ...fakeContext("fleet-auditor-slack"),
  getRemainingTimeInMillis: () => ms,
});
const delivered = (m: DigestMessage | undefined): string => forLambda(m?.message ?? "{}");
const texts = (p: unknown): string => JSON.stringify(p);

/** A real run's digest: the audit over a simulated fleet, published in memory. */
async function auditDigest(): Promise<DigestMessage> {
  const publisher = new MemoryPublisher();
  await runAudit(
    {
      ports: {
        audits: testAudits({
          client: new FleetSource(new Fleet(generateFleet({ size: 300, seed: 3, flagged: 40 }))),
        }),
        store: new MemoryAuditStore(),
        reports: new MemoryReportStore(),
        publisher,
      },
      settings: {
        landscape: "prod-eu",
        links: {
          runtime: "https://dash.example/runtimes/{instanceID}",
          runbook: "https://wiki.example/runbooks/{reason}",
          report: "https://console.example/runs/{runId}",
        },
      },
    },
    { audit: "failing" },
  );
  expect(publisher.published).toHaveLength(1);
  return publisher.published[0] as DigestMessage;
}

describe("functions/slack.ts", () => {
  it("posts a run's digest as Block Kit that Slack accepts: header, summary fields, groups, report button", async () => {
    const digest = await auditDigest();
    const handler = await coldStart();
    expect(await handler(snsEvent([delivered(digest)]), withTime(30_000))).toEqual({ posted: 1, dropped: 0 });
    const [payload] = slack.accepted() as SlackMessage[];
    expect(payload?.blocks[0]).toMatchObject({ type: "header" });
    expect(payload?.blocks[0]?.type === "header" && payload.blocks[0].text.text).toContain(
      "| prod-eu | CRITICAL | failing audit",
    );
    // The title leads with what is wrong: the first incident's state and reason.
    expect(payload?.text).toMatch(/^:red_circle: failed \(err_\w+\) in /);
    expect(payload?.text).toContain("| prod-eu |");
    expect(payload?.blocks[1]).toMatchObject({ type: "section" });
    expect(texts(payload?.blocks[1])).toMatch(/\*Scan\*\\ncomplete: \d+ listed, \d+ flagged/);
    expect(texts(payload)).toContain("https://dash.example/runtimes/");
    expect(payload?.blocks.at(-1)).toMatchObject({
      type: "actions",
      elements: [{ type: "button", text: { text: "Run report" } }],
    });
    expect(logs.join("")).not.toContain(slack.url);
  });

  it("posts a notify test as a message marked [TEST] that Slack accepts, saying that nothing is wrong", async () => {
    const notice = testNotice({
      testId: "t-2",
      topic: "incidents",
      at: ctx.at,
      sender: "alice",
      landscape: "e2e",
    });
    const handler = await coldStart();
    expect(await handler(snsEvent([delivered(notice)], "Incidents"), withTime(30_000))).toEqual({
      posted: 1,
      dropped: 0,
    });
    const [payload] = slack.accepted() as SlackMessage[];
    expect(refusal(payload)).toBeUndefined();
    expect(payload?.text).toBe("[TEST] [e2e] incidents topic: nothing is wrong");
    expect(payload?.blocks[0]).toMatchObject({
      type: "header",
      text: { text: expect.stringContaining("[TEST] [e2e]") },
    });
    expect(texts(payload)).toContain("nothing is wrong.* Sent by notify test (alice, 2026-11-30 06:00 UTC)");
  });

  it("keeps a digest of 3,000 transitions in 60 groups within Slack's limits, the rest counted with the report link", async () => {
    const many: Transition[] = Array.from({ length: 3_000 }, (_, i) =>
      t(i, "firing", { region: `region-${i % 20}`, reason: `err_${i % 3}` }),
    );
    const [m] = renderDigests(ctx, many);
    const handler = await coldStart();
    await handler(snsEvent([delivered(m)]), withTime(30_000));
    const [payload] = slack.accepted() as SlackMessage[];
    expect(payload?.blocks.length).toBeLessThanOrEqual(50);
    expect(texts(payload)).toMatch(/\+\d+ more: <https:\/\/console\.example\/runs\/run-1\|run report>/);
    expect(texts(payload)).toMatch(/…and [\d,]+ more in \d+ groups/);
  });

  it("escapes every text from KEB: no mention, link or markup can be injected", async () => {
    const evil = editedT(t(1), (_, op) => ({
      shootName: "<!channel> & <https://evil.example|click> *bold*",
      operation: { ...op, description: "</a><@U123> `code` &amp;" },
    }));
    const [m] = renderDigests(ctx, [evil]);
    const handler = await coldStart();
    await handler(snsEvent([delivered(m)]), withTime(30_000));
    const [payload] = slack.accepted();
    expect(refusal(payload)).toBeUndefined();
    expect(texts(payload)).toContain("&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;");
    // Only plain_text (the header), which Slack never parses for mentions or links, keeps it as is.
    const markup = (payload as SlackMessage).blocks.filter((b) => b.type !== "header");
    expect(texts(markup)).not.toContain("<!channel>");
    expect((payload as SlackMessage).text).not.toContain("<!channel>");
  });

  it("retries a 429 after its Retry-After and a 500 with backoff, then posts once", async () => {
    const [m] = renderDigests(ctx, [t(1)]);
    slack.faults.push({ status: 429, retryAfter: "1", body: "rate_limited" }, { status: 500, body: "oops" });
    const handler = await coldStart();
    await handler(snsEvent([delivered(m)]), withTime(30_000));
    expect(slack.attempts.map((a) => a.status)).toEqual([429, 500, 200]);
    const [first, second] = slack.attempts;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(slack.accepted()).toHaveLength(1);
  });

  it("posts once when Slack's 2xx answer breaks off before its body ends", async () => {
    const [m] = renderDigests(ctx, [t(1)]);
    slack.faults.push({ status: 200, body: "ok", breakOff: true });
    const handler = await coldStart();
    await expect(handler(snsEvent([delivered(m)]), withTime(30_000))).resolves.toEqual({
      posted: 1,
      dropped: 0,
    });
    expect(slack.attempts.map((a) => a.status)).toEqual([200]);
  });

  it("does not retry a refusal: throws with Slack's error, never the webhook URL", async () => {
    const [m] = renderDigests(ctx, [t(1)]);
    slack.faults.push({ status: 400, body: "invalid_blocks" });
    const handler = await coldStart();
    const err = (await handler(snsEvent([delivered(m)]), withTime(30_000)).catch((e: unknown) => e)) as Error;
    expect(err.message).toBe("the Slack post was refused: HTTP 400 invalid_blocks");
    expect(slack.attempts).toHaveLength(1);
    expect(`${err.message} ${err.stack} ${logs.join("")}`).not.toContain("sEcReTwEbHoOkToKeN42");
    expect(logs.join("")).toContain("Slack post failed");
  });

  it("gives up when a Retry-After would pass the function's remaining time, so that Lambda retries", async () => {
    const [m] = renderDigests(ctx, [t(1)]);
    slack.faults.push({ status: 429, retryAfter: "30", body: "rate_limited" });
    const handler = await coldStart();
    // Gave up at once rather than sleep toward its deadline: far under it, however loaded the machine.
    const started = Date.now();
    await expect(handler(snsEvent([delivered(m)]), withTime(20_000))).rejects.toThrow(
      "the Slack post kept failing: HTTP 429 rate_limited",
    );
    expect(Date.now() - started).toBeLessThan(9_000);
  });

  it("paces posts to one per interval per webhook", async () => {
    const [m] = renderDigests(ctx, [t(1)]);
    const handler = await coldStart({ SLACK_MIN_INTERVAL_MS: "400" });
    await handler(snsEvent([delivered(m), delivered(m)]), withTime(30_000));
    const [a, b] = slack.attempts;
    // Paced from the first answer, so the stand-in sees the interval whatever the network did;
    // 2 ms for whole-millisecond clocks on both sides.
    expect((b?.at ?? 0) - (a?.at ?? 0)).toBeGreaterThanOrEqual(398);
  });

  it("with the audit table, drops an incident message Lambda retries after the next run's was posted, and counts it", async () => {
    const l = new Landscape();
    const [opened] = l.run([failing("o", "eu-1")], 0);
    const [changed] = l.run([failing("o", "eu-1", "err_timeout", "op-2")], 1);
    const handler = await coldStart({
      ...emulatorEnv({ dynamodb: dynamo.db.endpoint }),
      AUDIT_TABLE: "slack-chain",
      POWERTOOLS_LOG_LEVEL: "INFO",
      POWERTOOLS_METRICS_DISABLED: "false",
    });
    // Slack is down for the opening's first delivery; the change goes through.
    slack.faults.push(...Array.from({ length: 10 }, () => ({ status: 503 })));
    // It fails however its short time ends: its retries run out, or (on a loaded machine) the
    // deadline cuts the last one short.
    await expect(handler(snsEvent([delivered(opened)]), withTime(1_200))).rejects.toThrow(
      /kept failing|operation was aborted/,
    );
    slack.faults.length = 0;
    expect(await handler(snsEvent([delivered(changed)]), withTime(30_000))).toEqual({
      posted: 1,
      dropped: 0,
    });
    // Lambda's retry of the opening: older than the change, dropped rather than posted below it.
    expect(await handler(snsEvent([delivered(opened)]), withTime(30_000))).toEqual({ posted: 0, dropped: 1 });
    expect(slack.accepted().map((p) => texts(p).match(/changed|firing/)?.[0])).toEqual(["changed"]);
    const out = logs.join("");
    expect(out).toContain("older than the last message applied under its key: dropped");
    expect(out).toMatch(/"Dropped":\s*1/);
    // Without the table (a local run), messages are posted in the order they arrive.
    const unordered = await coldStart();
    expect(await unordered(snsEvent([delivered(opened)]), withTime(30_000))).toEqual({
      posted: 1,
      dropped: 0,
    });
  });

  it("posts a message that is not a digest (a health notice's default text) as escaped text", async () => {
    const handler = await coldStart();
    await handler(snsEvent(["fleet-auditor [prod-eu] failing audit DEGRADED: <KEB> & co"]), withTime(30_000));
    const [payload] = slack.accepted();
    expect(texts(payload)).toContain("DEGRADED: &lt;KEB&gt; &amp; co");
  });

  it("refuses an event that is not an SNS event, and a bad webhook URL at cold start without echoing it", async () => {
    const handler = await coldStart();
    await expect(handler({ Records: [] }, withTime(30_000))).rejects.toThrow(/invalid input: Records/);
    await expect(coldStart({ SLACK_WEBHOOK_URL: undefined })).rejects.toThrow(
      /SLACK_WEBHOOK_URL: is required/,
    );
    const bad = await coldStart({ SLACK_WEBHOOK_URL: "hooks.slack.com/services/sEcReT" }).catch(
      (e: unknown) => e,
    );
    expect(String(bad)).toMatch(/SLACK_WEBHOOK_URL: expected a Slack incoming webhook URL/);
    expect(String(bad)).not.toContain("sEcReT");
  });

  it("end to end: the audit function publishes, SNS delivers, the Slack function posts what Slack accepts", async () => {
    const drain = await sns.subscriber("slack-chain");
    restore = withEnv({
      KEB_URL: kit.sim.url,
      KEB_TOKEN: "t",
      AUDIT_TABLE: "slack-chain",
      ALERT_TOPIC_ARN: sns.topicArn,
      LANDSCAPE: "e2e",
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "test",
      AWS_SECRET_ACCESS_KEY: "test",
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.db.endpoint,
      AWS_ENDPOINT_URL_SNS: `http://127.0.0.1:${sns.server.port}`,
      POWERTOOLS_METRICS_DISABLED: "true",
    });
    vi.resetModules();
    const audit = (await import("../../functions/audit.ts")).handler as (
      e: unknown,
      c: unknown,
    ) => Promise<unknown>;
    await audit({ audit: "failing" }, fakeContext());
    restore();
    // fauxqs hands SQS the whole JSON document; SNS gives a Lambda subscriber its `default`.
    const delivered = (await drain()).map((d) => forLambda(d.Message));
    expect(delivered).toHaveLength(1);
    const handler = await coldStart();
    await handler(snsEvent(delivered), withTime(30_000));
    const [payload] = slack.accepted() as SlackMessage[];
    expect(payload?.text).toContain("| e2e | CRITICAL | failing audit");
  });
});

describe("functions/slack.ts and a digest from another publisher", () => {
  const EVIL = "<!channel> *bold* _it_ ~strike~ <https://evil.example|click> <@U1>\nRECOVERED";
  const SAFE_LINKS = new Set(["https://console.example/runs/run-1", "https://runbooks.example/x"]);

  /** A digest its schema takes, every text of which is hostile; its links are plain https. */
  function hostileDigest(): Record<string, unknown> {
    const [m] = renderDigests(ctx, [t(1), t(2, "resolved"), t(3, "reminder")]);
    const d = JSON.parse(delivered(m)) as DigestV1;
    return {
      ...d,
      audit: EVIL,
      landscape: EVIL,
      runId: EVIL,
      subject: EVIL,
      repeats: EVIL,
      scan: { ...d.scan, complete: false, incompleteReason: EVIL },
      groups: d.groups.map((g) => ({
        ...g,
        state: EVIL,
        reason: EVIL,
        region: EVIL,
        plans: [{ plan: EVIL, count: 1 }],
      })),
      transitions: d.transitions.map((x) => ({
        ...x,
        state: EVIL,
        reason: EVIL,
        region: EVIL,
        shootName: EVIL,
        instanceID: EVIL,
        ending: EVIL,
        ...(x.operation ? { operation: { ...x.operation, kind: EVIL, state: EVIL, description: EVIL } } : {}),
        links: { runtime: "https://console.example/runs/run-1", runbook: "https://runbooks.example/x" },
      })),
      report: { stored: true, command: EVIL, url: "https://console.example/runs/run-1" },
    };
  }

  /** Every mrkdwn text and the notification text: what Slack parses for mentions, links and formatting. */
  function markup(payload: SlackMessage): string[] {
    const out = [payload.text];
    for (const b of payload.blocks) {
      if (b.type === "section") out.push(b.text?.text ?? "", ...(b.fields ?? []).map((f) => f.text));
      if (b.type === "context") out.push(...b.elements.map((e) => e.text));
    }
    return out;
  }

  it("posts no mention, no link and no formatting from its texts, only its https links", async () => {
    const digest = hostileDigest();
    expect(DigestV1Schema.safeParse(digest).success).toBe(true);
    const handler = await coldStart();
    expect(await handler(snsEvent([JSON.stringify(digest)]), withTime(30_000))).toEqual({
      posted: 1,
      dropped: 0,
    });
    const [payload] = slack.accepted() as SlackMessage[];
    expect(refusal(payload)).toBeUndefined();
    const links = markup(payload as SlackMessage).flatMap((text) => [
      ...text.matchAll(/<([^>|]*)\|?([^>]*)>/g),
    ]);
    expect(links.length, "links to check").toBeGreaterThan(0);
    for (const text of markup(payload as SlackMessage)) {
      expect(text).not.toContain("<!");
      expect(text).not.toContain("<@");
      for (const [, url, label] of text.matchAll(/<([^>|]*)\|?([^>]*)>/g)) {
        expect(SAFE_LINKS.has(url as string), `link ${url}`).toBe(true);
        // A `|` in the label is shown as it is: Slack splits a link at its first one.
        expect(label).not.toContain("<");
      }
      // Outside code spans, where Slack applies formatting, none of the digest's comes through.
      const formatted = text.replace(/`[^`]*`/g, "");
      expect(formatted).not.toMatch(/\*bold\*|_it_|~strike~/);
      for (const line of text.split("\n")) expect(line.trimStart()).not.toMatch(/^RECOVERED/);
    }
    // The plain-text header, which Slack never parses, keeps it as one line.
    const header = (payload as SlackMessage).blocks[0];
    expect(header?.type === "header" && header.text.text).not.toContain("\n");
  });

  it("refuses a digest whose times or links its schema no longer takes, naming each field, and posts nothing", async () => {
    const [m] = renderDigests(ctx, [t(1)]);
    const d = JSON.parse(delivered(m)) as DigestV1;
    const foreign = {
      ...d,
      at: "<!channel>",
      groups: d.groups.map((g) => ({ ...g, since: "yesterday" })),
      transitions: d.transitions.map((x) => ({
        ...x,
        links: { runtime: "https://evil.example/|click here", runbook: "http://wiki.example/x" },
      })),
      report: { ...d.report, url: "https://console.example/runs/<!here>" },
    };
    const handler = await coldStart();
    const err = (await handler(snsEvent([JSON.stringify(foreign)]), withTime(30_000)).catch(
      (e: unknown) => e,
    )) as Error;
    expect(err).toBeInstanceOf(Error);
    for (const field of [
      "Message.at",
      "Message.groups.0.since",
      "Message.transitions.0.links.runtime",
      "Message.transitions.0.links.runbook",
      "Message.report.url",
    ])
      expect(err.message).toContain(field);
    expect(err.message).toContain("fleet-auditor.digest/v1");
    // Never the value it refused.
    expect(err.message).not.toContain("<!");
    expect(err.message).not.toContain("evil.example");
    expect(slack.attempts).toHaveLength(0);
    expect(logs.join("")).toContain("Message.transitions.0.links.runtime");
  });
});

describe("functions/slack.ts behind a proxy", () => {
  // hooks.test resolves nowhere: the function reaches it only through the proxy, which tunnels
  // it to a TLS relay in front of the stand-in. Nothing leaves loopback.
  const certificate = testCertificate("hooks.test");
  let relay: TlsRelay;
  beforeAll(async () => {
    trustInThisProcess(certificate.cert);
    relay = await startTlsRelay(certificate, () => Number(new URL(fake.slack.url).port));
  });
  afterAll(async () => {
    await relay?.close();
  });
  const proxy = useTestProxy({ "hooks.test": { host: "127.0.0.1", port: () => relay.port } });

  it("posts to a webhook outside loopback through HTTPS_PROXY", async () => {
    const [m] = renderDigests(ctx, [t(1)]);
    const seen = proxy.proxy.seen.length;
    const handler = await coldStart({
      SLACK_WEBHOOK_URL: `https://hooks.test${new URL(slack.url).pathname}`,
      HTTPS_PROXY: proxy.proxy.url,
    });
    await expect(handler(snsEvent([delivered(m)]), withTime(30_000))).resolves.toEqual({
      posted: 1,
      dropped: 0,
    });
    expect(slack.accepted()).toHaveLength(1);
    expect(proxy.proxy.seen.slice(seen)).toEqual(["CONNECT hooks.test:443"]);
  });

  it("posts to a loopback webhook directly, whatever the proxy variables say", async () => {
    const [m] = renderDigests(ctx, [t(1)]);
    const seen = proxy.proxy.seen.length;
    const handler = await coldStart({ HTTPS_PROXY: proxy.proxy.url, HTTP_PROXY: proxy.proxy.url });
    await expect(handler(snsEvent([delivered(m)]), withTime(30_000))).resolves.toEqual({
      posted: 1,
      dropped: 0,
    });
    expect(slack.accepted()).toHaveLength(1);
    expect(proxy.proxy.seen.slice(seen)).toEqual([]);
  });
});
