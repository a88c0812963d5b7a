import type { Logger } from "@aws-lambda-powertools/logger";
import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { type PagerDutyWebhookDeps, pagerDutyWebhook, type WebhookAnswer } from "@fleet-auditor/inbound";
import { type PagerDutyWebhookEnv, type SecretReader, secretOf } from "@fleet-auditor/use-cases";
import type { LambdaFunctionURLEvent, LambdaFunctionURLResult } from "aws-lambda";
import { functionStack } from "./stack.ts";

/**
 * The PagerDuty webhook function's handler, for a Lambda function URL (auth type NONE: the
 * signature is the authentication): each delivery answered by inbound's `pagerDutyWebhook`, with
 * the secret where the configuration says (Secrets Manager, by its ARN), the stage's service and
 * the acknowledgement core (`act`). Logs one line per delivery (never the body, the headers or the
 * secret) and counts, in EMF, `Refused` (each delivery refused, and each acknowledgement of an
 * incident unknown here: the `PagerDutyWebhookRefused` alarm) and `Ignored` (event types not acted
 * on, the auditor's own notices, resolves of incidents that had ended), each printed only when it
 * happens (docs/capacity.md#cost). An error of the core throws: the URL answers 502 and PagerDuty
 * retries.
 */
export function pagerDutyWebhookHandler(deps: {
  env: PagerDutyWebhookEnv;
  logger: Logger;
  metrics: Metrics;
  act: PagerDutyWebhookDeps["act"];
  secrets: SecretReader | undefined;
}) {
  const { env, logger, metrics } = deps;
  const answer = pagerDutyWebhook({
    secret: secretOf(env.PAGERDUTY_WEBHOOK_SECRET, deps.secrets),
    act: deps.act,
    serviceIds: [env.PAGERDUTY_SERVICE_ID],
    maxAgeMs: env.PAGERDUTY_WEBHOOK_MAX_AGE_MINUTES * 60_000,
    now: Date.now,
  });
  return functionStack<LambdaFunctionURLEvent, LambdaFunctionURLResult>(logger).handler(async (event) => {
    const answered = await answer({
      method: event.requestContext?.http?.method ?? "",
      headers: event.headers ?? {},
      ...(event.body === undefined ? {} : { body: event.body }),
      isBase64Encoded: event.isBase64Encoded === true,
    });
    record(logger, metrics, answered);
    return {
      statusCode: answered.statusCode,
      headers: { "content-type": "application/json" },
      body: answered.body,
    };
  });
}

/** The delivery's log line and its count. */
function record(logger: Logger, metrics: Metrics, a: WebhookAnswer): void {
  const fields = { status: a.statusCode, ...("eventId" in a && a.eventId ? { eventId: a.eventId } : {}) };
  if (a.result === "acted") {
    logger.info("PagerDuty event applied", {
      ...fields,
      action: a.action.kind,
      incidentKey: a.action.key,
      outcome: a.outcome,
      keys: a.keys.length,
    });
    return;
  }
  if (a.result === "refused")
    logger.warn("PagerDuty delivery refused", {
      ...fields,
      reason: a.reason,
      ...(a.problem ? { problem: a.problem } : {}),
    });
  else logger.info("PagerDuty event ignored", { ...fields, why: a.why });
  metrics.addMetric(a.result === "refused" ? "Refused" : "Ignored", MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
}
