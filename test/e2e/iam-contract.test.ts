import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import { DynamoIncidentHistory, ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import {
  PAGERDUTY_ROUTING_KEY,
  PAGERDUTY_SERVICE_ID,
  PAGERDUTY_WEBHOOK_SECRET,
  pagerDutyDelivery,
  useFakePagerDuty,
} from "../helpers/fake-pagerduty.ts";
import { useFakeSecretsManager } from "../helpers/fake-secrets-manager.ts";
import { useFakeSlack } from "../helpers/fake-slack.ts";
import { useFakeSlackApi } from "../helpers/fake-slack-api.ts";
import { useFaultProxy } from "../helpers/fault-proxy.ts";
import { functionUrlEvent } from "../helpers/function-url-event.ts";
import { failing, Landscape } from "../helpers/incident-landscape.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, recentHour, withEnv } from "../helpers/lambda.ts";
import { incidentText } from "../helpers/pager-messages.ts";
import {
  blockActions,
  CHANNEL,
  SIGNING_SECRET,
  signedClick,
  functionUrlEvent as slackUrlEvent,
  TEAM,
} from "../helpers/slack-clicks.ts";
import { useSns } from "../helpers/sns.ts";
import { forLambda, snsEvent } from "../helpers/sns-event.ts";
import { sqsEvent } from "../helpers/sqs-event.ts";
import { type Declared, recordSstConfig } from "../helpers/sst-stand-ins.ts";

// The IAM contract: what each function sends to AWS, recorded on the wire by a proxy in
// front of DynamoDB and SNS (and by a Secrets Manager stand-in) while it runs every path it has,
// must be exactly what sst.config.ts
// grants it, action by resource: each request's action on the ARN it acts on (a table, an index,
// a topic) must be allowed by a grant (nothing missing: it would fail on AWS), and each grant's
// action on each of its resources used (least privilege). Lambda's own send to a function's
// on-failure destination is part of the contract: sqs:SendMessage on that queue, and on no other.

const kit = useKebSimulator({
  fleet: { size: 150, seed: 91, flagged: 15 },
  auth: {
    clients: [
      { id: "iam-auditor", secret: "iam-client-secret", groups: ["runtimeViewer"] },
      { id: "iam-kcp" },
    ],
    users: [{ username: "iam-user", password: "iam-password", groups: ["runtimeViewer"] }],
  },
});
const secrets = useFakeSecretsManager();
const dynamo = useDynamo(["iam-audit"]);
const sns = useSns();
const ddb = useFaultProxy(() => dynamo.db.endpoint);
const snsProxy = useFaultProxy(() => `http://127.0.0.1:${sns.server.port}`);
const slackApi = useFakeSlackApi();
const webhook = useFakeSlack();
const pagerDuty = useFakePagerDuty();
let criticalArn: string;
let incidentsArn: string;
let restore: () => void = () => undefined;

beforeAll(async () => {
  criticalArn = await sns.topic("iam-critical");
  incidentsArn = await sns.topic("iam-incidents");
  for (const [name, declared] of [
    ["iam-audit", "AuditTable"],
    ["iam-status", "ApplicationStatus"],
    [sns.topicArn, "Alerts"],
    [criticalArn, "Critical"],
    [incidentsArn, "Incidents"],
  ] as const)
    declaredAs.set(name, declared);
  await ensureTable(dynamo.db.client, statusTableDefinition("iam-status"));
});
afterEach(() => restore());

const aws = () => ({
  ...emulatorEnv({ dynamodb: ddb.proxy.url, sns: snsProxy.proxy.url }),
  AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.sm.url,
});

type Handler = (event: unknown, context: unknown) => Promise<unknown>;
async function handlerOf(name: string, vars: Record<string, string>): Promise<Handler> {
  restore();
  restore = withEnv({ ...aws(), ...vars });
  vi.resetModules();
  return (await import(`../../functions/${name}.ts`)).handler as Handler;
}

/** The test's tables and topics, by the names sst.config.ts gives them (filled in beforeAll). */
const declaredAs = new Map<string, string>();
const arnOf = (name: string): string =>
  name.startsWith("arn:aws:sns:")
    ? `arn:aws:sns:eu-central-1:123456789012:fleet-auditor-dev-${declaredAs.get(name)}`
    : `arn:aws:dynamodb:eu-central-1:123456789012:table/fleet-auditor-dev-${declaredAs.get(name)}`;

/** An action on a resource: `dynamodb:Query on arn:…:table/T/index/byNode`. */
type Pair = string;

/** The (action, resource ARN) of every request that went through the proxies since `from`. */
function requestsSince(from: { ddb: number; sns: number; sm: number }): Pair[] {
  const pairs = ddb.proxy.requests.slice(from.ddb).flatMap(({ operation, body }) => {
    const request = JSON.parse(body) as {
      TableName?: string;
      IndexName?: string;
      RequestItems?: object;
      TransactItems?: Array<Record<string, { TableName: string }>>;
    };
    // A transaction is authorized item by item, by the action each stands for (PutItem for Put…).
    if (request.TransactItems) {
      return request.TransactItems.flatMap((item) =>
        Object.entries(item).map(
          ([kind, { TableName }]) =>
            `dynamodb:${kind === "ConditionCheck" ? "ConditionCheckItem" : `${kind}Item`} on ${arnOf(TableName)}`,
        ),
      );
    }
    const tables = request.TableName ? [request.TableName] : Object.keys(request.RequestItems ?? {});
    return tables.map((t) => {
      const index = request.IndexName ? `/index/${request.IndexName}` : "";
      return `dynamodb:${operation} on ${arnOf(t)}${index}`;
    });
  });
  for (const { operation, body } of snsProxy.proxy.requests.slice(from.sns)) {
    let topic: string | null;
    try {
      topic = (JSON.parse(body) as { TopicArn?: string }).TopicArn ?? null;
    } catch {
      topic = new URLSearchParams(body).get("TopicArn");
    }
    // PublishBatch is authorized by sns:Publish.
    pairs.push(`sns:${operation === "PublishBatch" ? "Publish" : operation} on ${arnOf(String(topic))}`);
  }
  // The functions are given the ARNs sst.config.ts declares, so a SecretId is the resource.
  for (const { operation, secretId } of secrets.sm.requests.slice(from.sm))
    pairs.push(`secretsmanager:${operation} on ${secretId}`);
  return pairs;
}

/** What sst.config.ts grants a function: each action on each resource, as written (wildcards kept). */
function granted(f: Declared): Pair[] {
  const permissions = (f.args.permissions ?? []) as Array<{ actions: string[]; resources: string[] }>;
  return [
    ...new Set(permissions.flatMap((p) => p.actions.flatMap((a) => p.resources.map((r) => `${a} on ${r}`)))),
  ].sort();
}

/** Whether a grant (`action on pattern`, IAM's `*` wildcard) allows a request. */
const allows = (grant: Pair, request: Pair): boolean =>
  new RegExp(`^${grant.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`).test(request);

/**
 * What the function needs, in the grants' terms: for each request, the grant that allows it (or
 * the request itself, marked, when none does); plus Lambda's sqs:SendMessage on the function's
 * on-failure destination. Equal to `granted(f)` exactly when nothing is missing and nothing unused.
 */
function needed(f: Declared, requests: Pair[]): Pair[] {
  const grants = granted(f);
  const destination = (
    f.args.transform as {
      eventInvokeConfig?: { destinationConfig?: { onFailure?: { destination?: string } } };
    }
  )?.eventInvokeConfig?.destinationConfig?.onFailure?.destination;
  const needs = requests.map((r) => grants.find((g) => allows(g, r)) ?? `${r} (not granted)`);
  if (destination) needs.push(`sqs:SendMessage on ${destination}`);
  return [...new Set(needs)].sort();
}
const mark = () => ({
  ddb: ddb.proxy.seen.length,
  sns: snsProxy.proxy.seen.length,
  sm: secrets.sm.requests.length,
});
/** The Secrets Manager ARN a function is given in `variable`, with a value set in the stand-in. */
function secretGiven(f: Declared, variable: string, value: string): string {
  const arn = String((f.args.environment as Record<string, string>)[variable]);
  secrets.sm.put(arn, value);
  return arn;
}

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

describe("the IAM contract", () => {
  // First: no request another test started can still be on the wire.
  it("the PagerDuty webhook function reads its own secret and nothing else for a request it refuses", async () => {
    const config = await recordSstConfig("dev", {
      stages: { stages: { dev: { pagerDuty: { webhook: { serviceId: PAGERDUTY_SERVICE_ID } } } } },
    });
    const webhook = config.named("sst.aws.Function", "PagerDutyWebhook");
    const before = mark();
    const handler = await handlerOf("pagerduty-webhook", {
      PAGERDUTY_WEBHOOK_SECRET_ARN: secretGiven(
        webhook,
        "PAGERDUTY_WEBHOOK_SECRET_ARN",
        PAGERDUTY_WEBHOOK_SECRET,
      ),
      PAGERDUTY_SERVICE_ID,
      AUDIT_TABLE: "iam-audit",
      INCIDENT_TOPIC_ARN: incidentsArn,
      CRITICAL_TOPIC_ARN: criticalArn,
    });
    const d = pagerDutyDelivery();
    const refused = [
      functionUrlEvent(pagerDutyDelivery({ secrets: ["forged"] })),
      functionUrlEvent({ ...d, body: d.body.replace("incident", "incidenT") }),
      functionUrlEvent(pagerDutyDelivery({ serviceId: "POTHER1" })),
      functionUrlEvent(pagerDutyDelivery({ occurredAt: new Date(Date.now() - 3_600_000) })),
    ];
    for (const event of refused)
      expect(
        ((await handler(event, fakeContext())) as { statusCode: number }).statusCode,
      ).toBeGreaterThanOrEqual(400);
    const sent = requestsSince(before);
    // Its secret (cached, and afresh after a forgery), granted; no table, no topic.
    expect(sent.length).toBeGreaterThan(0);
    expect([...new Set(sent)]).toEqual([
      expect.stringMatching(/^secretsmanager:GetSecretValue on .*\/PagerDutyWebhookSecret-/),
    ]);
    expect(needed(webhook, sent).filter((n) => n.endsWith("(not granted)"))).toEqual([]);
  });

  it("the audit function of a password-grant stage reads its password, and no client secret", async () => {
    const config = await recordSstConfig("dev", {
      stages: { stages: { dev: { keb: { grant: "password" } } } },
    });
    const audit = config.named("sst.aws.Function", "Audit");
    const before = mark();
    const run = await handlerOf("audit", {
      KEB_URL: kit.sim.url,
      KEB_TOKEN_URL: kit.sim.tokenUrl,
      KEB_CLIENT_ID: "iam-kcp",
      KEB_USERNAME: "iam-user",
      KEB_PASSWORD_ARN: secretGiven(audit, "KEB_PASSWORD_ARN", "iam-password"),
      AUDIT_TABLE: "iam-audit",
      ALERT_TOPIC_ARN: sns.topicArn,
    });
    const summary = (await run({ audit: "expired", dryRun: true }, fakeContext())) as { complete: boolean };
    expect(summary.complete).toBe(true);
    expect(requestsSince(before)).toContainEqual(
      expect.stringMatching(/^secretsmanager:GetSecretValue on .*KebPassword-/),
    );
    // Everything it sent is granted, and its only secret grant is the one it read (the rest of its
    // grants are the client-credentials stage's, used in the test below).
    const needs = needed(audit, requestsSince(before));
    expect(needs.filter((n) => n.endsWith("(not granted)"))).toEqual([]);
    const secretGrants = (pairs: string[]) => pairs.filter((p) => p.startsWith("secretsmanager:"));
    expect(secretGrants(needs)).toEqual(secretGrants(granted(audit)));
    expect(secretGrants(needs)).toHaveLength(1);
  });

  it("each function sends exactly the actions on the resources sst.config.ts grants it", async () => {
    const config = await recordSstConfig("dev", {
      stages: { stages: { dev: { slack: { way: "webhook" }, pagerDuty: true } } },
    });
    const fn = (name: string) => config.named("sst.aws.Function", name);
    const at = (k: number) => recentHour(k);

    // The audit function: scheduled runs (digest and per-runtime), a duplicate, a dry run, a show;
    // its KEB client secret read from Secrets Manager by the ARN it is given.
    const auditVars = {
      KEB_URL: kit.sim.url,
      KEB_TOKEN_URL: kit.sim.tokenUrl,
      KEB_CLIENT_ID: "iam-auditor",
      KEB_CLIENT_SECRET_ARN: secretGiven(fn("Audit"), "KEB_CLIENT_SECRET_ARN", "iam-client-secret"),
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
    expect(requestsSince(before)).toContainEqual(expect.stringMatching(/^secretsmanager:GetSecretValue on /));
    expect(needed(fn("Audit"), requestsSince(before))).toEqual(granted(fn("Audit")));
    // A grant on another secret than the one read fails on AWS; the contract sees it.
    const otherSecret = structuredClone(fn("Audit"));
    for (const p of otherSecret.args.permissions as Array<{ actions: string[]; resources: string[] }>)
      if (p.actions.includes("secretsmanager:GetSecretValue")) p.resources = ["arn:aws:secretsmanager:other"];
    expect(needed(otherSecret, requestsSince(before))).toContainEqual(
      expect.stringMatching(/^secretsmanager:GetSecretValue on .*KebClientSecret.* \(not granted\)$/),
    );

    // The applications function: applied, stale and quarantined messages.
    const beforeApps = mark();
    const apps = await handlerOf("applications", { STATUS_TABLE: "iam-status" });
    const traffic = applicationTraffic({ applications: 4, seed: 3, rejectShare: 0.5 });
    await apps(
      sqsEvent([...traffic, traffic[0] as string, "not json"]),
      fakeContext("fleet-auditor-applications"),
    );
    // A message repeated in a later batch: its write is refused, and the winner's msg_id tells a
    // duplicate from a stale message. DynamoDB returns it with the refusal; an emulator that does
    // not (dynalite, here) makes the store read it, which the grant must allow too.
    await apps(sqsEvent([traffic[0] as string]), fakeContext("fleet-auditor-applications"));
    expect(needed(fn("ApplicationsSubscriber"), requestsSince(beforeApps))).toEqual(
      granted(fn("ApplicationsSubscriber")),
    );

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
    const queryRequests = requestsSince(beforeQuery);
    const queryFn = fn("ApplicationStatusQuery");
    expect(needed(queryFn, queryRequests)).toEqual(granted(queryFn));
    // A grant that lost its index resource would fail on AWS; the contract sees it.
    const noIndexes = structuredClone(queryFn);
    (noIndexes.args.permissions as Array<{ resources: string[] }>)[0]?.resources.splice(0, 1, "arn:none");
    expect(needed(noIndexes, queryRequests)).toContainEqual(
      expect.stringMatching(/^dynamodb:Query on .*-ApplicationStatus\/index\/byNodeId \(not granted\)$/),
    );

    // The applications audit function: a run that tells (the quarantined body above), the same
    // scheduled time again, a dry run and a show.
    const beforeEdge = mark();
    const edge = await handlerOf("applications-audit", {
      AUDIT_TABLE: "iam-audit",
      ALERT_TOPIC_ARN: sns.topicArn,
      CRITICAL_TOPIC_ARN: criticalArn,
      INCIDENT_TOPIC_ARN: incidentsArn,
      STATUS_TABLE: "iam-status",
      DEGRADED_AFTER_RUNS: "1",
    });
    const edgeRun = (await edge({ audit: "applications", scheduledTime: at(0) }, fakeContext())) as {
      runId: string;
      transitions: unknown[];
    };
    expect(edgeRun.transitions.length).toBeGreaterThan(0);
    await edge({ audit: "applications", scheduledTime: at(0) }, fakeContext());
    await edge({ audit: "applications", dryRun: true }, fakeContext());
    await edge({ show: edgeRun.runId }, fakeContext());
    // The status table unreadable: an incomplete run, and the degraded notice on Critical.
    ddb.proxy.add({
      operation: "Query",
      times: 1_000,
      bodyIncludes: "byWatch",
      action: { kind: "error", status: 400, code: "ValidationException", message: "refused" },
    });
    const blind = (await edge({ audit: "applications", scheduledTime: at(1) }, fakeContext())) as {
      complete: boolean;
    };
    ddb.proxy.clear();
    expect(blind.complete).toBe(false);
    expect(needed(fn("ApplicationsAudit"), requestsSince(beforeEdge))).toEqual(
      granted(fn("ApplicationsAudit")),
    );

    // The Slack function with a webhook, and the pager (PagerDuty is reached over HTTPS with its
    // routing key): each reads its one secret, keeps the last message it applied per key in the
    // audit table (its own prefix's items only), and may otherwise only fail to its destination.
    // Each message is delivered twice: the second is dropped, its hold refused, and (on dynalite,
    // which returns no item with a refusal) the item read.
    const failuresArn = "arn:aws:sqs:eu-central-1:123456789012:fleet-auditor-dev-Failures";
    const slackHook = await handlerOf("slack", {
      SLACK_WEBHOOK_URL_ARN: secretGiven(fn("Slack"), "SLACK_WEBHOOK_URL_ARN", webhook.slack.url),
      AUDIT_TABLE: "iam-audit",
      SLACK_MIN_INTERVAL_MS: "0",
    });
    const beforeHook = mark();
    const hookLandscape = new Landscape();
    // Another incident than the bot's below (its region): the two share the audit table here.
    for (const m of hookLandscape.run([failing("h", "us-1")], 0))
      for (const _ of [1, 2])
        await slackHook(snsEvent([forLambda(m.message)]), fakeContext("fleet-auditor-slack"));
    expect(webhook.slack.accepted()).toHaveLength(1);
    const hookSent = requestsSince(beforeHook);
    const hookKeys = ddb.proxy.requests.slice(beforeHook.ddb).map((r) => partitionKeyOf(r.body));
    const beforePager = mark();
    const pagerFn = await handlerOf("pager", {
      PAGERDUTY_ROUTING_KEY_ARN: secretGiven(fn("Pager"), "PAGERDUTY_ROUTING_KEY_ARN", PAGERDUTY_ROUTING_KEY),
      PAGERDUTY_EVENTS_URL: pagerDuty.pagerduty.url,
      AUDIT_TABLE: "iam-audit",
    });
    for (const _ of [1, 2])
      await pagerFn(
        snsEvent([incidentText("firing", "inc-iam")], "Critical"),
        fakeContext("fleet-auditor-pager"),
      );
    expect(pagerDuty.pagerduty.alerts).toHaveLength(1);
    expect(pagerDuty.pagerduty.alerts[0]?.triggers).toHaveLength(1);
    const pagerKeys = ddb.proxy.requests.slice(beforePager.ddb).map((r) => partitionKeyOf(r.body));
    for (const [name, sent, keys] of [
      ["Slack", hookSent, hookKeys],
      ["Pager", requestsSince(beforePager), pagerKeys],
    ] as const) {
      const secret = name === "Slack" ? "SlackWebhookUrl" : "PagerDutyRoutingKey";
      expect(sent.filter((r) => r.startsWith("secretsmanager:"))).toEqual([
        expect.stringMatching(new RegExp(`^secretsmanager:GetSecretValue on .*/${secret}-`)),
      ]);
      const table = `arn:aws:dynamodb:eu-central-1:123456789012:table/fleet-auditor-dev-AuditTable`;
      expect([...new Set(sent.filter((r) => r.startsWith("dynamodb:")))].sort()).toEqual([
        `dynamodb:GetItem on ${table}`,
        `dynamodb:UpdateItem on ${table}`,
      ]);
      expect(needed(fn(name), sent)).toEqual(granted(fn(name)));
      expect(granted(fn(name))).toContain(`sqs:SendMessage on ${failuresArn}`);
      // Every item it read or wrote is one its dynamodb:LeadingKeys condition allows.
      const patterns = leadingKeys(fn(name));
      expect(patterns).toHaveLength(1);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys)
        expect(
          patterns.some((p) => p.test(key)),
          `${name}: ${key}`,
        ).toBe(true);
    }
    // A function whose on-failure destination is not granted loses its failed events on AWS.
    const undelivered = structuredClone(fn("Audit"));
    undelivered.args.permissions = (undelivered.args.permissions as Array<{ actions: string[] }>).filter(
      (p) => !p.actions.includes("sqs:SendMessage"),
    );
    expect(needed(undelivered, [])).not.toEqual(granted(undelivered));

    // With a bot: an incident's first message keeps its thread parent, its end looks it up, each
    // keeps its place; every item it reads or writes is one its dynamodb:LeadingKeys condition allows.
    const botConfig = await recordSstConfig("dev", {
      stages: { stages: { dev: { slack: { way: "bot", channel: slackApi.api.channel } } } },
    });
    const bot = botConfig.named("sst.aws.Function", "Slack");
    const beforeSlack = mark();
    const slack = await handlerOf("slack", {
      SLACK_BOT_TOKEN_ARN: secretGiven(bot, "SLACK_BOT_TOKEN_ARN", slackApi.api.token),
      SLACK_CHANNEL: slackApi.api.channel,
      SLACK_API_URL: slackApi.api.apiUrl,
      AUDIT_TABLE: "iam-audit",
      SLACK_MIN_INTERVAL_MS: "0",
    });
    const l = new Landscape();
    for (const m of [...l.run([failing("a", "eu-1")], 0), ...l.run([], 1)])
      await slack(snsEvent([forLambda(m.message)]), fakeContext("fleet-auditor-slack"));
    expect(slackApi.api.messages.map((m) => m.threadTs === undefined)).toEqual([true, false]);
    expect(needed(bot, requestsSince(beforeSlack))).toEqual(granted(bot));
    const patterns = leadingKeys(bot);
    expect(patterns).toHaveLength(1);
    const keys = ddb.proxy.requests.slice(beforeSlack.ddb).map((r) => partitionKeyOf(r.body));
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys)
      expect(
        patterns.some((p) => p.test(key)),
        key,
      ).toBe(true);
  }, 60_000); // a hang guard: every function bundled and run once; 5 s alone, over 20 s on a loaded machine

  it("the Slack actions function reads its signing secret, and a refused request sends nothing else", async () => {
    const config = await recordSstConfig("dev", {
      stages: {
        stages: { dev: { slack: { way: "bot", channel: CHANNEL, interactivity: { teamId: TEAM } } } },
      },
    });
    const fn = config.named("sst.aws.Function", "SlackActions");
    const before = mark();
    const actions = await handlerOf("slack-actions", {
      SLACK_SIGNING_SECRET_ARN: secretGiven(fn, "SLACK_SIGNING_SECRET_ARN", SIGNING_SECRET),
      SLACK_TEAM_ID: TEAM,
      SLACK_CHANNEL: CHANNEL,
      SLACK_RESPONSE_URL_PREFIX: slackApi.api.apiUrl,
      AUDIT_TABLE: "iam-audit",
      INCIDENT_TOPIC_ARN: incidentsArn,
      CRITICAL_TOPIC_ARN: criticalArn,
    });
    const click = blockActions({
      responseUrl: `${slackApi.api.apiUrl}/x`,
      value: "inc-AAAAAAAAAAAAAAAAAAAAAAAA",
    });
    for (const request of [
      signedClick(click, { secret: "not-the-apps-secret" }),
      signedClick(click, { at: Math.floor(Date.now() / 1000) - 3_600 }),
      signedClick(blockActions({ responseUrl: `${slackApi.api.apiUrl}/x`, team: "T0ELSEWHERE" })),
    ]) {
      const answer = (await actions(slackUrlEvent(request), fakeContext("fleet-auditor-slack-actions"))) as {
        statusCode: number;
      };
      expect([401, 403]).toContain(answer.statusCode);
    }
    const sent = requestsSince(before);
    // Its one secret, read once (cached), and not a request to the table or a topic.
    expect([...new Set(sent)]).toEqual([
      expect.stringMatching(/^secretsmanager:GetSecretValue on .*\/SlackSigningSecret-/),
    ]);
    expect(needed(fn, sent).filter((n) => n.endsWith("(not granted)"))).toEqual([]);
  });
});

describe("the IAM contract of acting where the message lands", () => {
  /**
   * Open incidents of the failing audit in the table: a runtime fails, and a run of the audit
   * function at `hour` opens (or adds it to) a chat incident and a page.
   */
  async function openIncidents(hour: number): Promise<{ chat: string; page: string }> {
    for (const { instanceID } of kit.sim.fleet.create(1)) kit.sim.fleet.fail(instanceID, "provision");
    const audit = await handlerOf("audit", {
      KEB_URL: kit.sim.url,
      KEB_TOKEN_URL: kit.sim.tokenUrl,
      KEB_CLIENT_ID: "iam-auditor",
      KEB_CLIENT_SECRET: "iam-client-secret",
      AUDIT_TABLE: "iam-audit",
      ALERT_TOPIC_ARN: sns.topicArn,
      CRITICAL_TOPIC_ARN: criticalArn,
      INCIDENT_TOPIC_ARN: incidentsArn,
    });
    await audit({ audit: "failing", scheduledTime: recentHour(hour) }, fakeContext());
    const all = await new DynamoIncidentHistory({
      client: dynamo.db.client,
      tableName: "iam-audit",
    }).listIncidents(["failing"], {});
    const open = all.filter((r) => !r.endedAt);
    // A chat incident of critical findings: one on the page too, which its acknowledgement acknowledges.
    const chat = open.find(
      (r) => r.receiver === "incidents" && r.severity === "critical" && !r.acknowledged,
    )?.key;
    const page = open.find((r) => r.receiver === "critical")?.key;
    expect([chat, page]).toEqual([expect.stringMatching(/^inc-/), expect.stringMatching(/^inc-/)]);
    return { chat: chat as string, page: page as string };
  }

  it("the Slack actions function sends exactly what it is granted when a click acknowledges and silences", async () => {
    const { chat } = await openIncidents(3);
    const config = await recordSstConfig("dev", {
      stages: {
        stages: { dev: { slack: { way: "bot", channel: CHANNEL, interactivity: { teamId: TEAM } } } },
      },
    });
    const fn = config.named("sst.aws.Function", "SlackActions");
    const before = mark();
    const actions = await handlerOf("slack-actions", {
      SLACK_SIGNING_SECRET_ARN: secretGiven(fn, "SLACK_SIGNING_SECRET_ARN", SIGNING_SECRET),
      SLACK_TEAM_ID: TEAM,
      SLACK_CHANNEL: CHANNEL,
      SLACK_RESPONSE_URL_PREFIX: new URL(slackApi.api.apiUrl).origin,
      AUDIT_TABLE: "iam-audit",
      INCIDENT_TOPIC_ARN: incidentsArn,
      CRITICAL_TOPIC_ARN: criticalArn,
    });
    const clickOn = (actionId: string, value = chat) =>
      signedClick(
        blockActions({ actionId, value, responseUrl: slackApi.api.responseUrl("1764000001.000001") }),
      );
    // Acknowledged (mirrored to its page), again (already), silenced, and a key no incident has.
    for (const [request, outcome] of [
      [clickOn("fleet-auditor.ack"), "applied"],
      [clickOn("fleet-auditor.ack"), "already"],
      [clickOn("fleet-auditor.silence.4h"), "applied"],
      [clickOn("fleet-auditor.ack", "inc-ZZZZZZZZZZZZZZZZZZZZZZZZ"), "unknown"],
    ] as const) {
      const answer = (await actions(slackUrlEvent(request), fakeContext("fleet-auditor-slack-actions"))) as {
        statusCode: number;
      };
      expect(answer.statusCode, outcome).toBe(200);
    }
    expect(snsProxy.proxy.seen.slice(before.sns)).toContain("Publish");
    expect(needed(fn, requestsSince(before))).toEqual(granted(fn));
  });

  it("the PagerDuty webhook function sends exactly what it is granted when PagerDuty acknowledges, unacknowledges and resolves a page", async () => {
    const { page } = await openIncidents(4);
    const config = await recordSstConfig("dev", {
      stages: { stages: { dev: { pagerDuty: { webhook: { serviceId: PAGERDUTY_SERVICE_ID } } } } },
    });
    const fn = config.named("sst.aws.Function", "PagerDutyWebhook");
    const before = mark();
    const handler = await handlerOf("pagerduty-webhook", {
      PAGERDUTY_WEBHOOK_SECRET_ARN: secretGiven(fn, "PAGERDUTY_WEBHOOK_SECRET_ARN", PAGERDUTY_WEBHOOK_SECRET),
      PAGERDUTY_SERVICE_ID,
      AUDIT_TABLE: "iam-audit",
      INCIDENT_TOPIC_ARN: incidentsArn,
      CRITICAL_TOPIC_ARN: criticalArn,
    });
    const deliver = async (eventType: string): Promise<unknown> => {
      const answer = (await handler(
        functionUrlEvent(pagerDutyDelivery({ eventType, incidentKey: page })),
        fakeContext("fleet-auditor-pagerduty-webhook"),
      )) as { statusCode: number; body: string };
      expect(answer.statusCode, eventType).toBe(200);
      return JSON.parse(answer.body);
    };
    // Acknowledged (or already so, by a click of the test above), taken back, acknowledged again,
    // once more (already), and resolved in PagerDuty while it still fails.
    await deliver("incident.acknowledged");
    for (const [eventType, outcome] of [
      ["incident.unacknowledged", "applied"],
      ["incident.acknowledged", "applied"],
      ["incident.acknowledged", "already"],
      ["incident.resolved", "applied"],
    ] as const)
      expect(await deliver(eventType), eventType).toEqual({ outcome });
    expect(needed(fn, requestsSince(before))).toEqual(granted(fn));
  });
});
