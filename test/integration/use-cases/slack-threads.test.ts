import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DigestMessage } from "@fleet-auditor/audit";
import { createHttpAgent } from "@fleet-auditor/http/agent";
import { SlackBot, SlackWebhook } from "@fleet-auditor/notify";
import { renderDigests } from "@fleet-auditor/render";
import { DynamoSlackThreads, documentClient } from "@fleet-auditor/store";
import {
  type DeliveredMessage,
  deliverToSlack,
  type RunLogger,
  type SlackThreads,
} from "@fleet-auditor/use-cases";
import { beforeEach, describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";
import { useFakeSlack } from "../../helpers/fake-slack.ts";
import { useFakeSlackApi } from "../../helpers/fake-slack-api.ts";
import { gate, useFaultProxy } from "../../helpers/fault-proxy.ts";
import { failing, Landscape } from "../../helpers/incident-landscape.ts";
import { forLambda } from "../../helpers/sns-event.ts";
import { ctx, t } from "../../helpers/transitions.ts";

// Slack threads without Chatbot: each incident message SNS delivers goes to its incident's
// thread (the parent's ts kept in the audit table), against a stand-in of Slack's Web API that
// keeps threads, and dynalite behind a proxy that injects DynamoDB's faults.

const fake = useFakeSlackApi();
const webhook = useFakeSlack();
const dynamo = useDynamo(["slack-threads"]);
const ddb = useFaultProxy(() => dynamo.db.endpoint);
const dispatcher = createHttpAgent();
let logs: string[];
const log: RunLogger = {
  info: (m, ...extra) => void logs.push(`${m} ${JSON.stringify(extra)}`),
  warn: (m, ...extra) => void logs.push(`${m} ${JSON.stringify(extra)}`),
};

beforeEach(() => {
  fake.api.reset();
  ddb.proxy.clear();
  logs = [];
});

let table = 0;
/** The bot and a thread store of its own (a fresh set of threads), through the fault proxy. */
function botDeps(): {
  poster: SlackBot;
  threads: DynamoSlackThreads;
  log: RunLogger;
} {
  const client = documentClient(
    new DynamoDBClient({
      endpoint: ddb.proxy.url,
      region: "local",
      credentials: { accessKeyId: "l", secretAccessKey: "l" },
    }),
  );
  return {
    poster: new SlackBot({
      token: fake.api.token,
      channel: fake.api.channel,
      apiUrl: fake.api.apiUrl,
      dispatcher,
      minIntervalMs: 0,
    }),
    // A channel of its own per test: the same stand-in channel, threads kept apart.
    threads: new DynamoSlackThreads({ client, tableName: "slack-threads", channel: `C${++table}` }),
    log,
  };
}

/** One SNS delivery of one message, as the Slack function gets it. */
const delivery = (m: DigestMessage | undefined): DeliveredMessage[] => [
  { id: crypto.randomUUID(), text: forLambda(m?.message ?? "{}") },
];
const soon = (): number => Date.now() + 10_000;
/** What a title says happened: what follows the incident's values. */
const kindsOf = (text: string): string => text.replace(/^:\w+: /, "").replace(/^.*?: /, "");

describe("Slack threads through the bot", () => {
  it("puts an incident's firing, change, reminder and end in one thread, another incident in its own, the rest on their own", async () => {
    const deps = botDeps();
    const l = new Landscape();
    const [eu, us] = l.run([failing("a", "eu-1"), failing("b", "eu-1"), failing("x", "us-1")], 0);
    const changed = l.run(
      [failing("a", "eu-1", "err_timeout", "op-2"), failing("b", "eu-1"), failing("x", "us-1")],
      1,
    );
    const reminders = l.run(
      [failing("a", "eu-1", "err_timeout", "op-2"), failing("b", "eu-1"), failing("x", "us-1")],
      25,
    );
    const [end] = l.run([failing("x", "us-1")], 26);
    // Three new incidents past a cap of one: one of its own, the others in a roll-up.
    const storm = l.run([failing("x", "us-1"), failing("s1", "ap-1"), failing("s2", "ap-2")], 27, 1);
    expect(storm).toHaveLength(2);
    // Each message is a delivery of its own, as SNS sends them: one invocation each.
    for (const m of [eu, us, ...changed, ...reminders, end, ...storm])
      await deliverToSlack(deps, delivery(m), soon());
    await deliverToSlack(
      deps,
      [{ id: "n-1", text: "fleet-auditor [prod-eu] failing audit DEGRADED" }],
      soon(),
    );
    await deliverToSlack(deps, delivery(renderDigests(ctx, [t(1)])[0]), soon());

    const [euParent, usParent, stormParent, rollUp, health, digest, ...rest] = fake.api.topLevel();
    expect(rest).toEqual([]);
    expect(kindsOf(euParent?.text ?? "")).toMatch(/^2 new runtimes/);
    expect(fake.api.replies(euParent?.ts ?? "").map((r) => [kindsOf(r.text), r.broadcast])).toEqual([
      [expect.stringMatching(/^changed, 2 failing in all/), false],
      [expect.stringMatching(/^2 still failing/), false],
      [expect.stringMatching(/^resolved, lasted 26h, 2 recovered/), true],
    ]);
    expect(fake.api.replies(usParent?.ts ?? "")).toHaveLength(1);
    expect(fake.api.replies(stormParent?.ts ?? "")).toEqual([]);
    expect(rollUp?.text).toContain("shoot c-s2 in ap-2: new");
    expect(health?.text).toContain("DEGRADED");
    expect(digest?.text).toContain("| prod-eu |");
    expect(
      logs
        .filter((line) => line.startsWith("posted to Slack"))
        .map((line) => /"placement":"(\w+)"/.exec(line)?.[1]),
      // The roll-up starts a thread of its own too: the news of the incidents it rolled up follows it.
    ).toEqual(["parent", "parent", "reply", "reply", "reply", "reply", "parent", "parent", "alone", "alone"]);
  });

  it("through an incoming webhook, posts each message on its own and looks up no thread", async () => {
    const l = new Landscape();
    const [opened] = l.run([failing("a", "eu-1")], 0);
    const [end] = l.run([], 1);
    const refuse = (): never => {
      throw new Error("a webhook cannot thread: no thread is looked up");
    };
    const threads: SlackThreads = { parentOf: refuse, keepParent: refuse };
    const poster = new SlackWebhook({ url: webhook.slack.url, dispatcher, minIntervalMs: 0 });
    webhook.slack.attempts.length = 0;
    for (const m of [opened, end]) await deliverToSlack({ poster, threads, log }, delivery(m), soon());
    expect(webhook.slack.accepted()).toHaveLength(2);
  });

  it("fails a delivery whose parent's ts was not kept: its retry starts a second parent, which the incident's news then follows", async () => {
    const deps = botDeps();
    const l = new Landscape();
    const [opened] = l.run([failing("a", "eu-1")], 0);
    const [changed] = l.run([failing("a", "eu-1", "err_timeout", "op-2")], 1);
    ddb.proxy.add({
      operation: "PutItem",
      times: 1,
      action: { kind: "error", status: 400, code: "AccessDeniedException", message: "not authorized" },
    });
    const first = delivery(opened);
    await expect(deliverToSlack(deps, first, soon())).rejects.toThrow(/not authorized/);
    const [orphan] = fake.api.topLevel();
    expect(logs.join("\n")).toContain(`"ts":"${orphan?.ts}"`);
    expect(logs.join("\n")).toMatch(/its retry posts the message again as a new parent/);
    // Lambda's retry of the same event.
    await deliverToSlack(deps, first, soon());
    await deliverToSlack(deps, delivery(changed), soon());
    const [again, second, ...more] = fake.api.topLevel();
    expect(again?.ts).toBe(orphan?.ts);
    expect(more).toEqual([]);
    expect(second?.text).toBe(orphan?.text);
    expect(fake.api.replies(orphan?.ts ?? "")).toEqual([]);
    expect(fake.api.replies(second?.ts ?? "")).toHaveLength(1);
  });

  it("leaves one thread when two deliveries race to start it: the first parent kept stays the thread", async () => {
    const deps = botDeps();
    const l = new Landscape();
    const [opened] = l.run([failing("a", "eu-1")], 0);
    const [changed] = l.run([failing("a", "eu-1", "err_timeout", "op-2")], 1);
    // Both lookups find nothing before either parent is kept.
    const [g1, g2] = [gate(), gate()];
    ddb.proxy.add(
      { operation: "GetItem", times: 1, action: g1.action },
      { operation: "GetItem", times: 1, action: g2.action },
    );
    const racing = Promise.all([
      deliverToSlack(deps, delivery(opened), soon()),
      deliverToSlack(deps, delivery(opened), soon()),
    ]);
    await Promise.all([g1.held, g2.held]);
    g1.release();
    g2.release();
    await racing;
    expect(fake.api.topLevel()).toHaveLength(2);
    expect(logs.join("\n")).toContain("another delivery started this incident's thread first");
    await deliverToSlack(deps, delivery(changed), soon());
    const parent = await deps.threads.parentOf(JSON.parse(forLambda(opened?.message ?? "{}")).incident.key);
    expect(fake.api.replies(parent ?? "")).toHaveLength(1);
    expect(fake.api.messages.filter((m) => m.threadTs)).toHaveLength(1);
  });

  it("puts the incident's buttons on a firing incident's messages only with interactivity, and never through a webhook", async () => {
    const l = new Landscape();
    const [opened] = l.run([failing("btn", "eu-7")], 0);
    const [ended] = l.run([], 1);
    const buttons = (blocks: unknown[] | undefined): number =>
      (blocks ?? []).filter((b) => (b as { block_id?: string }).block_id === "fleet-auditor.incident").length;
    await deliverToSlack(
      { ...botDeps(), incidentActions: true },
      [...delivery(opened), ...delivery(ended)],
      soon(),
    );
    expect(fake.api.messages.map((m) => buttons(m.blocks))).toEqual([1, 0]);
    fake.api.reset();
    await deliverToSlack(botDeps(), delivery(opened), soon());
    expect(fake.api.messages.map((m) => buttons(m.blocks))).toEqual([0]);
    webhook.slack.attempts.length = 0;
    const hook = new SlackWebhook({ url: webhook.slack.url, dispatcher, minIntervalMs: 0 });
    await deliverToSlack({ poster: hook, incidentActions: true }, delivery(opened), soon());
    expect(webhook.slack.accepted().map((p) => buttons((p as { blocks: unknown[] }).blocks))).toEqual([0]);
  });
});
