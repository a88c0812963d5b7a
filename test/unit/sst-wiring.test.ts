import { existsSync, readFileSync } from "node:fs";
import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";
import { AuditFunctionEnvSchema } from "@fleet-auditor/keb-audits";
import { ApplicationsAuditEnvSchema } from "@fleet-auditor/kubeedge-audit";
import {
  auditTableDefinition,
  type StatusTableOptions,
  statusTableDefinition,
  WATCH_SHARDS,
} from "@fleet-auditor/store";
import {
  ApplicationsEnvSchema,
  BATCH_DEADLINE_MARGIN_MS,
  isIncidentSummaryRequest,
  PagerDutyWebhookEnvSchema,
  PagerEnvSchema,
  parseIncidentSummary,
  parseRunInput,
  problemsOf,
  RUN_DEADLINE_MARGIN_MS,
  SlackActionsEnvSchema,
  SlackEnvSchema,
} from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import {
  AUDIT_MANAGED_SECRETS,
  AUDIT_SECRETS,
  PAGER_MANAGED_SECRETS,
  PAGERDUTY_WEBHOOK_MANAGED_SECRETS,
  SLACK_ACTIONS_MANAGED_SECRETS,
  SLACK_MANAGED_SECRETS,
} from "../../functions/lib/secrets.ts";
import { fieldsOf, globalIndexesOf } from "../../infra/dynamo-indexes.ts";
import { incidentSummarySchedule } from "../../infra/summary-schedule.ts";
import { tableAsDeclared } from "../bench/deployed-table.ts";
import { section } from "../helpers/markdown.ts";
import { type Declared, type Recording, recordSstConfig, seconds, TELLS } from "../helpers/sst-stand-ins.ts";
import { testAudits } from "../helpers/test-audits.ts";

// sst.config.ts's run() against recording stand-ins of SST's globals. What is checked:
// each handler exists and exports `handler`; each function gets every variable its config schema
// requires (environment plus linked secrets); queue visibility ≥ 6 × the consumer's timeout + the
// batch window, 14 days' retention, a capped event source; schedule events parse as audit input;
// table keys and indexes match what the store queries; protected stages retain and protect their
// data; every alarm goes to the Ops topic and has its runbook; every function has Errors and
// Duration alarms, Throttles with reserved concurrency; a consumed queue has an age alarm. Each
// check is a function returning problems, shown failing once on a broken copy of the recording.

const ROOT = new URL("../../", import.meta.url);

/** Where AWS Chatbot's API exists (its endpoints list these four). */
const CHATBOT_API_REGIONS = ["us-east-2", "us-west-2", "ap-southeast-1", "eu-west-1"];

/**
 * What each handler reads: its schema, the secrets it takes from links, and those it reads from
 * Secrets Manager (`managed`, by `<variable>_ARN`); `anyOf`: the managed secrets are alternatives
 * (the Slack function's webhook or bot), a stage creates the one it uses.
 */
const FUNCTIONS: Record<
  string,
  {
    schema: ZodType;
    secrets: Record<string, string>;
    managed?: Record<string, string>;
    anyOf?: true;
    /** Variables a stage gives only when its settings ask for them; the schema says what is enough. */
    optional?: readonly string[];
  }
> = {
  "functions/audit.handler": {
    schema: AuditFunctionEnvSchema,
    secrets: AUDIT_SECRETS,
    managed: AUDIT_MANAGED_SECRETS,
    // The client secret or the user and password (`keb.grant`), and the proxy (`keb.proxySecret`).
    optional: ["KEB_USERNAME", "KEB_CLIENT_SECRET", "KEB_PASSWORD", "HTTPS_PROXY"],
  },
  "functions/applications-audit.handler": { schema: ApplicationsAuditEnvSchema, secrets: {} },
  "functions/applications.handler": { schema: ApplicationsEnvSchema, secrets: {} },
  "functions/application-status.handler": { schema: ApplicationsEnvSchema, secrets: {} },
  "functions/slack.handler": {
    schema: SlackEnvSchema,
    secrets: {},
    managed: SLACK_MANAGED_SECRETS,
    anyOf: true,
  },
  "functions/pager.handler": { schema: PagerEnvSchema, secrets: {}, managed: PAGER_MANAGED_SECRETS },
  "functions/slack-actions.handler": {
    schema: SlackActionsEnvSchema,
    secrets: {},
    managed: SLACK_ACTIONS_MANAGED_SECRETS,
  },
  "functions/pagerduty-webhook.handler": {
    schema: PagerDutyWebhookEnvSchema,
    secrets: {},
    managed: PAGERDUTY_WEBHOOK_MANAGED_SECRETS,
  },
};

const functions = (r: Recording): Declared[] => r.of("sst.aws.Function");

/** A CreateTable definition in SST's Dynamo arguments, as infra/applications.ts declares one. */
const sstArgsOf = (d: CreateTableCommandInput) => ({
  fields: fieldsOf(d),
  primaryIndex: { hashKey: "id" },
  globalIndexes: globalIndexesOf(d.GlobalSecondaryIndexes ?? []),
});

/** A placeholder value a linked secret would have, valid for its variable's schema. */
const secretValue = (variable: string): string =>
  /URL$/.test(variable) ? "https://secret.example/value" : "secret-value";

function handlerProblems(r: Recording): string[] {
  return functions(r).flatMap((f) => {
    const handler = String(f.args.handler);
    const file = new URL(`${handler.replace(/\.handler$/, "")}.ts`, ROOT);
    if (!existsSync(file)) return [`${f.name}: ${handler} has no file`];
    if (!/export const handler\b/.test(readFileSync(file, "utf8")))
      return [`${f.name}: ${handler} exports no handler`];
    if (!FUNCTIONS[handler]) return [`${f.name}: ${handler} is unknown to this test`];
    return [];
  });
}

function environmentProblems(r: Recording): string[] {
  return functions(r).flatMap((f) => {
    const spec = FUNCTIONS[String(f.args.handler)];
    if (!spec) return [];
    const linked = new Set(((f.args.link as Array<{ value?: string }>) ?? []).map((s) => String(s.value)));
    const env: Record<string, string> = { ...(f.args.environment as Record<string, string>) };
    const problems: string[] = [];
    for (const [variable, secret] of Object.entries(spec.secrets)) {
      if (linked.has(`secret:${secret}`)) env[variable] ??= secretValue(variable);
      else if (!spec.anyOf && !spec.optional?.includes(variable))
        problems.push(`${f.name}: secret ${secret} (${variable}) is not linked`);
    }
    // A secret in Secrets Manager: its ARN in `<variable>_ARN`, and GetSecretValue granted on it.
    const grants = (f.args.permissions as Array<{ actions: string[]; resources: string[] }>) ?? [];
    const managed = Object.entries(spec.managed ?? {}).filter(([variable, secret]) => {
      const arn = r.of("aws.secretsmanager.Secret").find((d) => d.name === secret)
        ? String(r.named("aws.secretsmanager.Secret", secret).args.name)
        : undefined;
      const given = env[`${variable}_ARN`];
      if (arn === undefined || given === undefined) {
        if (!spec.anyOf && !spec.optional?.includes(variable))
          problems.push(`${f.name}: secret ${secret} (${variable}_ARN) is not given`);
        return false;
      }
      if (!given.includes(`:secret:${arn}-`))
        problems.push(`${f.name}: ${variable}_ARN is not the ARN of secret ${secret}`);
      if (
        !grants.some(
          (g) => g.actions.includes("secretsmanager:GetSecretValue") && g.resources.includes(given),
        )
      )
        problems.push(`${f.name}: may not read secret ${secret} (${variable}_ARN)`);
      return true;
    });
    if (spec.anyOf && managed.length === 0)
      problems.push(`${f.name}: is given none of ${Object.values(spec.managed ?? {}).join(", ")}`);
    const parsed = spec.schema.safeParse(env);
    if (!parsed.success) {
      const found = problemsOf(parsed.error, env).map((p) => `${p.path}: ${p.message}`);
      problems.push(`${f.name}: ${found.join("; ")}`);
    }
    return problems;
  });
}

/** A queue's consumer: its function, its queue and the subscription's options. */
function consumers(r: Recording) {
  return functions(r)
    .filter((f) => f.subscribedTo?.kind === "sst.aws.Queue")
    .map((f) => ({
      f,
      queue: r.named("sst.aws.Queue", f.subscribedTo?.name as string),
      options: (f.subscribedTo?.options ?? {}) as {
        batch?: { window?: string };
        transform?: { eventSourceMapping?: { scalingConfig?: { maximumConcurrency?: number } } };
      },
    }));
}

/** Writes the Applications function keeps in flight per batch (ingest-applications.ts's default). */
const WRITES_PER_BATCH = 8;

function queueProblems(r: Recording): string[] {
  return consumers(r).flatMap(({ f, queue, options }) => {
    const problems: string[] = [];
    // AWS: at least 6 × the function's timeout plus the batching window, or a batch still being
    // handled becomes visible again and is handled twice.
    const visibility = seconds(queue.args.visibilityTimeout ?? "30 seconds");
    const timeout = seconds(f.args.timeout ?? "20 seconds");
    const window = options.batch?.window ? seconds(options.batch.window) : 0;
    if (visibility < 6 * timeout + window)
      problems.push(
        `queue ${queue.name}: visibility ${visibility} s is less than 6 × ${f.name}'s timeout ${timeout} s + the ${window} s batch window`,
      );
    // Lambda scales an SQS source to hundreds of batches on a backlog; capped, the writers stay
    // within about three in flight per byWatch shard key.
    const max = options.transform?.eventSourceMapping?.scalingConfig?.maximumConcurrency;
    if (max === undefined || max < 2 || max > 1_000)
      problems.push(`queue ${queue.name}: maximumConcurrency ${max} is not set within Lambda's 2 to 1,000`);
    else if (max * WRITES_PER_BATCH > 3 * WATCH_SHARDS)
      problems.push(
        `queue ${queue.name}: ${max} batches × ${WRITES_PER_BATCH} writes is over 3 in flight per each of ${WATCH_SHARDS} shard keys`,
      );
    const retention = (queue.args.transform as { queue?: { messageRetentionSeconds?: number } } | undefined)
      ?.queue?.messageRetentionSeconds;
    if ((retention ?? 4 * 86_400) < 14 * 86_400)
      problems.push(
        `queue ${queue.name}: messages kept ${retention ?? "4 days (SQS's default)"} s, not 14 days`,
      );
    return problems;
  });
}

function scheduleProblems(r: Recording): string[] {
  return r.of("sst.aws.CronV2").flatMap((c) => {
    const event = JSON.parse(
      JSON.stringify(c.args.event).replace("<aws.scheduler.scheduled-time>", "2026-11-30T06:00:00Z"),
    ) as unknown;
    try {
      if (isIncidentSummaryRequest(event)) parseIncidentSummary(event);
      else testAudits().named(parseRunInput(event).audit);
    } catch (err) {
      return [`schedule ${c.name}: ${(err as Error).message}`];
    }
    return c.args.dlq ? [] : [`schedule ${c.name}: no DLQ`];
  });
}

/** The table as SST declares it, in CreateTable's terms: keys, each index's keys and projection. */
function declaredKeys(d: Declared) {
  const primary = d.args.primaryIndex as { hashKey: string; rangeKey?: string };
  const indexes = (d.args.globalIndexes ?? {}) as Record<
    string,
    { hashKey: string; rangeKey?: string; projection?: "all" | "keys-only" | string[] }
  >;
  const projection = (p: "all" | "keys-only" | string[] = "all") =>
    Array.isArray(p) ? ["INCLUDE", ...p] : [p === "all" ? "ALL" : "KEYS_ONLY"];
  return {
    keys: [primary.hashKey, primary.rangeKey].filter(Boolean),
    indexes: Object.fromEntries(
      Object.entries(indexes).map(([n, i]) => [
        n,
        [...[i.hashKey, i.rangeKey].filter(Boolean), ...projection(i.projection)],
      ]),
    ),
  };
}

function tableProblems(r: Recording, status: StatusTableOptions = {}): string[] {
  const expected = {
    AuditTable: auditTableDefinition("t"),
    // Today's indexes, byNodeId only on a stage that asks for it (nodeIndex), and the retiring
    // ones only on a stage that keeps them (retiringIndexes).
    ApplicationStatus: statusTableDefinition("t", status),
  };
  return Object.entries(expected).flatMap(([name, def]) => {
    const got = declaredKeys(r.named("sst.aws.Dynamo", name));
    const want = {
      keys: (def.KeySchema ?? []).map((k) => k.AttributeName),
      indexes: Object.fromEntries(
        (def.GlobalSecondaryIndexes ?? []).map((i) => [
          i.IndexName,
          [
            ...(i.KeySchema ?? []).map((k) => k.AttributeName),
            i.Projection?.ProjectionType,
            ...(i.Projection?.NonKeyAttributes ?? []),
          ],
        ]),
      ),
    };
    return JSON.stringify(got) === JSON.stringify(want)
      ? []
      : [`table ${name}: declared ${JSON.stringify(got)}, the store uses ${JSON.stringify(want)}`];
  });
}

function protectionProblems(r: Recording, shouldProtect: boolean): string[] {
  const problems: string[] = [];
  if ((r.app.protect === true) !== shouldProtect)
    problems.push(`stage ${r.stage}: protect is ${r.app.protect}`);
  if ((r.app.removal === "retain") !== shouldProtect)
    problems.push(`stage ${r.stage}: removal is ${r.app.removal}`);
  for (const t of r.of("sst.aws.Dynamo")) {
    if ((t.args.deletionProtection === true) !== shouldProtect)
      problems.push(`stage ${r.stage}: table ${t.name} deletionProtection is ${t.args.deletionProtection}`);
  }
  const pitr = (
    r.named("sst.aws.Dynamo", "AuditTable").args.transform as {
      table?: { pointInTimeRecovery?: { enabled?: boolean } };
    }
  )?.table?.pointInTimeRecovery?.enabled;
  if ((pitr === true) !== shouldProtect)
    problems.push(`stage ${r.stage}: table AuditTable pointInTimeRecovery is ${pitr}`);
  // A protected stage's secrets wait 30 days before deletion; others go at once, to redeploy.
  for (const secret of r.of("aws.secretsmanager.Secret")) {
    const days = secret.args.recoveryWindowInDays;
    if ((days === 30) !== shouldProtect || (!shouldProtect && days !== 0))
      problems.push(`stage ${r.stage}: secret ${secret.name} recoveryWindowInDays is ${days}`);
  }
  return problems;
}

/** The runbooks (infra/alarms.ts's RUNBOOK_PAGE): each alarm's description links to a heading there that names it in bold. */
const RUNBOOK_PAGE = "docs/operate.md";
const OPERATE = readFileSync(new URL(RUNBOOK_PAGE, ROOT), "utf8");
/** The link: to the page in the repository, or to where the stage's `docsUrl` serves docs/. */
const RUNBOOK_LINK = /\(runbook: (?:docs\/|https:\/\/[^ )]+\/)operate\.md#([^)]+)\)$/;

/**
 * How long before its timeout each function stops by itself (packages/use-cases/src/deadline.ts, the
 * Slack and PagerDuty margins' defaults): a Duration alarm must fire before that.
 */
const CUTS_SHORT_MS: Record<string, number> = {
  "functions/audit.handler": RUN_DEADLINE_MARGIN_MS,
  "functions/applications-audit.handler": RUN_DEADLINE_MARGIN_MS,
  "functions/applications.handler": BATCH_DEADLINE_MARGIN_MS,
  "functions/slack.handler": 2_000,
  "functions/pager.handler": 2_000,
  "functions/slack-actions.handler": 2_000,
};

function alarmProblems(r: Recording): string[] {
  const ops = r.of("sst.aws.SnsTopic").find((t) => t.name === "Ops");
  if (!ops) return ["no Ops topic"];
  const opsArn = `arn:aws:sns:eu-central-1:123456789012:fleet-auditor-${r.stage}-Ops`;
  const alarms = r.of("aws.cloudwatch.MetricAlarm");
  const problems = alarms
    .filter((a) => JSON.stringify(a.args.alarmActions) !== JSON.stringify([opsArn]))
    .map((a) => `alarm ${a.name} does not go to the Ops topic`);
  for (const a of alarms) {
    const anchor = RUNBOOK_LINK.exec(String(a.args.alarmDescription))?.[1];
    if (anchor === undefined) {
      problems.push(`alarm ${a.name}: its description does not name its runbook`);
      continue;
    }
    const entry = section(OPERATE, anchor);
    if (entry === undefined) problems.push(`alarm ${a.name}: ${RUNBOOK_PAGE} has no heading #${anchor}`);
    else if (!new RegExp(`\\*\\*[^*]*\\b${a.name}\\b[^*]*\\*\\*`).test(entry))
      problems.push(`alarm ${a.name} is not named in its runbook entry #${anchor}`);
  }
  const on = (f: Declared, metricName: string) =>
    alarms.find(
      (a) => a.args.metricName === metricName && JSON.stringify(a.args.dimensions).includes(`-${f.name}"`),
    );
  for (const f of functions(r)) {
    if (!on(f, "Errors")) problems.push(`function ${f.name} has no errors alarm`);
    // Near the timeout, before the function cuts its own work short, and not at half of it.
    const duration = on(f, "Duration");
    const timeoutMs = seconds(f.args.timeout ?? "20 seconds") * 1_000;
    const ownDeadlineMs = timeoutMs - (CUTS_SHORT_MS[String(f.args.handler)] ?? 0);
    const threshold = Number(duration?.args.threshold);
    if (duration?.args.statistic !== "Maximum" || !(threshold < ownDeadlineMs && threshold >= timeoutMs / 2))
      problems.push(`function ${f.name}: no Duration alarm between half its timeout and ${ownDeadlineMs} ms`);
    const reserved = (f.args.concurrency as { reserved?: number } | undefined)?.reserved;
    if (reserved !== undefined && !on(f, "Throttles"))
      problems.push(`function ${f.name} has reserved concurrency ${reserved} and no throttles alarm`);
  }
  // A consumed queue whose consumer stopped: no error, no failed record, no DLQ, only age.
  for (const { queue, f, options } of consumers(r)) {
    const stalled = alarms.find(
      (a) =>
        a.args.metricName === "ApproximateAgeOfOldestMessage" &&
        JSON.stringify(a.args.dimensions).includes(`-${queue.name}"`),
    );
    // SQS leaves a message out of the metric after 3 receives; a retried one never raises it.
    const retries = 3 * seconds(queue.args.visibilityTimeout ?? "30 seconds");
    const window = options.batch?.window ? seconds(options.batch.window) : 0;
    const threshold = Number(stalled?.args.threshold);
    if (!stalled || !(threshold > retries + window && threshold <= 3_600))
      problems.push(
        `queue ${queue.name} (${f.name}) has no age alarm between ${retries + window} s and an hour`,
      );
  }
  return problems;
}

const all = (r: Recording, protect: boolean): string[] => [
  ...handlerProblems(r),
  ...environmentProblems(r),
  ...queueProblems(r),
  ...scheduleProblems(r),
  ...tableProblems(r),
  ...protectionProblems(r, protect),
  ...alarmProblems(r),
];

describe("sst.config.ts wiring", () => {
  it("holds for a dev stage, and for prod with the Slack function and the pager", async () => {
    const dev = await recordSstConfig("dev");
    expect(all(dev, false)).toEqual([]);
    expect(functions(dev).map((f) => f.name)).not.toContain("Slack");
    expect(functions(dev).map((f) => f.name)).not.toContain("Pager");
    const prod = await recordSstConfig("prod", {
      stages: {
        stages: {
          prod: {
            protected: true,
            opsEmail: "ops@example.com",
            slack: { way: "webhook" },
            pagerDuty: true,
            pagerEmail: "pager@example.com",
          },
        },
      },
    });
    expect(all(prod, true)).toEqual([]);
    expect(functions(prod).find((f) => f.name === "Slack")?.subscribedTo).toMatchObject({
      name: "Incidents",
    });
    // The pager hears the Critical topic unfiltered; it may do nothing on AWS but read its routing
    // key, keep the last event sent per key in the audit table's PAGER# items, and fail to Failures.
    const failures = "arn:aws:sqs:eu-central-1:123456789012:fleet-auditor-prod-Failures";
    const routingKey =
      "arn:aws:secretsmanager:eu-central-1:123456789012:secret:fleet-auditor/prod/PagerDutyRoutingKey-AbC123";
    const auditTable = "arn:aws:dynamodb:eu-central-1:123456789012:table/fleet-auditor-prod-AuditTable";
    expect(prod.named("sst.aws.Function", "Pager")).toMatchObject({
      subscribedTo: { kind: "sst.aws.SnsTopic", name: "Critical" },
      args: {
        timeout: "1 minute",
        retries: 2,
        permissions: [
          { actions: ["secretsmanager:GetSecretValue"], resources: [routingKey] },
          { actions: ["sqs:SendMessage"], resources: [failures] },
          {
            actions: ["dynamodb:GetItem", "dynamodb:UpdateItem"],
            resources: [auditTable],
            conditions: [
              { test: "ForAllValues:StringLike", variable: "dynamodb:LeadingKeys", values: ["PAGER#*"] },
            ],
          },
        ],
        environment: { PAGERDUTY_ROUTING_KEY_ARN: routingKey, AUDIT_TABLE: "fleet-auditor-prod-AuditTable" },
        transform: { eventInvokeConfig: { destinationConfig: { onFailure: { destination: failures } } } },
      },
    });
    expect(prod.named("sst.aws.Function", "Pager").subscribedTo?.options).toBeUndefined();
    expect(prod.of("aws.sns.TopicSubscription").map((s) => s.args.topic)).toEqual([
      "arn:aws:sns:eu-central-1:123456789012:fleet-auditor-prod-Critical",
      "arn:aws:sns:eu-central-1:123456789012:fleet-auditor-prod-Ops",
    ]);
  });

  it("puts the PagerDuty webhook behind a public function URL only on a stage whose pagerDuty names a webhook, with the grants the acknowledgement core needs", async () => {
    const pagerOnly = await recordSstConfig("prod", {
      stages: { stages: { prod: { protected: true, ...TELLS, pagerDuty: true } } },
    });
    expect(functions(pagerOnly).map((f) => f.name)).not.toContain("PagerDutyWebhook");
    expect(pagerOnly.outputs.pagerDutyWebhookUrl).toBeUndefined();
    const prod = await recordSstConfig("prod", {
      stages: {
        stages: { prod: { protected: true, ...TELLS, pagerDuty: { webhook: { serviceId: "PF9KMXH" } } } },
      },
    });
    expect(all(prod, true)).toEqual([]);
    const names = functions(prod).map((f) => f.name);
    expect(names).toContain("Pager");
    const secret =
      "arn:aws:secretsmanager:eu-central-1:123456789012:secret:fleet-auditor/prod/PagerDutyWebhookSecret-AbC123";
    const table = "arn:aws:dynamodb:eu-central-1:123456789012:table/fleet-auditor-prod-AuditTable";
    const topic = (name: string) => `arn:aws:sns:eu-central-1:123456789012:fleet-auditor-prod-${name}`;
    const webhook = prod.named("sst.aws.Function", "PagerDutyWebhook");
    // Its own URL, not a topic's subscriber; anyone may call it (the signature is the check), no
    // browser (no CORS), and its concurrency is bounded.
    expect(webhook.subscribedTo).toBeUndefined();
    expect(webhook.args).toMatchObject({
      handler: "functions/pagerduty-webhook.handler",
      url: { authorization: "none", cors: false },
      concurrency: { reserved: 2 },
      permissions: [
        { actions: ["secretsmanager:GetSecretValue"], resources: [secret] },
        {
          actions: [
            "dynamodb:GetItem",
            "dynamodb:PutItem",
            "dynamodb:DeleteItem",
            "dynamodb:Query",
            "dynamodb:BatchGetItem",
          ],
          resources: [table],
        },
        { actions: ["sns:Publish"], resources: [topic("Incidents"), topic("Critical")] },
      ],
      environment: {
        PAGERDUTY_WEBHOOK_SECRET_ARN: secret,
        PAGERDUTY_SERVICE_ID: "PF9KMXH",
        AUDIT_TABLE: "fleet-auditor-prod-AuditTable",
        INCIDENT_TOPIC_ARN: topic("Incidents"),
        CRITICAL_TOPIC_ARN: topic("Critical"),
        LANDSCAPE: "prod",
      },
    });
    // No other grant: nothing else of the stage is reachable from the URL.
    expect(webhook.args.permissions).toHaveLength(3);
    expect(prod.outputs.pagerDutyWebhookUrl).toMatch(/^https:\/\/.+\.lambda-url\./);
    const refused = prod.of("aws.cloudwatch.MetricAlarm").find((a) => a.name === "PagerDutyWebhookRefused");
    expect(refused?.args).toMatchObject({
      namespace: "FleetAuditor",
      metricName: "Refused",
      dimensions: { service: "pagerduty-webhook" },
      threshold: 0,
      comparisonOperator: "GreaterThanThreshold",
    });
    await expect(
      recordSstConfig("prod", {
        stages: { stages: { prod: { pagerDuty: { webhook: { serviceId: "P 1" } } } } },
      }),
    ).rejects.toThrow(/stages\.prod\.pagerDuty.*: /s);
  });

  it("declares byNodeId only on a stage that asks for it and the retiring status indexes only on one that keeps them, and the cost bench prices what is declared", async () => {
    const fresh = await recordSstConfig("prod");
    expect(tableProblems(fresh)).toEqual([]);
    expect(
      Object.keys(fresh.named("sst.aws.Dynamo", "ApplicationStatus").args.globalIndexes as object),
    ).toEqual(["byWatch", "byQuarantineCode"]);
    const stage = async (settings: StatusTableOptions) =>
      recordSstConfig("prod", { stages: { stages: { prod: { protected: true, ...TELLS, ...settings } } } });
    const recorded: Recording[] = [fresh];
    for (const settings of [
      { retiringIndexes: true },
      { nodeIndex: true },
      { nodeIndex: true, retiringIndexes: true },
    ]) {
      const r = await stage(settings);
      expect(tableProblems(r, settings)).toEqual([]);
      expect(tableProblems(r)).not.toEqual([]);
      recorded.push(r);
    }
    // The bench creates the status table it measures from the declaration, indexes as deployed.
    for (const r of recorded) {
      const declared = r.named("sst.aws.Dynamo", "ApplicationStatus");
      const priced = tableAsDeclared(declared, "t");
      const names = (priced.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName);
      expect(names).toEqual(Object.keys(declared.args.globalIndexes as object));
      expect(declaredKeys({ ...declared })).toEqual(
        declaredKeys({ kind: "sst.aws.Dynamo", name: "t", args: sstArgsOf(priced) }),
      );
      // Every key attribute has its field, and no field is unused: DynamoDB refuses either.
      const used = new Set(
        [
          ...(priced.KeySchema ?? []),
          ...(priced.GlobalSecondaryIndexes ?? []).flatMap((i) => i.KeySchema ?? []),
        ].map((k) => k.AttributeName),
      );
      expect(Object.keys(declared.args.fields as object).sort()).toEqual([...used].sort());
    }
  });

  it("links each alarm to its runbook where the stage's docs are served, the repository's page otherwise", async () => {
    const docsUrl = "https://github.com/example/fleet-auditor/blob/main/docs";
    const served = await recordSstConfig("prod", {
      stages: { stages: { prod: { protected: true, ...TELLS, schedules: { enabled: true }, docsUrl } } },
    });
    expect(alarmProblems(served)).toEqual([]);
    for (const a of served.of("aws.cloudwatch.MetricAlarm"))
      expect(String(a.args.alarmDescription), a.name).toMatch(
        /\(runbook: https:\/\/github\.com\/example\/fleet-auditor\/blob\/main\/docs\/operate\.md#[a-z-]+\)$/,
      );
    const plain = await recordSstConfig("prod");
    for (const a of plain.of("aws.cloudwatch.MetricAlarm"))
      expect(String(a.args.alarmDescription), a.name).toMatch(/\(runbook: docs\/operate\.md#[a-z-]+\)$/);
    await expect(
      recordSstConfig("prod", { stages: { default: { docsUrl: "http://docs.example" } } }),
    ).rejects.toThrow(/default\.docsUrl: /);
  });

  it("raises no NotRunning alarm on a fresh deploy, and still tells Ops when runs stop", async () => {
    const r = await recordSstConfig("prod");
    const ops = "arn:aws:sns:eu-central-1:123456789012:fleet-auditor-prod-Ops";
    for (const name of ["FailingNotRunning", "ExpiredNotRunning", "ApplicationsNotRunning"]) {
      const a = r.named("aws.cloudwatch.MetricAlarm", name).args;
      // A new alarm over a metric nothing printed yet would breach at once; missing data is
      // INSUFFICIENT_DATA instead, which a new alarm starts in (no transition, no message) and
      // one whose runs stopped enters, telling Ops.
      expect(a.treatMissingData, name).toBe("missing");
      expect(a.insufficientDataActions, name).toEqual([ops]);
      expect(a).toMatchObject({ comparisonOperator: "LessThanThreshold", threshold: 1 });
    }
    // No other alarm tells Ops of missing data: theirs is nothing happening.
    const others = r.of("aws.cloudwatch.MetricAlarm").filter((a) => !a.name.endsWith("NotRunning"));
    expect(others.filter((a) => a.args.insufficientDataActions !== undefined)).toEqual([]);
  });

  it("shows each audit's runs, flagged, incomplete scans, publish failures and the queue's age on a dashboard", async () => {
    const r = await recordSstConfig("prod");
    const body = JSON.parse(String(r.named("aws.cloudwatch.Dashboard", "Dashboard").args.dashboardBody)) as {
      widgets: Array<{ properties: { title: string; region: string; metrics: unknown[][] } }>;
    };
    const shown = body.widgets.flatMap((w) =>
      // A metric's options (its statistic, its axis) are its last element, an object.
      w.properties.metrics.map(
        (m) => `${w.properties.title}: ${m.filter((x) => typeof x === "string").join(" ")}`,
      ),
    );
    for (const [audit, service] of [
      ["failing", "audit"],
      ["expired", "audit"],
      ["applications", "applications-audit"],
    ])
      for (const metric of ["Runs", "Flagged", "IncompleteScans", "PublishFailures"])
        expect(shown, `${audit} ${metric}`).toContainEqual(
          expect.stringContaining(`FleetAuditor ${metric} service ${service} audit ${audit}`),
        );
    expect(shown).toContainEqual(
      expect.stringMatching(
        /AWS\/SQS ApproximateAgeOfOldestMessage QueueName fleet-auditor-prod-Applications$/,
      ),
    );
    expect(new Set(body.widgets.map((w) => w.properties.region))).toEqual(new Set(["eu-central-1"]));
  });

  it("encrypts the topics with a key of the stage's own that CloudWatch and the publishing functions may use, when asked", async () => {
    const plain = await recordSstConfig("prod");
    expect(plain.of("aws.kms.Key")).toEqual([]);
    const r = await recordSstConfig("prod", {
      stages: { stages: { prod: { protected: true, ...TELLS, encryptTopics: true } } },
    });
    const [key] = r.of("aws.kms.Key");
    expect(key?.args.enableKeyRotation).toBe(true);
    const keyArn = "arn:aws:kms:eu-central-1:123456789012:key/TopicKey";
    for (const t of r.of("sst.aws.SnsTopic"))
      expect(
        (t.args.transform as { topic?: { kmsMasterKeyId?: string } })?.topic?.kmsMasterKeyId,
        t.name,
      ).toBe(keyArn);
    // The AWS-managed alias/aws/sns cannot be used by CloudWatch: the alarms' publisher is let in.
    const policy = JSON.parse(String(key?.args.policy)) as {
      Statement: Array<{ Principal: { Service?: string; AWS?: string }; Action: string[] }>;
    };
    const cloudwatch = policy.Statement.find((st) => st.Principal.Service === "cloudwatch.amazonaws.com");
    expect(cloudwatch?.Action).toEqual(["kms:Decrypt", "kms:GenerateDataKey*"]);
    expect(
      policy.Statement.find((st) => st.Principal.AWS === "arn:aws:iam::123456789012:root"),
    ).toBeDefined();
    for (const name of ["Audit", "ApplicationsAudit"])
      expect(r.named("sst.aws.Function", name).args.permissions, name).toContainEqual({
        actions: ["kms:Decrypt", "kms:GenerateDataKey*"],
        resources: [keyArn],
      });
  });

  it("reserves concurrency unless the stage says not to (a sandbox account's quota has none to spare)", async () => {
    const reserved = (r: Recording) =>
      Object.fromEntries(
        functions(r).map((f) => [f.name, (f.args.concurrency as { reserved?: number })?.reserved]),
      );
    const slack = { slack: { way: "webhook" } };
    const normal = await recordSstConfig("dev", { stages: { default: slack } });
    expect(reserved(normal)).toMatchObject({ Audit: 4, ApplicationsAudit: 2, Slack: 1 });
    const buttons = await recordSstConfig("dev", {
      stages: {
        default: {
          slack: { way: "bot", channel: "C0123ABCD", interactivity: { teamId: "T0123ABCD" } },
          reservedConcurrency: false,
        },
      },
    });
    expect(reserved(buttons).SlackActions).toBeUndefined();
    const sandbox = await recordSstConfig("dev", {
      stages: { default: { ...slack, reservedConcurrency: false } },
    });
    expect(Object.values(reserved(sandbox)).filter((n) => n !== undefined)).toEqual([]);
    expect(alarmProblems(sandbox)).toEqual([]);
    expect(sandbox.of("aws.cloudwatch.MetricAlarm").map((a) => a.name)).not.toContain("AuditThrottles");
  });

  it("protects a stage that says it is protected, whatever its name, and no other", async () => {
    // prod and production as the landscape fills them in: protected: true.
    for (const stage of ["prod", "production"]) {
      const r = await recordSstConfig(stage, {
        stages: {
          stages: {
            [stage]: {
              protected: true,
              opsEmail: "ops@example.com",
              pagerDuty: true,
              slack: { way: "webhook" },
            },
          },
        },
      });
      expect(protectionProblems(r, true), stage).toEqual([]);
      expect(r.of("aws.secretsmanager.Secret").map((d) => d.name)).toEqual([
        "KebClientSecret",
        "SlackWebhookUrl",
        "PagerDutyRoutingKey",
      ]);
    }
    expect(protectionProblems(await recordSstConfig("prod"), true)).toEqual([]);
    // A second landscape's prod is protected by its setting, not by its name; prod without it is not.
    const us = { opsEmail: "ops@example.com", pagerEmail: "pager@example.com" };
    const prodUs = await recordSstConfig("prod-us", {
      stages: { stages: { "prod-us": { protected: true, ...us } } },
    });
    expect(protectionProblems(prodUs, true)).toEqual([]);
    expect(protectionProblems(await recordSstConfig("prod", { stages: {} }), false)).toEqual([]);
  });

  it("deploys the Slack function with a bot token: its channel, the audit table's SLACK# items only, one delivery at a time", async () => {
    const bot = await recordSstConfig("prod", {
      stages: {
        stages: {
          prod: { protected: true, opsEmail: "ops@example.com", slack: { way: "bot", channel: "C0123ABCD" } },
        },
      },
    });
    expect(all(bot, true)).toEqual([]);
    const slack = bot.named("sst.aws.Function", "Slack");
    expect(slack.subscribedTo).toMatchObject({ name: "Incidents" });
    expect(slack.args.link).toBeUndefined();
    expect(bot.of("aws.secretsmanager.Secret").map((d) => d.name)).toEqual([
      "KebClientSecret",
      "SlackBotToken",
    ]);
    expect(slack.args.environment).toMatchObject({
      SLACK_BOT_TOKEN_ARN:
        "arn:aws:secretsmanager:eu-central-1:123456789012:secret:fleet-auditor/prod/SlackBotToken-AbC123",
      SLACK_CHANNEL: "C0123ABCD",
      AUDIT_TABLE: "fleet-auditor-prod-AuditTable",
    });
    expect(slack.args.concurrency).toEqual({ reserved: 1 });
    expect(slack.args.permissions).toContainEqual({
      actions: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"],
      resources: ["arn:aws:dynamodb:eu-central-1:123456789012:table/fleet-auditor-prod-AuditTable"],
      conditions: [
        { test: "ForAllValues:StringLike", variable: "dynamodb:LeadingKeys", values: ["SLACK#*"] },
      ],
    });
    expect(bot.named("aws.cloudwatch.MetricAlarm", "SlackErrors").args.dimensions).toEqual({
      FunctionName: "fleet-auditor-prod-Slack",
    });
    // A webhook has no channel and no thread items: the table's SLACK# items, for the order of
    // each key's messages only (no PutItem).
    const hook = await recordSstConfig("dev", { stages: { default: { slack: { way: "webhook" } } } });
    const hooked = hook.named("sst.aws.Function", "Slack").args;
    expect(hooked.environment).toMatchObject({ AUDIT_TABLE: "fleet-auditor-dev-AuditTable" });
    expect(hooked.environment).not.toHaveProperty("SLACK_CHANNEL");
    expect(hooked.permissions).toContainEqual({
      actions: ["dynamodb:GetItem", "dynamodb:UpdateItem"],
      resources: ["arn:aws:dynamodb:eu-central-1:123456789012:table/fleet-auditor-dev-AuditTable"],
      conditions: [
        { test: "ForAllValues:StringLike", variable: "dynamodb:LeadingKeys", values: ["SLACK#*"] },
      ],
    });
    await expect(
      recordSstConfig("prod", { stages: { stages: { prod: { slack: { way: "bot" } } } } }),
    ).rejects.toThrow(/stages\.prod\.slack\.channel: /);
    await expect(
      recordSstConfig("prod", { stages: { stages: { prod: { slack: { way: "yes" } } } } }),
    ).rejects.toThrow(/stages\.prod\.slack\.way: /);
    // A Slack function given no secret, or not granted its own, is caught.
    const broken = (change: (args: Record<string, unknown>) => Record<string, unknown>): Recording => {
      const copy: Recording = {
        ...bot,
        declared: bot.declared.map((d) => (d.name === "Slack" ? { ...d, args: change(d.args) } : d)),
      };
      copy.of = (kind) => copy.declared.filter((d) => d.kind === kind);
      return copy;
    };
    const { SLACK_BOT_TOKEN_ARN: _arn, ...noArn } = slack.args.environment as Record<string, string>;
    expect(environmentProblems(broken((a) => ({ ...a, environment: noArn })))).toContainEqual(
      "Slack: is given none of SlackWebhookUrl, SlackBotToken",
    );
    const ungranted = (slack.args.permissions as Array<{ actions: string[] }>).filter(
      (p) => !p.actions.includes("secretsmanager:GetSecretValue"),
    );
    expect(environmentProblems(broken((a) => ({ ...a, permissions: ungranted })))).toContainEqual(
      "Slack: may not read secret SlackBotToken (SLACK_BOT_TOKEN_ARN)",
    );
  });

  it("deploys the Slack buttons' function behind a URL of its own only where the stage's bot says interactivity, granted what the core does and no more", async () => {
    const stage = (slack: unknown) => ({
      stages: { stages: { prod: { protected: true, opsEmail: "ops@example.com", slack } } },
    });
    const buttons = await recordSstConfig(
      "prod",
      stage({ way: "bot", channel: "C0123ABCD", interactivity: { teamId: "T0123ABCD" } }),
    );
    expect(all(buttons, true)).toEqual([]);
    const fn = buttons.named("sst.aws.Function", "SlackActions");
    const auditTable = "arn:aws:dynamodb:eu-central-1:123456789012:table/fleet-auditor-prod-AuditTable";
    const secret =
      "arn:aws:secretsmanager:eu-central-1:123456789012:secret:fleet-auditor/prod/SlackSigningSecret-AbC123";
    const topic = (name: string) => `arn:aws:sns:eu-central-1:123456789012:fleet-auditor-prod-${name}`;
    // Slack cannot sign with SigV4: the URL's auth is NONE, Slack's signature (checked by the
    // function) is what lets a request in; no CORS, no browser has business with it; and its
    // concurrency is bounded, so that a flood of forged requests is throttled rather than spend
    // the account's (and with it the audits').
    expect(fn.args.url).toEqual({ authorization: "none", cors: false });
    expect(fn.args.concurrency).toEqual({ reserved: 2 });
    expect(fn.subscribedTo).toBeUndefined();
    expect(fn.args.permissions).toEqual([
      { actions: ["secretsmanager:GetSecretValue"], resources: [secret] },
      {
        actions: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:BatchGetItem"],
        resources: [auditTable],
      },
      { actions: ["sns:Publish"], resources: [topic("Incidents"), topic("Critical")] },
    ]);
    expect(fn.args.environment).toMatchObject({
      SLACK_SIGNING_SECRET_ARN: secret,
      SLACK_TEAM_ID: "T0123ABCD",
      SLACK_CHANNEL: "C0123ABCD",
      AUDIT_TABLE: "fleet-auditor-prod-AuditTable",
      INCIDENT_TOPIC_ARN: topic("Incidents"),
      CRITICAL_TOPIC_ARN: topic("Critical"),
      // As the audit functions have it: Chatbot threads an incident's messages by it.
      LANDSCAPE: "prod",
    });
    // The bot puts the buttons on its messages; the URL and the secret are the stage's outputs.
    expect(buttons.named("sst.aws.Function", "Slack").args.environment).toMatchObject({
      SLACK_INTERACTIVITY: "true",
    });
    expect(buttons.outputs).toMatchObject({
      slackActionsUrl: "https://slackactions-url-id.lambda-url.eu-central-1.on.aws/",
      slackSigningSecret: secret,
    });
    // Refused requests are counted and alarmed on, by the service the function prints.
    expect(buttons.named("aws.cloudwatch.MetricAlarm", "SlackActionRefusals").args).toMatchObject({
      namespace: "FleetAuditor",
      metricName: "SlackActionRefused",
      dimensions: { service: "slack-actions" },
      threshold: 0,
    });
    expect(buttons.named("aws.cloudwatch.MetricAlarm", "SlackActionsErrors").args.dimensions).toEqual({
      FunctionName: "fleet-auditor-prod-SlackActions",
    });
    // Without interactivity, or with a webhook, no function, no URL, no secret, no buttons.
    for (const slack of [{ way: "bot", channel: "C0123ABCD" }, { way: "webhook" }]) {
      const none = await recordSstConfig("prod", stage(slack));
      expect(functions(none).map((f) => f.name)).not.toContain("SlackActions");
      expect(none.of("aws.secretsmanager.Secret").map((d) => d.name)).not.toContain("SlackSigningSecret");
      expect(none.outputs).not.toHaveProperty("slackActionsUrl");
      expect(none.named("sst.aws.Function", "Slack").args.environment).not.toHaveProperty(
        "SLACK_INTERACTIVITY",
      );
    }
    await expect(
      recordSstConfig("prod", stage({ way: "webhook", interactivity: { teamId: "T0123ABCD" } })),
    ).rejects.toThrow(/stages\.prod\.slack/);
    await expect(
      recordSstConfig("prod", stage({ way: "bot", channel: "C0123ABCD", interactivity: { teamId: "acme" } })),
    ).rejects.toThrow(
      /stages\.prod\.slack\.interactivity\.teamId: expected the ID of the Slack app's workspace/,
    );
  });

  it("gives the audit function the KEB secrets its stage declares, each granted alone, by ARN, never by value", async () => {
    const stage = async (keb: Record<string, unknown>) =>
      recordSstConfig("prod", { stages: { stages: { prod: { protected: true, ...TELLS, keb } } } });
    const cases = [
      [{}, ["KEB_CLIENT_SECRET_ARN"], ["KebClientSecret"]],
      [{ grant: "password" }, ["KEB_PASSWORD_ARN"], ["KebPassword"]],
      [
        { proxySecret: true },
        ["KEB_CLIENT_SECRET_ARN", "HTTPS_PROXY_ARN"],
        ["KebClientSecret", "KebHttpsProxy"],
      ],
      [
        { grant: "password", proxySecret: true },
        ["KEB_PASSWORD_ARN", "HTTPS_PROXY_ARN"],
        ["KebPassword", "KebHttpsProxy"],
      ],
    ] as const;
    for (const [keb, variables, secrets] of cases) {
      const r = await stage(keb);
      expect(environmentProblems(r), JSON.stringify(keb)).toEqual([]);
      const audit = r.named("sst.aws.Function", "Audit").args;
      const env = audit.environment as Record<string, string>;
      expect(Object.keys(env).filter((k) => k.endsWith("_ARN") && /KEB|PROXY/.test(k))).toEqual(variables);
      expect(
        r
          .of("aws.secretsmanager.Secret")
          .map((d) => d.name)
          .filter((n) => n.startsWith("Keb")),
      ).toEqual(secrets);
      // Exactly the stage's secrets may be read: one grant each, on its own ARN.
      const grants = (audit.permissions as Array<{ actions: string[]; resources: string[] }>).filter((g) =>
        g.actions.includes("secretsmanager:GetSecretValue"),
      );
      expect(grants.flatMap((g) => g.resources).sort()).toEqual(variables.map((v) => env[v]).sort());
      // The password grant links the user; no value is in the environment.
      const linked = ((audit.link as Array<{ value?: string }>) ?? []).map((l) => String(l.value));
      expect(linked.includes("secret:KebUsername")).toBe("grant" in keb);
      expect(Object.keys(env)).not.toContain("KEB_PASSWORD");
      expect(Object.keys(env)).not.toContain("HTTPS_PROXY");
    }
    // A password stage not linking its user fails the check, naming the variable.
    const r = await stage({ grant: "password" });
    const unlinked: Recording = {
      ...r,
      declared: r.declared.map((d) =>
        d.name === "Audit"
          ? {
              ...d,
              args: {
                ...d.args,
                link: (d.args.link as Array<{ value?: string }>).filter(
                  (l) => l.value !== "secret:KebUsername",
                ),
              },
            }
          : d,
      ),
    };
    unlinked.of = (kind) => unlinked.declared.filter((d) => d.kind === kind);
    expect(environmentProblems(unlinked).join("\n")).toMatch(/Audit: KEB_USERNAME: /);
    await expect(stage({ grant: "implicit" })).rejects.toThrow(/stages\.prod\.keb\.grant: /);
  });

  it("keeps failed invocations and dead letters 14 days, behind an alarm", async () => {
    const r = await recordSstConfig("prod");
    for (const name of ["Failures", "ScheduleDlq", "ApplicationsDlq"]) {
      const q = r.named("sst.aws.Queue", name);
      expect(
        (q.args.transform as { queue: { messageRetentionSeconds: number } }).queue.messageRetentionSeconds,
      ).toBe(14 * 86_400);
    }
    const audit = r.named("sst.aws.Function", "Audit");
    expect(audit.args.transform).toMatchObject({
      eventInvokeConfig: {
        destinationConfig: { onFailure: { destination: expect.stringContaining("Failures") } },
      },
    });
    const names = r.of("aws.cloudwatch.MetricAlarm").map((a) => a.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "FailuresNotEmpty",
        "ScheduleDlqNotEmpty",
        "ApplicationsDlqNotEmpty",
        "FailingNotRunning",
        "ExpiredNotRunning",
        "FailingIncompleteScans",
        "FailingPublishFailures",
        "ApplicationsFailed",
        "ApplicationsQueueStalled",
        "AuditThrottles",
        "ApplicationsAuditThrottles",
        "AuditDuration",
      ]),
    );
    const notRunning = r.named("aws.cloudwatch.MetricAlarm", "FailingNotRunning");
    expect(notRunning.args).toMatchObject({
      treatMissingData: "missing",
      evaluationPeriods: 2,
      period: 900,
    });
  });

  it("runs the audits on schedule only where the stage is scheduled, with the stage's settings", async () => {
    const enabled = async (stage: string, stages?: unknown) =>
      (await recordSstConfig(stage, { stages }))
        .of("sst.aws.CronV2")
        .map((c) => [c.name, c.args.enabled, c.args.schedule]);
    expect(await enabled("dev")).toEqual([
      ["AuditFailing", false, "rate(15 minutes)"],
      ["AuditExpired", false, "cron(0 * * * ? *)"],
      ["AuditApplications", false, "rate(5 minutes)"],
    ]);
    expect(await enabled("dev", { stages: { dev: { schedules: { enabled: true }, ...TELLS } } })).toEqual([
      ["AuditFailing", true, "rate(15 minutes)"],
      ["AuditExpired", true, "cron(0 * * * ? *)"],
      ["AuditApplications", true, "rate(5 minutes)"],
    ]);
    expect(await enabled("staging")).toEqual([
      ["AuditFailing", true, "rate(30 minutes)"],
      ["AuditExpired", true, "cron(0 * * * ? *)"],
      ["AuditApplications", true, "rate(5 minutes)"],
    ]);
    // The applications audit runs in its own function, which holds no KEB secret.
    const prod = await recordSstConfig("prod");
    const target = prod.named("sst.aws.CronV2", "AuditApplications").args.function as { name?: unknown };
    expect(target.name).toBe("fleet-auditor-prod-ApplicationsAudit");
    expect(prod.named("sst.aws.Function", "ApplicationsAudit").args.link).toBeUndefined();
    expect(prod.named("aws.cloudwatch.MetricAlarm", "ApplicationsNotRunning").args).toMatchObject({
      period: 300,
      dimensions: { service: "applications-audit", audit: "applications" },
    });
    const staging = await recordSstConfig("staging");
    expect(staging.named("aws.cloudwatch.MetricAlarm", "FailingNotRunning").args.period).toBe(1_800);
    // A stage that does not poll KEB has no missing-run alarm to raise.
    const devAlarms = (await recordSstConfig("dev")).of("aws.cloudwatch.MetricAlarm").map((a) => a.name);
    expect(devAlarms).not.toContain("FailingNotRunning");
    expect((await recordSstConfig("prod")).app).toMatchObject({
      providers: {
        aws: { region: "eu-central-1", defaultTags: { tags: { app: "fleet-auditor", stage: "prod" } } },
      },
    });
  });

  it("sends the incident summary on a schedule only where the stage asks for it: its window, published, in the stage's time zone", async () => {
    const summaries = async (entry?: Record<string, unknown>) =>
      (await recordSstConfig("prod", { stages: { stages: { prod: { ...TELLS, ...entry } } } }))
        .of("sst.aws.CronV2")
        .filter((c) => c.name === "IncidentSummary");
    expect(await summaries()).toEqual([]);
    expect(await summaries({ schedules: { enabled: true } })).toEqual([]);
    const [weekly] = await summaries({
      incidentSummary: true,
      schedules: { enabled: true, timezone: "Europe/Berlin" },
    });
    expect(weekly?.args).toMatchObject({
      schedule: "cron(0 8 ? * MON *)",
      timezone: "Europe/Berlin",
      retries: 2,
      event: { report: { since: "7d", publish: true, until: "<aws.scheduler.scheduled-time>" } },
    });
    expect(weekly?.args.dlq).toBeDefined();
    expect((weekly?.args.function as { name?: unknown } | undefined)?.name).toBe("fleet-auditor-prod-Audit");
    const [daily] = await summaries({
      incidentSummary: { schedule: "cron(0 7 * * ? *)", since: "24h", timezone: "America/New_York" },
    });
    expect(daily?.args).toMatchObject({
      schedule: "cron(0 7 * * ? *)",
      timezone: "America/New_York",
      event: { report: { since: "24h", publish: true } },
    });
    expect((await summaries({ incidentSummary: true }))[0]?.args.timezone).toBe("UTC");
    // A window as long as the stage keeps records, and not a day longer: the function would refuse each.
    expect(await summaries({ incidentSummary: { since: "180d" }, incidentRetentionDays: 180 })).toHaveLength(
      1,
    );
    expect(() => incidentSummarySchedule("prod", { incidentSummary: { since: "91d" } })).toThrow(
      "stage prod: incidentSummary.since is 91d, longer than the 90 days incident records are kept (incidentRetentionDays)",
    );
    expect(() =>
      incidentSummarySchedule("prod", { incidentSummary: true, incidentRetentionDays: 5 }),
    ).toThrow(/incidentSummary\.since is 7d, longer than the 5 days/);
  });

  it("subscribes this stage's e-mail addresses with their filters, and a Chatbot channel when named", async () => {
    const r = await recordSstConfig("prod", {
      stages: {
        stages: {
          prod: {
            alertEmails: [
              { address: "team@example.com", filter: { severity: ["critical", "warning"] } },
              { address: "all@example.com" },
            ],
            chatbot: { teamId: "T0123", channelId: "C0456" },
          },
        },
      },
    });
    expect(r.of("aws.sns.TopicSubscription").map((s) => [s.args.endpoint, s.args.filterPolicy])).toEqual([
      ["team@example.com", JSON.stringify({ severity: ["critical", "warning"] })],
      ["all@example.com", undefined],
    ]);
    expect(r.named("aws.chatbot.SlackChannelConfiguration", "Chatbot").args).toMatchObject({
      slackTeamId: "T0123",
      slackChannelId: "C0456",
      // Chat follows incidents (and the alarms); the digests stay on Alerts, for e-mail.
      snsTopicArns: [
        "arn:aws:sns:eu-central-1:123456789012:fleet-auditor-prod-Incidents",
        "arn:aws:sns:eu-central-1:123456789012:fleet-auditor-prod-Ops",
      ],
    });
    // AWS Chatbot's API exists in four regions only: the configuration is made in one of them,
    // whatever the stage's own region; the topics it follows stay where they are.
    const chatbotRegion = (d: Declared) => String((d.opts?.provider as { region?: string })?.region);
    expect(CHATBOT_API_REGIONS).toContain(
      chatbotRegion(r.named("aws.chatbot.SlackChannelConfiguration", "Chatbot")),
    );
    expect(chatbotRegion(r.named("aws.chatbot.SlackChannelConfiguration", "Chatbot"))).toBe("eu-west-1");
    const us = await recordSstConfig("prod", {
      stages: {
        stages: {
          prod: {
            region: "us-east-1",
            chatbot: { teamId: "T0123", channelId: "C0456", region: "us-west-2" },
          },
        },
      },
    });
    expect(chatbotRegion(us.named("aws.chatbot.SlackChannelConfiguration", "Chatbot"))).toBe("us-west-2");
    await expect(
      recordSstConfig("prod", {
        stages: {
          stages: { prod: { chatbot: { teamId: "T0123", channelId: "C0456", region: "eu-central-1" } } },
        },
      }),
    ).rejects.toThrow(/stages\.prod\.chatbot\.region: expected one of the regions AWS Chatbot runs in/);
    await expect(
      recordSstConfig("prod", { stages: { stages: { prod: { alertEmails: "team@example.com" } } } }),
    ).rejects.toThrow(/stages\.prod\.alertEmails: /);
    // Every function gets the shared settings from $transform.
    for (const f of r.of("sst.aws.Function")) {
      expect(f.args).toMatchObject({
        runtime: "nodejs22.x",
        architecture: "arm64",
      });
      // No esbuild plugin: what is deployed is what `npm run bench -- bundle` measures.
      expect((f.args.nodejs as { plugins?: unknown } | undefined)?.plugins, String(f.name)).toBeUndefined();
    }
  });

  it("tells both audit functions how messages read: the stage's landscape, links, groupings and inhibition rules", async () => {
    const messages = {
      landscape: "prod-eu",
      links: {
        runtime: "https://dashboard.example/runtimes/{instanceID}",
        runbook: "https://wiki.example/runbooks/{reason}",
        report: "https://console.example/runs/{runId}",
      },
      groupBy: { failing: ["state", "reason"], applications: ["node"] },
      inhibitRules: {
        failing: [{ sourceMatchers: ["state=error"], targetMatchers: ["state=failed"], equal: ["region"] }],
      },
    };
    const r = await recordSstConfig("prod", {
      stages: { default: { ...messages, ...TELLS, protected: true } },
    });
    expect(all(r, true)).toEqual([]);
    for (const name of ["Audit", "ApplicationsAudit"]) {
      expect(r.named("sst.aws.Function", name).args.environment).toMatchObject({
        LANDSCAPE: "prod-eu",
        RUNTIME_URL_TEMPLATE: "https://dashboard.example/runtimes/{instanceID}",
        RUNBOOK_URL_TEMPLATE: "https://wiki.example/runbooks/{reason}",
        REPORT_URL_TEMPLATE: "https://console.example/runs/{runId}",
        GROUP_BY_FAILING: "state,reason",
        GROUP_BY_APPLICATIONS: "node",
        INHIBIT_RULES_FAILING: JSON.stringify(messages.inhibitRules.failing),
      });
    }
    // Without them: the stage's name, and each audit's own grouping.
    const plain = (await recordSstConfig("prod")).named("sst.aws.Function", "Audit").args.environment;
    expect(plain).toMatchObject({ LANDSCAPE: "prod" });
    expect(Object.keys(plain as object).filter((k) => /TEMPLATE|GROUP_BY|INHIBIT/.test(k))).toEqual([]);
  });

  it("makes each audit's first scheduled run a baseline unless the stage's firstRun says notify", async () => {
    const stage = async (firstRun?: "notify" | "baseline") =>
      recordSstConfig("prod", {
        stages: { default: { ...TELLS, protected: true, ...(firstRun ? { firstRun } : {}) } },
      });
    const byDefault = await stage();
    const told = await stage("notify");
    for (const name of ["Audit", "ApplicationsAudit"]) {
      expect(byDefault.named("sst.aws.Function", name).args.environment).toMatchObject({
        FIRST_RUN: "baseline",
      });
      expect(told.named("sst.aws.Function", name).args.environment).toMatchObject({ FIRST_RUN: "notify" });
    }
  });

  it("keeps incident history for the stage's incidentRetentionDays, the functions' default (90) unless set, in every function that writes it", async () => {
    const stage = async (incidentRetentionDays?: number) =>
      recordSstConfig("prod", {
        stages: {
          default: {
            ...TELLS,
            protected: true,
            slack: { way: "bot", channel: "C0123ABCD", interactivity: { teamId: "T0123ABCD" } },
            pagerDuty: { webhook: { serviceId: "PF9KMXH" } },
            ...(incidentRetentionDays ? { incidentRetentionDays } : {}),
          },
        },
      });
    const [byDefault, kept] = [await stage(), await stage(400)];
    for (const name of ["Audit", "SlackActions", "PagerDutyWebhook"]) {
      expect(byDefault.named("sst.aws.Function", name).args.environment).not.toHaveProperty(
        "INCIDENT_RETENTION_DAYS",
      );
      expect(kept.named("sst.aws.Function", name).args.environment).toMatchObject({
        INCIDENT_RETENTION_DAYS: "400",
      });
    }
  });

  it("catches each kind of mistake (each check shown failing once on a broken copy)", async () => {
    const r = await recordSstConfig("prod");
    /** The recording with one declaration changed (or removed, when `edit` is undefined). */
    const broken = (name: string, edit?: (args: Record<string, unknown>) => void): Recording => {
      const declared = structuredClone(r.declared);
      const i = declared.findIndex((d) => d.name === name && d.kind !== "sst.Secret");
      const target = declared[i] as Declared;
      if (edit) edit(target.args);
      else declared.splice(i, 1);
      return {
        ...r,
        declared,
        of: (kind) => declared.filter((d) => d.kind === kind),
        named: (kind, n) => declared.find((d) => d.kind === kind && d.name === n) as Declared,
      };
    };
    const noHandler = broken("Audit", (args) => {
      args.handler = "functions/nope.handler";
    });
    expect(handlerProblems(noHandler)).toEqual(["Audit: functions/nope.handler has no file"]);
    const noTable = broken("Audit", (args) => {
      delete (args.environment as Record<string, string>).AUDIT_TABLE;
    });
    expect(environmentProblems(noTable)).toEqual(["Audit: AUDIT_TABLE: is required"]);
    const unlinked = broken("Audit", (args) => {
      args.link = [];
    });
    expect(environmentProblems(unlinked).join("\n")).toMatch(/secret KebUrl \(KEB_URL\) is not linked/);
    const shortVisibility = broken("Applications", (args) => {
      args.visibilityTimeout = "6 minutes";
    });
    expect(queueProblems(shortVisibility)).toEqual([
      "queue Applications: visibility 360 s is less than 6 × ApplicationsSubscriber's timeout 60 s + the 5 s batch window",
    ]);
    const defaultRetention = broken("Applications", (args) => {
      delete args.transform;
    });
    expect(queueProblems(defaultRetention)).toEqual([
      "queue Applications: messages kept 4 days (SQS's default) s, not 14 days",
    ]);
    /** The recording with the Applications queue's subscription options changed. */
    const subscribed = (edit: (options: Record<string, unknown>) => void): Recording => {
      const copy = broken("ApplicationsSubscriber", () => undefined);
      const f = copy.named("sst.aws.Function", "ApplicationsSubscriber");
      edit(f.subscribedTo?.options as Record<string, unknown>);
      return copy;
    };
    expect(
      queueProblems(
        subscribed((options) => {
          delete options.transform;
        }),
      ),
    ).toEqual(["queue Applications: maximumConcurrency undefined is not set within Lambda's 2 to 1,000"]);
    expect(
      queueProblems(
        subscribed((options) => {
          options.transform = { eventSourceMapping: { scalingConfig: { maximumConcurrency: 100 } } };
        }),
      ),
    ).toEqual([
      `queue Applications: 100 batches × 8 writes is over 3 in flight per each of ${WATCH_SHARDS} shard keys`,
    ]);
    const unknownAudit = broken("AuditFailing", (args) => {
      args.event = { audit: "nope" };
    });
    expect(scheduleProblems(unknownAudit).join("")).toMatch(/schedule AuditFailing: .*nope/);
    const badSummary = broken("AuditFailing", (args) => {
      args.event = { report: { since: "7 days", publish: true } };
    });
    expect(scheduleProblems(badSummary).join("")).toMatch(/schedule AuditFailing: .*report\.since/);
    const wrongIndex = broken("ApplicationStatus", (args) => {
      const indexes = args.globalIndexes as Record<string, { hashKey: string; rangeKey: string }>;
      indexes.byQuarantineCode = { hashKey: "qk", rangeKey: "ts" };
    });
    expect(tableProblems(wrongIndex).join("")).toMatch(/table ApplicationStatus: declared/);
    const shortProjection = broken("ApplicationStatus", (args) => {
      const indexes = args.globalIndexes as Record<string, { projection?: string[] }>;
      indexes.byWatch?.projection?.pop();
    });
    expect(tableProblems(shortProjection).join("")).toMatch(/table ApplicationStatus: declared/);
    const unprotected = broken("AuditTable", (args) => {
      args.deletionProtection = false;
    });
    expect(protectionProblems(unprotected, true)).toEqual([
      "stage prod: table AuditTable deletionProtection is false",
    ]);
    expect(alarmProblems(broken("AuditErrors"))).toEqual(["function Audit has no errors alarm"]);
    const noDuration = "function Audit: no Duration alarm between half its timeout and 270000 ms";
    expect(alarmProblems(broken("AuditDuration"))).toEqual([noDuration]);
    const atTimeout = broken("AuditDuration", (args) => {
      args.threshold = 300_000;
    });
    expect(alarmProblems(atTimeout)).toEqual([noDuration]);
    expect(alarmProblems(broken("AuditThrottles"))).toEqual([
      "function Audit has reserved concurrency 4 and no throttles alarm",
    ]);
    const noAge = "queue Applications (ApplicationsSubscriber) has no age alarm between 1265 s and an hour";
    expect(alarmProblems(broken("ApplicationsQueueStalled"))).toEqual([noAge]);
    const retriesRaiseIt = broken("ApplicationsQueueStalled", (args) => {
      args.threshold = 600;
    });
    expect(alarmProblems(retriesRaiseIt)).toEqual([noAge]);
    const noLink = broken("AuditThrottles", (args) => {
      args.alarmDescription = "fleet-auditor prod: throttled";
    });
    expect(alarmProblems(noLink)).toEqual([
      "alarm AuditThrottles: its description does not name its runbook",
    ]);
    const renamed = structuredClone(r.declared);
    const throttles = renamed.find((d) => d.name === "AuditThrottles") as Declared;
    throttles.name = "AuditThrottled";
    throttles.args.alarmDescription = "fleet-auditor prod: throttled (runbook: docs/operate.md#throttles)";
    const unbooked: Recording = {
      ...r,
      declared: renamed,
      of: (kind) => renamed.filter((d) => d.kind === kind),
    };
    expect(alarmProblems(unbooked)).toEqual([
      "alarm AuditThrottled is not named in its runbook entry #throttles",
    ]);
    const anchorless = broken("AuditThrottles", (args) => {
      args.alarmDescription = "fleet-auditor prod: throttled (runbook: docs/operate.md#throttled)";
    });
    expect(alarmProblems(anchorless)).toEqual([
      "alarm AuditThrottles: docs/operate.md has no heading #throttled",
    ]);
  });
});
