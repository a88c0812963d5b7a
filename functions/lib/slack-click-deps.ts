import { createHttpAgent } from "@fleet-auditor/http/agent";
import { SlackResponder } from "@fleet-auditor/notify";
import {
  type RunLogger,
  type SecretReader,
  type SlackActionsEnv,
  type SlackClickDeps,
  secretOf,
} from "@fleet-auditor/use-cases";

/**
 * What `answerSlackClick` takes, once per cold start: the signing secret (read from Secrets
 * Manager through `secrets`, cached 5 minutes), the workspace and channel whose clicks count, the
 * answer through a click's `response_url` (notify's `SlackResponder` on the process's undici
 * agent, through the proxy the environment names) and `act`, the incident actions core.
 */
export function slackClickDeps(
  env: SlackActionsEnv,
  log: RunLogger,
  secrets: SecretReader,
  act: SlackClickDeps["act"],
): SlackClickDeps {
  const responder = new SlackResponder({ dispatcher: createHttpAgent({ proxy: env.proxy }) });
  return {
    signingSecret: secretOf(env.signingSecret, secrets),
    rules: env.rules,
    act,
    respond: (url, response, deadline) => responder.respond(url, response, deadline),
    log,
  };
}
