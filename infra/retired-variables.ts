// The deploy-time variables that `stages.json` replaced. A shell that still sets one meant
// something by it (a subscription, a schedule, a region): ignoring it would drop that in silence,
// so the deploy fails naming each and where it moved.

/** Each retired variable, and the `stages.json` field that holds what it said. */
export const RETIRED_VARIABLES: Readonly<Record<string, string>> = {
  FLEET_AUDITOR_ALERT_EMAILS: "alertEmails",
  FLEET_AUDITOR_PAGER_EMAIL: "pagerEmail",
  FLEET_AUDITOR_OPS_EMAIL: "opsEmail",
  FLEET_AUDITOR_CHATBOT_TEAM_ID: "chatbot.teamId",
  FLEET_AUDITOR_CHATBOT_CHANNEL_ID: "chatbot.channelId",
  FLEET_AUDITOR_SLACK: "slack.way",
  FLEET_AUDITOR_SLACK_CHANNEL: "slack.channel",
  FLEET_AUDITOR_PAGERDUTY: "pagerDuty",
  FLEET_AUDITOR_SCHEDULES: "schedules.enabled",
  FLEET_AUDITOR_REGION: "region",
};

/**
 * Throws when `env` sets a retired variable, naming each and its field in `stages.json`. An empty
 * one is left alone: it meant "none" before, so nothing is lost.
 */
export function refuseRetiredVariables(env: NodeJS.ProcessEnv): void {
  const set = Object.entries(RETIRED_VARIABLES).filter(([name]) => env[name]);
  if (set.length === 0) return;
  const moved = set.map(([name, field]) => `  ${name}: now the stage's "${field}"`).join("\n");
  throw new Error(
    `deploy-time variables are no longer read; per-stage settings live in stages.json (docs/deploy.md#stage-settings-stagesjson). Unset these and put what they said there:\n${moved}`,
  );
}
