import { EdgeThresholdsEnvSchema } from "@fleet-auditor/kubeedge-audit";
import {
  AlertingEnvSchema,
  groupByEnvSchema,
  inhibitRulesEnvSchema,
  TopicArnSchema,
} from "@fleet-auditor/use-cases";
import { object, optional, type output, preprocess, string, type ZodType } from "zod";
import { KNOWN_AUDITS } from "./audits.ts";

// An empty variable (`AUDIT_TABLE= fleet-auditor …`) means unset, as shells make it easy to write.
const unsetIfEmpty = <T>(schema: ZodType<T>) =>
  preprocess((v) => (v === "" ? undefined : v), optional(schema));

/**
 * The variables the CLI itself reads, parsed once at its start. Each AWS variable switches its
 * part from the embedded store to AWS; the KEB connection (`KEB_*`) is parsed by `run`, where the
 * `--keb-url` flag can stand in for `KEB_URL`. The message settings (`LANDSCAPE`, link
 * templates, `GROUP_BY_<AUDIT>` and `INHIBIT_RULES_<AUDIT>` for each audit the CLI registers, …) are the audit functions' own.
 */
export const CliEnvSchema = object({
  /** The audit table (snapshots, ledger, silences) on DynamoDB. */
  AUDIT_TABLE: unsetIfEmpty(string()),
  /** The alert topic; `run` needs it together with `AUDIT_TABLE`. */
  ALERT_TOPIC_ARN: unsetIfEmpty(TopicArnSchema),
  /** With AWS: critical digests are also published to this topic. */
  CRITICAL_TOPIC_ARN: unsetIfEmpty(TopicArnSchema),
  /** With AWS: one message per incident with news is published to this topic. */
  INCIDENT_TOPIC_ARN: unsetIfEmpty(TopicArnSchema),
  /** The Application status table on DynamoDB. */
  STATUS_TABLE: unsetIfEmpty(string()),
  /** The SDK's region: the commands messages suggest name it beside the tables. */
  AWS_REGION: unsetIfEmpty(string()),
})
  .extend(AlertingEnvSchema.shape)
  .extend(EdgeThresholdsEnvSchema.shape)
  .and(groupByEnvSchema(KNOWN_AUDITS.audits))
  .and(inhibitRulesEnvSchema(KNOWN_AUDITS.audits));

export type CliEnv = output<typeof CliEnvSchema>;
