import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import type { FunctionUrlEvent } from "@fleet-auditor/inbound";
import { answerSlackClick, parseConfig, SlackActionsEnvSchema } from "@fleet-auditor/use-cases";
import { incidentActor } from "./lib/incident-actor.ts";
import { secretsOnFirstRead } from "./lib/secret-reader.ts";
import { slackClickDeps } from "./lib/slack-click-deps.ts";
import { recordClick, SLACK_ACTIONS_SERVICE } from "./lib/slack-click-metrics.ts";
import { functionStack } from "./lib/stack.ts";

// Cold start: configuration (fails here, naming the variable, never echoing the signing secret),
// the answer to clicks through their response_url, and the incident actions core, once. The
// signing secret is read from Secrets Manager at the first request (cached 5 minutes).
const env = parseConfig(SlackActionsEnvSchema, process.env);
const logger = new Logger({ serviceName: "fleet-auditor" });
const metrics = new Metrics({ namespace: "FleetAuditor", serviceName: SLACK_ACTIONS_SERVICE });
const deps = slackClickDeps(env, logger, secretsOnFirstRead(), incidentActor(env.core, logger));
// Slack wants an answer within 3 seconds: the answer to the click must be posted before then.
const ANSWER_WITHIN_MS = 2_500;

/**
 * The Slack app's interactivity Request URL (a Lambda function URL): a click on an incident
 * message's button (Acknowledge, Silence 4h, Silence 24h). Verified as Slack signs it before
 * anything is parsed, then acted on by the incident actions core, answered in the message clicked
 * on, and answered 200; a refused request (401, 403, 400, 405, 413, or 200 for a key with no open
 * incident) reaches no core and is counted (`SlackActionRefused`). The use case is
 * `answerSlackClick` (`slack-click.ts`), verification and parsing `@fleet-auditor/inbound`.
 */
export const handler = functionStack<FunctionUrlEvent, { statusCode: number; body: string }>(
  logger,
  metrics,
).handler(async (event, context) => {
  const now = Date.now();
  const deadline = now + Math.min(ANSWER_WITHIN_MS, context.getRemainingTimeInMillis() - 500);
  const { outcome, detail, ...answer } = await answerSlackClick(deps, event, now, deadline);
  logger.info(outcome === "applied" || outcome === "already" ? "click acted on" : "request refused", {
    outcome,
    ...(detail ? { detail } : {}),
  });
  recordClick(metrics, { outcome, ...answer });
  return answer;
});
