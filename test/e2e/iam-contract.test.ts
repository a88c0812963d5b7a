import { applicationTraffic } from "@fleet-auditor/keb-sim";
import { ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { useFakeSlackApi } from "../helpers/fake-slack-api.ts";
import { useFaultProxy } from "../helpers/fault-proxy.ts";
import { failing, Landscape } from "../helpers/incident-landscape.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, recentHour, withEnv } from "../helpers/lambda.ts";
import { useSns } from "../helpers/sns.ts";
import { forLambda, snsEvent } from "../helpers/sns-event.ts";
import { sqsEvent } from "../helpers/sqs-event.ts";
import { type Declared, recordSstConfig } from "../helpers/sst-stand-ins.ts";

// The IAM contract: what each function sends to AWS, recorded on the wire by a proxy in
// front of DynamoDB and SNS while it runs every path it has, must be exactly what sst.config.ts
// grants it: nothing missing (it would fail on AWS), nothing unused (least privilege). The
// failure destination's sqs:SendMessage is Lambda's own send, not the code's.

const kit = useKebSimulator({ fleet: { size: 150, seed: 91, flagged: 15 } });
const dynamo = useDynamo(["iam-audit"]);
const sns = useSns();
const ddb = useFaultProxy(() => dynamo.db.endpoint);
const snsProxy = useFaultProxy(() => `http://127.0.0.1:${sns.server.port}`);
const slackApi = useFakeSlackApi();
let criticalArn: string;
let incidentsArn: string;
let restore: () => void = () => undefined;

beforeAll(async () => {
  criticalArn = await sns.topic("iam-critical");
  incidentsArn = await sns.topic("iam-incidents");
  await ensureTable(dynamo.db.client, statusTableDefinition("iam-status"));
});
afterEach(() => restore());

const aws = () => ({
  ...emulatorEnv({ dynamodb: ddb.proxy.url, sns: snsProxy.proxy.url }),
});

type Handler = (event: unknown, context: unknown) => Promise<unknown>;
async function handlerOf(name: string, vars: Record<string, string>): Promise<Handler> {
  restore();
  restore = withEnv({ ...aws(), ...vars });
  vi.resetModules();
  return (await import(`../../functions/${name}.ts`)).handler as Handler;
}

/** The IAM actions of what went through the proxies since `from`. */
function actionsSince(from: { ddb: number; sns: number }): string[] {
  const dynamoOps = ddb.proxy.seen.slice(from.ddb).map((op) => `dynamodb:${op}`);
  // PublishBatch is authorized by sns:Publish.
  const snsOps = snsProxy.proxy.seen
    .slice(from.sns)
    .map((op) => `sns:${op === "PublishBatch" ? "Publish" : op}`);
  return [...new Set([...dynamoOps, ...snsOps])].sort();
}
const mark = () => ({ ddb: ddb.proxy.seen.length, sns: snsProxy.proxy.seen.length });

/** The partition key of a DynamoDB GetItem or PutItem request body. */
function partitionKeyOf(body: string): string {
  const request = JSON.parse(body) as { Key?: { pk?: { S?: string } }; Item?: { pk?: { S?: string } } };
  return request.Key?.pk?.S ?? request.Item?.pk?.S ?? "(none)";
}

/** The `dynamodb:LeadingKeys` patterns a function's grants allow, as regular expressions. */
function leadingKeys(f: Declared): RegExp[] {
  const permissions = (f.args.permissions ?? []) as Array<{
    conditions?: Array<{ test: string; variable: string; values: string[] }>;
  }>;
  return permissions
    .flatMap((p) => p.conditions ?? [])
    .filter((c) => c.variable === "dynamodb:LeadingKeys" && c.test === "ForAllValues:StringLike")
    .flatMap((c) => c.values)
    .map((v) => new RegExp(`^${v.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`));
}

/** The actions sst.config.ts grants a function, without its failure destination's. */
function granted(f: Declared): string[] {
  const permissions = (f.args.permissions ?? []) as Array<{ actions: string[] }>;
  return [...new Set(permissions.flatMap((p) => p.actions))].filter((a) => a !== "sqs:SendMessage").sort();
}

describe("the IAM contract", () => {
  it("each function sends exactly the actions sst.config.ts grants it", async () => {
    const config = await recordSstConfig("dev", {
      SST_SECRET_SlackWebhookUrl: "https://hooks.slack.com/x",
      SST_SECRET_PagerDutyRoutingKey: "0123456789abcdef0123456789abcdef",
    });
    const fn = (name: string) => config.named("sst.aws.Function", name);
    const at = (k: number) => recentHour(k);

    // The audit function: scheduled runs (digest and per-runtime), a duplicate, a dry run, a show.
    const auditVars = {
      KEB_URL: kit.sim.url,
      KEB_TOKEN: "t",
      AUDIT_TABLE: "iam-audit",
      ALERT_TOPIC_ARN: sns.topicArn,
      CRITICAL_TOPIC_ARN: criticalArn,
      INCIDENT_TOPIC_ARN: incidentsArn,
    };
    const before = mark();
    let audit = await handlerOf("audit", auditVars);
    const first = (await audit({ audit: "failing", scheduledTime: at(0) }, fakeContext())) as {
      runId: string;
    };
    await audit({ audit: "failing", scheduledTime: at(0) }, fakeContext());
    await audit({ audit: "expired", dryRun: true }, fakeContext());
    await audit({ show: first.runId }, fakeContext());
    kit.sim.fleet.mutate({ fail: 2, recover: 2 });
    audit = await handlerOf("audit", { ...auditVars, NOTIFY_MODE: "per-runtime" });
    await audit({ audit: "failing", scheduledTime: at(1) }, fakeContext());
    expect(snsProxy.proxy.seen.slice(before.sns)).toContain("PublishBatch");
    expect(actionsSince(before)).toEqual(granted(fn("Audit")));

    // The applications function: applied, stale and quarantined messages.
    const beforeApps = mark();
    const apps = await handlerOf("applications", { STATUS_TABLE: "iam-status" });
    const traffic = applicationTraffic({ applications: 4, seed: 3, rejectShare: 0.5 });
    await apps(
      sqsEvent([...traffic, traffic[0] as string, "not json"]),
      fakeContext("fleet-auditor-applications"),
    );
    expect(actionsSince(beforeApps)).toEqual(granted(fn("ApplicationsSubscriber")));

    // The query function: by node, by a watched status (byWatch, rows then read whole), by a
    // status in no index and neither (a bounded scan), the quarantine.
    const beforeQuery = mark();
    const query = await handlerOf("application-status", { STATUS_TABLE: "iam-status" });
    const answers: unknown[][] = [];
    for (const q of [
      { node: "node-0" },
      { status: "Rejected" },
      { status: "Approved" },
      {},
      { quarantine: true },
    ]) {
      answers.push((await query(q, fakeContext("fleet-auditor-application-status"))) as unknown[]);
    }
    expect(answers[1]?.length, "a Rejected row, so that its whole row is read").toBeGreaterThan(0);
    expect(actionsSince(beforeQuery)).toEqual(granted(fn("ApplicationStatusQuery")));
    const grants = fn("ApplicationStatusQuery").args.permissions as Array<{
      actions: string[];
      resources: string[];
    }>;
    // Query on the indexes only; the table itself only for the bounded scan and reads by key.
    for (const grant of grants) {
      const onIndexes = grant.resources.every((r) => r.endsWith("/index/*"));
      expect(onIndexes, grant.actions.join()).toBe(grant.actions.every((a) => a === "dynamodb:Query"));
    }

    // The applications audit function: a run that tells (the quarantined body above), the same
    // scheduled time again, a dry run and a show.
    const beforeEdge = mark();
    const edge = await handlerOf("applications-audit", {
      AUDIT_TABLE: "iam-audit",
      ALERT_TOPIC_ARN: sns.topicArn,
      CRITICAL_TOPIC_ARN: criticalArn,
      STATUS_TABLE: "iam-status",
    });
    const edgeRun = (await edge({ audit: "applications", scheduledTime: at(0) }, fakeContext())) as {
      runId: string;
      transitions: unknown[];
    };
    expect(edgeRun.transitions.length).toBeGreaterThan(0);
    await edge({ audit: "applications", scheduledTime: at(0) }, fakeContext());
    await edge({ audit: "applications", dryRun: true }, fakeContext());
    await edge({ show: edgeRun.runId }, fakeContext());
    expect(actionsSince(beforeEdge)).toEqual(granted(fn("ApplicationsAudit")));

    // The Slack function with a webhook sends nothing to AWS.
    expect(granted(fn("Slack"))).toEqual([]);
    // Nor does the pager: PagerDuty is reached over HTTPS with its routing key.
    expect(granted(fn("Pager"))).toEqual([]);

    // With a bot: an incident's first message keeps its thread parent, its end looks it up; every
    // item it reads or writes is one its dynamodb:LeadingKeys condition allows.
    const botConfig = await recordSstConfig("dev", {
      SST_SECRET_SlackBotToken: "xoxb-iam",
      FLEET_AUDITOR_SLACK_CHANNEL: slackApi.api.channel,
    });
    const bot = botConfig.named("sst.aws.Function", "Slack");
    const beforeSlack = mark();
    const slack = await handlerOf("slack", {
      SLACK_BOT_TOKEN: slackApi.api.token,
      SLACK_CHANNEL: slackApi.api.channel,
      SLACK_API_URL: slackApi.api.apiUrl,
      AUDIT_TABLE: "iam-audit",
      SLACK_MIN_INTERVAL_MS: "0",
    });
    const l = new Landscape();
    for (const m of [...l.run([failing("a", "eu-1")], 0), ...l.run([], 1)])
      await slack(snsEvent([forLambda(m.message)]), fakeContext("fleet-auditor-slack"));
    expect(slackApi.api.messages.map((m) => m.threadTs === undefined)).toEqual([true, false]);
    expect(actionsSince(beforeSlack)).toEqual(granted(bot));
    const patterns = leadingKeys(bot);
    expect(patterns).toHaveLength(1);
    const keys = ddb.proxy.requests.slice(beforeSlack.ddb).map((r) => partitionKeyOf(r.body));
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys)
      expect(
        patterns.some((p) => p.test(key)),
        key,
      ).toBe(true);
  });
});
