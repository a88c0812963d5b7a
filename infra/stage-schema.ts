// The schema of `stages.json`: what each stage of a deployment is (where it runs, who hears it,
// how its messages read, when it audits). Pure: `infra/stage-config.ts` reads the file against
// it, `npm run schema` writes it as JSON Schema (`schemas/fleet-auditor.stages.schema.json`) for
// editors, and a test keeps the two equal.

import {
  type AuditDefinition,
  MAX_RULE_PARTS,
  parseMatchers,
  ROUTE_INTERVAL,
  ROUTE_INTERVAL_RULE,
  ROUTE_NAME,
  ROUTE_NAME_RULE,
  repeatedRouteNames,
  ruleMatcherProblem,
  templateCanLink,
} from "@fleet-auditor/audit";
import { KEB_AUDITS } from "@fleet-auditor/keb-audits/audits";
import { applicationsAudit } from "@fleet-auditor/kubeedge-audit/audits";
import { z } from "zod";
import { AWS_REGIONS, CHATBOT_REGIONS, DEFAULT_CHATBOT_REGION } from "./aws-regions.ts";

// The audits the functions register (their definitions alone: the plug-ins' pure subpaths).
const AUDITS: readonly AuditDefinition[] = [...KEB_AUDITS, applicationsAudit];

/** An SST-style duration: "90 seconds", "15 minutes", "2 hours", "1 day". */
const DurationSchema = z
  .string()
  .regex(/^\d+ (second|minute|hour|day)s?$/, 'expected a duration such as "15 minutes" or "2 hours"');

// A rate's period is its gap; a cron has no single period (`0 8,12 * * ? *`), and a daily cron in
// a timezone with summer time has a 25-hour gap once a year: it states its longest gap, which its
// not-running alarm waits for (twice).
// EventBridge Scheduler takes a rate's unit singular for 1 and plural otherwise, in whole minutes,
// hours or days; anything else fails the deploy at CreateSchedule, after half the stack is made.
const AuditScheduleSchema = z.union([
  z
    .string()
    .regex(
      /^rate\((1 (minute|hour|day)|([2-9]|[1-9]\d+) (minutes|hours|days))\)$/,
      'expected "rate(15 minutes)", or { "schedule": "cron(...)", "maxGap": "2 hours" }: a cron states the longest gap between two of its runs',
    ),
  z.strictObject({
    schedule: z.string().regex(/^cron\(.+\)$/, "expected cron(...)"),
    maxGap: DurationSchema.describe("the longest gap between two runs, for the not-running alarm"),
  }),
]);

const SchedulesSchema = z
  .strictObject({
    enabled: z.boolean().describe("Whether the audits run on schedule (and their missing-run alarms exist)."),
    timezone: z
      .string()
      .refine(knownTimeZone, "expected an IANA time zone such as Europe/Berlin")
      .optional()
      .describe("The schedules' IANA timezone; UTC when not given."),
    failing: AuditScheduleSchema.optional().describe('Default "rate(15 minutes)".'),
    expired: AuditScheduleSchema.optional().describe('Default hourly: cron(0 * * * ? *), maxGap "1 hour".'),
    applications: AuditScheduleSchema.optional().describe('Default "rate(5 minutes)".'),
  })
  .describe("When each audit runs. Not given: not scheduled (a developer's stage does not poll KEB).");

const IncidentSummarySchema = z
  .union(
    [
      z.literal(true),
      z.strictObject({
        schedule: z
          .string()
          .regex(
            /^(cron\(.+\)|rate\((1 (hour|day)|([2-9]|[1-9]\d+) (hours|days))\))$/,
            'expected cron(...) such as "cron(0 8 ? * MON *)", or rate(...) in hours or days',
          )
          .optional()
          .describe('When it is sent; default "cron(0 8 ? * MON *)": Mondays at 08:00.'),
        since: z
          .string()
          .regex(/^[1-9]\d{0,4}[mhd]$/, 'expected a window such as "7d" or "24h"')
          .optional()
          .describe(
            'The window it summarises, ending when it is sent, no longer than incidentRetentionDays; default "7d".',
          ),
        timezone: z
          .string()
          .refine(knownTimeZone, "expected an IANA time zone such as Europe/Berlin")
          .optional()
          .describe(
            "The schedule's IANA time zone; the audits' (schedules.timezone) when not given, else UTC.",
          ),
      }),
    ],
    { error: 'expected true, or { "schedule", "since", "timezone" }' },
  )
  .describe(
    "A summary of the window's incidents (counts, time to resolve, breakdowns, flapping, noisiest) sent to the Alerts topic on a schedule: true for Mondays at 08:00 over the last 7 days, in the stage's time zone. Not given: none (docs/operate.md#the-incident-summary).",
  );

const UrlTemplateSchema = z.string().refine(templateCanLink, {
  message:
    "expected an https: URL template without <, > or |, such as https://console.example/runtimes/{instanceID}",
});

/** Each audit's labels, as a list its `groupBy` may name (at most 10, as the function allows). */
const groupByOf = (labels: readonly string[]) =>
  z
    .array(z.enum(labels as [string, ...string[]]))
    .min(1)
    .max(10);
const GroupBySchema = z
  .strictObject(
    Object.fromEntries(AUDITS.map((a) => [a.name, groupByOf(a.labels).optional()])) as Record<
      string,
      z.ZodOptional<ReturnType<typeof groupByOf>>
    >,
  )
  .describe("The labels whose values make one incident, per audit (GROUP_BY_<AUDIT>).");

// Routes as the audit function reads them (`ROUTES`, parsed again there): Alertmanager's route,
// flattened. Matchers are text, as silences take them; `audit` and `severity` are labels too.
const ROUTE_LABELS = [...new Set(["audit", "severity", ...AUDITS.flatMap((a) => a.labels)])];
const MatcherTextSchema = z.string().superRefine((text, ctx) => {
  try {
    if (parseMatchers(text).length === 0) ctx.addIssue({ code: "custom", message: "no matcher in it" });
  } catch (err) {
    ctx.addIssue({ code: "custom", message: (err as Error).message });
  }
});
const RouteSchema = z.strictObject({
  name: z
    .string()
    .regex(ROUTE_NAME, ROUTE_NAME_RULE)
    .describe("Unique: in its incidents' keys. `default` keeps the incident keys of before routes."),
  receiver: z
    .enum(["alerts", "incidents", "critical"])
    .describe("alerts: the run's e-mail digest; incidents: chat (Chatbot, Slack); critical: the pager."),
  matchers: z
    .array(MatcherTextSchema)
    .max(20)
    .optional()
    .describe('Label matchers, all of which must hold, such as "severity=critical" or "region=~eu-.*".'),
  groupBy: z
    .array(z.enum(ROUTE_LABELS as [string, ...string[]]))
    .max(10)
    .optional()
    .describe("The labels whose values make one of its incidents; the audit's groupBy when not given."),
  continue: z.boolean().optional().describe("Whether a finding it takes goes on to the next routes too."),
  maxNew: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe(
      "New incidents told on their own per run; the rest share one roll-up. Default 10 (3 for critical).",
    ),
  repeatInterval: z
    .string()
    .regex(ROUTE_INTERVAL, ROUTE_INTERVAL_RULE)
    .optional()
    .describe(
      "How often a finding still firing is told again on this route (Alertmanager's repeat_interval); the stage's REPEAT_INTERVAL_HOURS when not given.",
    ),
});
const RoutesSchema = z
  .array(RouteSchema)
  .min(1)
  .max(20)
  .superRefine((routes, ctx) => {
    for (const { at, message } of repeatedRouteNames(routes))
      ctx.addIssue({ code: "custom", path: [at, "name"], message });
  })
  .describe(
    "Which findings each receiver hears, grouped how (ROUTES; docs/notifications.md#routes-and-storms). Not given: a default route to chat by each audit's groupBy, and a pager route of critical findings grouped by audit.",
  );

/**
 * One audit's inhibition rules (INHIBIT_RULES_<AUDIT>): matchers as silences take them, each
 * checked here (a bad one fails the deploy naming the rule and the field, not the function's start).
 */
const inhibitRulesOf = (audit: AuditDefinition) => {
  const matchers = z
    .array(
      z.string().superRefine((text, ctx) => {
        const problem = ruleMatcherProblem(text, audit.labels);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    )
    .min(1, "expected at least one matcher, such as state=refused")
    .max(MAX_RULE_PARTS);
  return z
    .array(
      z.strictObject({
        sourceMatchers: matchers.describe(
          'Matchers a firing finding must all meet to hold others back: "state=refused", "reason=~err_.*".',
        ),
        targetMatchers: matchers.describe("Matchers a finding must all meet to be held back."),
        equal: z
          .array(z.enum(audit.labels as [string, ...string[]]))
          .max(MAX_RULE_PARTS)
          .optional()
          .describe("Labels whose values the source and the target must share (absent reads as empty)."),
      }),
    )
    .max(50);
};
const InhibitRulesSchema = z
  .strictObject(
    Object.fromEntries(AUDITS.map((a) => [a.name, inhibitRulesOf(a).optional()])) as Record<
      string,
      z.ZodOptional<ReturnType<typeof inhibitRulesOf>>
    >,
  )
  .describe(
    "Inhibition rules per audit, after the audit's shipped ones (INHIBIT_RULES_<AUDIT>): while a finding matching sourceMatchers fires, findings matching targetMatchers with the same equal labels are held back (docs/concepts.md#inhibition).",
  );

const EmailSchema = z.email("expected an e-mail address");

/** Whether the runtime's time-zone database (IANA, as the scheduler's) knows `zone`. */
function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

// SNS refuses a filter policy whose attribute is given a bare value: each takes an array of
// values or matchers, or (payload filtering, `$or`) an object.
const FilterPolicySchema = z.record(
  z.string(),
  z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())], {
    error: 'expected an array of values such as ["critical"], or an object',
  }),
);

/** One stage's settings; every field optional, a stage's entry given onto the default's. */
export const StageSettingsSchema = z.strictObject({
  region: z
    .enum(AWS_REGIONS, { error: "expected an AWS region such as eu-central-1" })
    .optional()
    .describe("The AWS region the stage is deployed in; eu-central-1 when not given."),
  protected: z
    .boolean()
    .optional()
    .describe(
      "Whether the stage's data outlives a mistaken sst remove: the app retained and protected, the tables deletion-protected, the audit table with point-in-time recovery, the secrets with a 30-day recovery window. A protected stage must name who hears it.",
    ),
  retiringIndexes: z
    .boolean()
    .optional()
    .describe(
      "Keep the status table's retiring byNode and byQuarantine indexes (1.5 write units more per Application message): only on a stage deployed before byNodeId and byQuarantineCode, until those are ACTIVE (docs/kubeedge.md#changing-an-index). A fresh stage never gets them.",
    ),
  keb: z
    .strictObject({
      grant: z
        .enum(["client-credentials", "password"])
        .optional()
        .describe(
          'How the audit function gets its KEB token: "client-credentials" (the default: KebClientId linked, the client secret in Secrets Manager, KEB_CLIENT_SECRET_ARN) or "password" (KebClientId and KebUsername linked, the password in Secrets Manager, KEB_PASSWORD_ARN).',
        ),
      proxySecret: z
        .boolean()
        .optional()
        .describe(
          "true: the audit function reaches KEB through an https proxy whose URL, with its user:password@, is kept in Secrets Manager (HTTPS_PROXY_ARN), never in the function's environment. Default false.",
        ),
    })
    .optional()
    .describe("How the audit function reaches KEB and authenticates (docs/deploy.md#secrets)."),
  nodeIndex: z
    .boolean()
    .optional()
    .describe(
      "Give the status table the byNodeId index (node, id; keys only), which `apps status --node` reads: half a write unit more per Application message (every new row enters it). Without it, that query scans the table for the node's rows (docs/kubeedge.md#queries). Default false.",
    ),
  landscape: z
    .string()
    .regex(/^[\w.-]{1,40}$/, "expected a short name such as prod-eu")
    .optional()
    .describe(
      "The landscape's name in every subject and title (LANDSCAPE); the stage's name when not given.",
    ),
  links: z
    .strictObject({
      runtime: UrlTemplateSchema.optional().describe("RUNTIME_URL_TEMPLATE"),
      runbook: UrlTemplateSchema.optional().describe("RUNBOOK_URL_TEMPLATE"),
      report: UrlTemplateSchema.optional().describe("REPORT_URL_TEMPLATE"),
    })
    .optional()
    .describe("URL templates for links in messages (docs/configuration.md)."),
  groupBy: GroupBySchema.optional(),
  routes: RoutesSchema.optional(),
  inhibitRules: InhibitRulesSchema.optional(),
  incidentRetentionDays: z
    .number()
    .int()
    .min(1)
    .max(3650)
    .optional()
    .describe(
      "How long each incident's record and timeline are kept after its last event, in days (INCIDENT_RETENTION_DAYS; DynamoDB TTL): what `incidents list`, `stats` and the report can look back on. Default 90.",
    ),
  firstRun: z
    .enum(["baseline", "notify"])
    .optional()
    .describe(
      "What each audit's first scheduled run on the stage (no snapshot, no run recorded) does with what is already flagged (FIRST_RUN): baseline records it and sends one short notice (counts and the report command; never to the pager), notify tells it all as any run would. Default baseline.",
    ),
  docsUrl: z
    .url({ protocol: /^https$/, error: "expected an https: URL where docs/ is served" })
    .refine(
      (u) => !/[\s()]/.test(u),
      "expected an https: URL where docs/ is served, without spaces or parentheses",
    )
    .optional()
    .describe(
      "Where the repository's docs/ directory is served (https://github.com/ORG/REPO/blob/main/docs): each alarm's description links to its runbook there. Not given: the link is the repository-relative docs/operate.md#anchor.",
    ),
  reservedConcurrency: z
    .boolean()
    .optional()
    .describe(
      "false: no function reserves concurrency (Audit 4, ApplicationsAudit 2, Slack 1), and none has a Throttles alarm: for an account whose Lambda concurrency quota is too small to reserve any (a new or sandbox account's 10). Default true.",
    ),
  encryptTopics: z
    .boolean()
    .optional()
    .describe(
      "Encrypt the four SNS topics with a customer-managed KMS key of the stage's own (1 USD a month), which CloudWatch alarms and the audit functions may use: the AWS-managed alias/aws/sns cannot be used by CloudWatch.",
    ),
  alertEmails: z
    .array(
      z.strictObject({
        address: EmailSchema,
        filter: FilterPolicySchema.optional().describe(
          "An SNS filter policy (docs/deploy.md#routing-what-rests-on-filter-policies).",
        ),
      }),
    )
    .optional()
    .describe("E-mail subscriptions to the Alerts topic (the digests)."),
  pagerEmail: EmailSchema.optional().describe("An e-mail subscription to the Critical topic."),
  opsEmail: EmailSchema.optional().describe("An e-mail subscription to the Ops topic (the alarms)."),
  chatbot: z
    .strictObject({
      teamId: z.string().regex(/^T[A-Z0-9]+$/, "expected a Slack workspace ID such as T0123ABCD"),
      channelId: z.string().regex(/^[CG][A-Z0-9]+$/, "expected a Slack channel ID such as C0123ABCD"),
      region: z
        .enum(CHATBOT_REGIONS, {
          error: `expected one of the regions AWS Chatbot runs in: ${CHATBOT_REGIONS.join(", ")}`,
        })
        .optional()
        .describe(
          `Where the Chatbot configuration is made (AWS Chatbot's API exists in ${CHATBOT_REGIONS.join(", ")} only); ${DEFAULT_CHATBOT_REGION} when not given. The topics stay in the stage's region.`,
        ),
    })
    .optional()
    .describe("An AWS Chatbot Slack channel on the Incidents and Ops topics."),
  slack: z
    .discriminatedUnion("way", [
      z.strictObject({ way: z.literal("webhook") }),
      z.strictObject({
        way: z.literal("bot"),
        channel: z
          .string()
          .regex(/^[CG][A-Z0-9]+$/, "expected the ID of the channel the bot posts to, such as C0123ABCD"),
        interactivity: z
          .strictObject({
            teamId: z
              .string()
              .regex(/^T[A-Z0-9]+$/, "expected the ID of the Slack app's workspace, such as T0123ABCD"),
          })
          .optional()
          .describe(
            "Buttons on the bot's incident messages (Acknowledge, Silence 4h, Silence 24h), answered by the SlackActions function's URL (the Slack app's interactivity Request URL, output slackActionsUrl), its requests verified with the app's signing secret (SlackSigningSecret in Secrets Manager); clicks honoured from this workspace and the bot's channel only (docs/deploy.md#slack-buttons).",
          ),
      }),
    ])
    .optional()
    .describe("The Slack function on the Incidents topic: an incoming webhook, or a bot that threads."),
  pagerDuty: z
    .union([
      z.boolean(),
      z.strictObject({
        webhook: z
          .strictObject({
            serviceId: z
              .string()
              .regex(/^[A-Za-z0-9]{1,32}$/, "expected a PagerDuty service ID such as PF9KMXH")
              .describe(
                "The PagerDuty service the routing key's integration belongs to (PAGERDUTY_SERVICE_ID): incidents of any other service are refused.",
              ),
          })
          .optional()
          .describe(
            "PagerDuty back to the auditor: a v3 webhook subscription's deliveries (incident acknowledged, unacknowledged, resolved) reach a function URL of their own, verified by their signature (docs/deploy.md#pagerduty-webhook).",
          ),
      }),
    ])
    .optional()
    .describe(
      "The PagerDuty function on the Critical topic: true, or an object (the pager too) with its `webhook`.",
    ),
  schedules: SchedulesSchema.optional(),
  incidentSummary: IncidentSummarySchema.optional(),
});
export type StageSettings = z.output<typeof StageSettingsSchema>;

/**
 * `stages.json`: `default`, what every stage has, and `stages`, each stage's own entry. A field a
 * stage gives replaces the default's whole field (`schedules` too: no deep merge, so what a stage
 * deploys is read in two places at most); a stage not listed gets the default alone.
 */
export const StagesFileSchema = z.strictObject({
  $schema: z.string().optional(),
  default: StageSettingsSchema.default({}),
  stages: z
    .record(z.string().regex(/^[a-z][a-z0-9-]*$/, "expected a stage name such as prod"), StageSettingsSchema)
    .default({}),
});
export type StagesFile = z.output<typeof StagesFileSchema>;
