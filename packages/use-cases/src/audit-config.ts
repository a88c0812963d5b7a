import {
  type AlertPolicy,
  type AuditDefinition,
  type LinkTemplates,
  templateCanLink,
} from "@fleet-auditor/audit";
import { coerce, object, enum as oneOf, optional, type output, string, type ZodType } from "zod";
import type { AuditGrouping } from "./audit-registry.ts";
import { RoutesJsonSchema } from "./route-config.ts";
import type { AuditRunSettings } from "./run-deps.ts";

const positiveInt = (fallback: number) => coerce.number().int().positive().default(fallback);

/**
 * `INCIDENT_RETENTION_DAYS`: how long incident records, timelines and what actions keep beside
 * them live after their last event (DynamoDB TTL); the audit functions and the two inbound ones
 * read it alike.
 */
export const IncidentRetentionDaysSchema = positiveInt(90);

/** An SNS topic ARN, in any partition. */
export const TopicArnSchema = string().regex(
  /^arn:aws[a-z-]*:sns:[^:]+:\d{12}:[\w-]+$/,
  "expected an SNS topic ARN",
);

// Messages carry a link only when it is a plain https URL once normalised (`fillTemplate`): a
// template that can never give one is refused here rather than give no link in silence.
const template = () =>
  optional(
    string().refine(templateCanLink, {
      message:
        "expected an https: URL template without <, > or |, such as https://console.example/runtimes/{instanceID}",
    }),
  );

// The labels that make an incident, per audit: label names it has, comma-separated. A name the
// audit's findings do not carry would group everything under one empty value, so it is refused.
const groupBy = (audit: AuditDefinition) =>
  optional(
    string()
      .transform((v) => v.split(","))
      .refine((names) => names.length <= 10 && names.every((n) => audit.labels.includes(n)), {
        message: `expected at most 10 of the ${audit.name} audit's labels, comma-separated: ${audit.labels.join(", ")}`,
      }),
  );

/**
 * `GROUP_BY_<AUDIT>` for each of `audits` (the name upper-cased): at most 10 of the audit's
 * labels, comma-separated, parsed to the registry's grouping (`AuditRegistry`). A process parses
 * it for the audits it registers, beside `AlertingEnvSchema`.
 */
export function groupByEnvSchema(
  audits: readonly AuditDefinition[],
): ZodType<Pick<AuditGrouping, "groupBy">> {
  const variable = (audit: AuditDefinition): string => `GROUP_BY_${audit.name.toUpperCase()}`;
  return object(Object.fromEntries(audits.map((a) => [variable(a), groupBy(a)]))).transform((vars) => ({
    groupBy: new Map(
      audits.flatMap((a): Array<[string, string[]]> => {
        const labels = vars[variable(a)];
        return labels ? [[a.name, labels]] : [];
      }),
    ),
  }));
}

/**
 * `LANDSCAPE`: the landscape's name in every subject and title, and in Chatbot's thread IDs. Every
 * process that tells something of an incident takes it (an audit run, the incident actions of the
 * Slack buttons and the PagerDuty webhook), so that what it tells lands in the incident's thread.
 */
export const LandscapeSchema = optional(
  string().regex(/^[\w.-]{1,40}$/, "expected a short name such as prod-eu"),
);

/**
 * How messages read, for the function and the CLI alike: the landscape's name, link templates
 * (placeholders: a finding's labels such as `{instance}`, `{region}`, `{reason}`, `{node}`; the
 * names of before, `{instanceID}`, `{runtimeID}`, `{shootName}`, `{globalAccountID}`,
 * `{subAccountID}`, `{key}`; and `{runId}`), group collapsing and the degraded notice. How each
 * audit groups is `groupByEnvSchema`'s, for the audits a process registers.
 */
export const AlertingEnvSchema = object({
  LANDSCAPE: LandscapeSchema,
  RUNTIME_URL_TEMPLATE: template(),
  RUNBOOK_URL_TEMPLATE: template(),
  REPORT_URL_TEMPLATE: template(),
  GROUP_COLLAPSE_AT: coerce.number().int().nonnegative().default(20),
  /**
   * Deprecated: `per-runtime` is an alias of `GROUP_BY_<AUDIT>=instance` for the audits whose
   * findings have an `instance` (each runtime its own incident, so its own chat thread); the
   * storm fallback it had is `MAX_NEW_INCIDENT_MESSAGES` now (`STORM_THRESHOLD` is ignored).
   */
  NOTIFY_MODE: oneOf(["digest", "per-runtime"]).default("digest"),
  DEGRADED_AFTER_RUNS: positiveInt(3),
});
export type AlertingEnv = output<typeof AlertingEnvSchema>;

/** How a run's messages read and go out, as the variables say: the function and the CLI alike. */
export function messagingFrom(
  env: AlertingEnv,
): Pick<AuditRunSettings, "landscape" | "links" | "collapseAt" | "degradedAfterRuns"> {
  return {
    ...(env.LANDSCAPE ? { landscape: env.LANDSCAPE } : {}),
    links: linksFrom(env),
    collapseAt: env.GROUP_COLLAPSE_AT,
    degradedAfterRuns: env.DEGRADED_AFTER_RUNS,
  };
}

/** The link templates the variables describe. */
export function linksFrom(env: AlertingEnv): LinkTemplates {
  return {
    ...(env.RUNTIME_URL_TEMPLATE ? { runtime: env.RUNTIME_URL_TEMPLATE } : {}),
    ...(env.RUNBOOK_URL_TEMPLATE ? { runbook: env.RUNBOOK_URL_TEMPLATE } : {}),
    ...(env.REPORT_URL_TEMPLATE ? { report: env.REPORT_URL_TEMPLATE } : {}),
  };
}

/** Variables of an audit run besides the KEB connection. */
export const AuditEnvSchema = object({
  AUDIT_TABLE: string().min(3),
  /** Set by Lambda: the commands messages suggest name it beside the tables they act on. */
  AWS_REGION: optional(string().min(1)),
  ALERT_TOPIC_ARN: TopicArnSchema,
  /** Critical digests are also published here (a pager's topic, subscribed without a filter). */
  CRITICAL_TOPIC_ARN: optional(TopicArnSchema),
  /** One message per incident with news goes here (Chatbot, the Slack function); none without it. */
  INCIDENT_TOPIC_ARN: optional(TopicArnSchema),
  /** New incidents that get a message of their own in one run; the rest share a roll-up. */
  MAX_NEW_INCIDENT_MESSAGES: positiveInt(10),
  FIRE_AFTER_RUNS: positiveInt(1),
  RESOLVE_AFTER_RUNS: positiveInt(1),
  REPEAT_INTERVAL_HOURS: positiveInt(24),
  KEB_CONCURRENCY: positiveInt(4),
  LEDGER_RETENTION_DAYS: positiveInt(30),
  /** Incident records and timelines are kept this long after their last event (DynamoDB TTL). */
  INCIDENT_RETENTION_DAYS: IncidentRetentionDaysSchema,
  LEASE_MINUTES: positiveInt(15),
  MAX_CLOCK_SKEW_HOURS: positiveInt(48),
  /**
   * An audit's first scheduled run on the stage: `baseline` (record the backlog, one notice) or
   * `notify` (tell it). The deploy sets it from the stage's `firstRun` (default baseline); unset,
   * a process tells, as before the setting existed.
   */
  FIRST_RUN: oneOf(["baseline", "notify"]).default("notify"),
  /** The stage's routes as JSON (stages.json's `routes`); unset, today's (`routesFor`). */
  ROUTES: optional(RoutesJsonSchema),
});

/** The alert policy the variables describe. */
export function policyFrom(env: output<typeof AuditEnvSchema>): AlertPolicy {
  return {
    fireAfterRuns: env.FIRE_AFTER_RUNS,
    resolveAfterRuns: env.RESOLVE_AFTER_RUNS,
    repeatIntervalMs: env.REPEAT_INTERVAL_HOURS * 3_600_000,
  };
}
