import type { DigestMessage } from "@fleet-auditor/audit";
import { testNotice } from "@fleet-auditor/render";
import type { Context } from "aws-lambda";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { everythingStored } from "../helpers/everything-stored.ts";
import { useFakeSlack } from "../helpers/fake-slack.ts";
import { useFakeSlackApi } from "../helpers/fake-slack-api.ts";
import { failing, Landscape } from "../helpers/incident-landscape.ts";
import { emulatorEnv, fakeContext, withEnv } from "../helpers/lambda.ts";
import { captureOutput } from "../helpers/output.ts";
import { forLambda, snsEvent } from "../helpers/sns-event.ts";

// The Slack function with a bot token: SNS delivers each incident message on its own, and the
// function keeps the incident in one thread (its parent's ts in the audit table, on dynalite),
// against a stand-in of Slack's Web API that keeps threads.

const fake = useFakeSlackApi();
const webhook = useFakeSlack();
const dynamo = useDynamo(["slack-bot"]);
let restore: () => void = () => undefined;
let logs: string[] = [];

beforeEach(() => {
  fake.api.reset();
  webhook.slack.attempts.length = 0;
  logs = captureOutput();
});
afterEach(() => restore());

type Handler = (event: unknown, context: Context) => Promise<{ posted: number; dropped: number }>;

async function coldStart(vars: Record<string, string | undefined> = {}): Promise<Handler> {
  restore();
  restore = withEnv({
    ...emulatorEnv({ dynamodb: dynamo.db.endpoint }),
    SLACK_WEBHOOK_URL: undefined,
    SLACK_BOT_TOKEN: fake.api.token,
    SLACK_CHANNEL: fake.api.channel,
    SLACK_API_URL: fake.api.apiUrl,
    AUDIT_TABLE: "slack-bot",
    SLACK_MIN_INTERVAL_MS: "0",
    SLACK_DEADLINE_MARGIN_MS: "0",
    POWERTOOLS_LOG_LEVEL: "INFO",
    ...vars,
  });
  vi.resetModules();
  return (await import("../../functions/slack.ts")).handler as Handler;
}

const context = (): Context => ({
  ...fakeContext("fleet-auditor-slack"),
  getRemainingTimeInMillis: () => 30_000,
});
const event = (m: DigestMessage | undefined) =>
  snsEvent([forLambda(m?.message ?? "{}")], "fleet-auditor-incidents");

describe("functions/slack.ts with a bot token", () => {
  it("keeps an incident in one thread over separate deliveries, another in its own, and tells the channel of its end", async () => {
    const l = new Landscape();
    const opened = l.run([failing("a", "eu-1"), failing("x", "us-1")], 0);
    const changed = l.run([failing("a", "eu-1", "err_timeout", "op-2"), failing("x", "us-1")], 1);
    const ended = l.run([failing("x", "us-1")], 2);
    // Each delivery a cold start of its own, as separate Lambda instances would take them.
    for (const m of [...opened, ...changed, ...ended]) {
      const handler = await coldStart();
      expect(await handler(event(m), context())).toEqual({ posted: 1, dropped: 0 });
    }
    // Two parents (one per incident, whichever came first); the change and the end under one.
    const threads = fake.api.topLevel().map((p) => fake.api.replies(p.ts).map((r) => r.broadcast));
    expect(threads.sort((a, b) => a.length - b.length)).toEqual([[], [false, true]]);
    expect(webhook.slack.attempts).toEqual([]);
    expect(logs.join("")).not.toContain("SeCrEtBoTtOkEn");
  });

  it("posts a notify test on its own, marked [TEST], and keeps no thread for it", async () => {
    const handler = await coldStart();
    const notice = testNotice({
      testId: "t-3",
      topic: "incidents",
      at: new Date().toISOString(),
      sender: "alice",
      landscape: "e2e",
    });
    const before = await everythingStored(dynamo.db.client, ["slack-bot"]);
    expect(await handler(event(notice), context())).toEqual({ posted: 1, dropped: 0 });
    expect(fake.api.messages).toEqual([
      expect.objectContaining({ text: "[TEST] [e2e] incidents topic: nothing is wrong" }),
    ]);
    expect(fake.api.messages[0]?.threadTs).toBeUndefined();
    expect(await everythingStored(dynamo.db.client, ["slack-bot"])).toBe(before);
  });

  it("posts nothing in a thread below its incident's end that Lambda retries from before it", async () => {
    const l = new Landscape();
    const [opened] = l.run([failing("late", "ap-9")], 0);
    const [changed] = l.run([failing("late", "ap-9", "err_timeout", "op-2")], 1);
    const [ended] = l.run([], 2);
    const handler = await coldStart();
    await handler(event(opened), context());
    // Slack is down for the change's first delivery; the incident's end, an hour later, goes through.
    fake.api.faults.push(...Array.from({ length: 10 }, () => ({ status: 503 })));
    const short = { ...context(), getRemainingTimeInMillis: () => 1_200 };
    // It fails however its short time ends: its retries run out, or the deadline cuts one short.
    await expect(handler(event(changed), short)).rejects.toThrow(/kept failing|operation was aborted/);
    fake.api.faults.length = 0;
    expect(await handler(event(ended), context())).toEqual({ posted: 1, dropped: 0 });
    expect(await handler(event(changed), context())).toEqual({ posted: 0, dropped: 1 });
    const [parent, ...others] = fake.api.topLevel();
    expect(others).toEqual([]);
    // The end is the thread's last word: the late change is not posted under it.
    expect(fake.api.replies(parent?.ts ?? "").map((r) => r.broadcast)).toEqual([true]);
    expect(logs.join("")).toContain("older than the last message applied under its key: dropped");
  });

  it("posts with the bot when a webhook is set too, and says so at cold start", async () => {
    const handler = await coldStart({ SLACK_WEBHOOK_URL: webhook.slack.url });
    const [m] = new Landscape().run([failing("b", "eu-2")], 0);
    await handler(event(m), context());
    expect(fake.api.messages).toHaveLength(1);
    expect(webhook.slack.attempts).toEqual([]);
    expect(logs.join("")).toContain("SLACK_BOT_TOKEN and SLACK_WEBHOOK_URL are both set: the bot posts");
  });

  it("fails on Slack's refusal with Slack's error, never the token, so that Lambda retries", async () => {
    const handler = await coldStart({ SLACK_CHANNEL: fake.api.otherChannel });
    const [m] = new Landscape().run([failing("c", "eu-3")], 0);
    await expect(handler(event(m), context())).rejects.toThrow("the Slack post was refused: not_in_channel");
    expect(logs.join("")).toContain("not_in_channel");
    expect(logs.join("")).not.toContain("SeCrEtBoTtOkEn");
  });

  it("refuses at cold start a bot without its channel or table, or an API over plain http, naming the variable, never the token", async () => {
    const refused = async (vars: Record<string, string | undefined>): Promise<string> =>
      String(await coldStart(vars).catch((e: unknown) => e));
    expect(await refused({ SLACK_CHANNEL: undefined })).toMatch(
      /SLACK_CHANNEL: is required with SLACK_BOT_TOKEN/,
    );
    expect(await refused({ AUDIT_TABLE: undefined })).toMatch(
      /AUDIT_TABLE: is required with SLACK_BOT_TOKEN/,
    );
    expect(await refused({ SLACK_API_URL: "http://slack.example/api" })).toMatch(
      /SLACK_API_URL: plain http is allowed only to a loopback host/,
    );
    const pasted = await refused({ SLACK_BOT_TOKEN: `${fake.api.token}\n` });
    expect(pasted).toMatch(/SLACK_BOT_TOKEN: has a line break/);
    expect(pasted).not.toContain("SeCrEtBoTtOkEn");
    expect(await refused({ SLACK_BOT_TOKEN: undefined })).toMatch(
      /SLACK_WEBHOOK_URL: is required: set SLACK_WEBHOOK_URL \(an incoming webhook\), or SLACK_BOT_TOKEN/,
    );
  });
});
