import { coerce, NEVER, object, optional, type output, string } from "zod";
import { IncidentRetentionDaysSchema, LandscapeSchema, TopicArnSchema } from "./audit-config.ts";
import { SecretIdSchema, type SecretRef, secretRef } from "./secret.ts";
import { secretVariable } from "./secret-variable.ts";

/**
 * Variables of the PagerDuty webhook function (a v3 webhook subscription's deliveries, through a
 * Lambda function URL): the subscription's signing secret (`PAGERDUTY_WEBHOOK_SECRET`, or
 * deployed the Secrets Manager secret that holds it, `PAGERDUTY_WEBHOOK_SECRET_ARN`), the
 * PagerDuty service whose incidents the stage pages (`PAGERDUTY_SERVICE_ID`: any other's are
 * refused), how old an event may be and still be applied (`PAGERDUTY_WEBHOOK_MAX_AGE_MINUTES`,
 * default 30: PagerDuty retries a failed delivery for about 20 minutes, and an older one is a
 * replay), and where the incidents are (`AUDIT_TABLE`, the topics the acknowledgement is told on,
 * `LANDSCAPE` as the audit functions have it: the incident's thread is named by it).
 * The secret is never repeated in a problem.
 */
export const PagerDutyWebhookEnvSchema = object({
  PAGERDUTY_WEBHOOK_SECRET: optional(secretVariable()),
  PAGERDUTY_WEBHOOK_SECRET_ARN: SecretIdSchema,
  PAGERDUTY_SERVICE_ID: string().regex(
    /^[A-Za-z0-9]{1,32}$/,
    "expected a PagerDuty service ID such as PF9KMXH",
  ),
  PAGERDUTY_WEBHOOK_MAX_AGE_MINUTES: coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  AUDIT_TABLE: string().min(3),
  INCIDENT_TOPIC_ARN: optional(TopicArnSchema),
  CRITICAL_TOPIC_ARN: optional(TopicArnSchema),
  LANDSCAPE: LandscapeSchema,
  INCIDENT_RETENTION_DAYS: IncidentRetentionDaysSchema,
}).transform(({ PAGERDUTY_WEBHOOK_SECRET, PAGERDUTY_WEBHOOK_SECRET_ARN, ...rest }, ctx) => {
  const secret: SecretRef | undefined = secretRef(
    "PAGERDUTY_WEBHOOK_SECRET",
    PAGERDUTY_WEBHOOK_SECRET,
    PAGERDUTY_WEBHOOK_SECRET_ARN,
    secretVariable(),
  );
  if (!secret) {
    ctx.addIssue({
      code: "custom",
      path: ["PAGERDUTY_WEBHOOK_SECRET"],
      message: "is required (or PAGERDUTY_WEBHOOK_SECRET_ARN, the Secrets Manager secret that holds it)",
    });
    return NEVER;
  }
  return { PAGERDUTY_WEBHOOK_SECRET: secret, ...rest };
});

/** The PagerDuty webhook function's parsed configuration. */
export type PagerDutyWebhookEnv = output<typeof PagerDutyWebhookEnvSchema>;
