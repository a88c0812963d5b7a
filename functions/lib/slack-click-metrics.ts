import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import type { SlackClickAnswer } from "@fleet-auditor/use-cases";

/** The function's metrics' `service` dimension: what the `SlackActionRefusals` alarm names. */
export const SLACK_ACTIONS_SERVICE = "slack-actions";

/**
 * The EMF metrics of one request to the Slack actions function. A refusal counts
 * `SlackActionRefused` twice: with its `reason` dimension (`bad-signature`, `stale`, `unsigned`,
 * `too-large`, `method`, `malformed`, `forbidden`, `unknown-incident`), for the dashboard and the
 * runbook; and, unless it is a click on an incident that has since ended (`unknown-incident`, no
 * one's fault), without it, for the `SlackActionRefusals` alarm. An applied action counts
 * `SlackActionApplied`. Each is a custom metric on the bill only once a request prints it
 * (docs/capacity.md#cost).
 */
export function recordClick(metrics: Metrics, answer: SlackClickAnswer): void {
  if (answer.outcome === "applied" || answer.outcome === "already") {
    if (answer.outcome === "applied") metrics.addMetric("SlackActionApplied", MetricUnit.Count, 1);
    return;
  }
  const byReason = metrics.singleMetric();
  byReason.addDimension("reason", answer.outcome);
  byReason.addMetric("SlackActionRefused", MetricUnit.Count, 1);
  if (answer.outcome !== "unknown-incident") metrics.addMetric("SlackActionRefused", MetricUnit.Count, 1);
}
