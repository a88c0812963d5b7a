import { parseConfig, SlackActionsEnvSchema, SlackEnvSchema } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";

// The Slack actions function's variables, and the Slack function's SLACK_INTERACTIVITY: parsed at
// cold start, each problem naming its variable and never repeating a secret.

const actions = {
  SLACK_SIGNING_SECRET_ARN:
    "arn:aws:secretsmanager:eu-central-1:123456789012:secret:fleet-auditor/prod/SlackSigningSecret-AbC123",
  SLACK_TEAM_ID: "T0123ABCD",
  SLACK_CHANNEL: "C0123ABCD",
  AUDIT_TABLE: "fleet-auditor-prod-AuditTable",
  INCIDENT_TOPIC_ARN: "arn:aws:sns:eu-central-1:123456789012:fleet-auditor-prod-Incidents",
  CRITICAL_TOPIC_ARN: "arn:aws:sns:eu-central-1:123456789012:fleet-auditor-prod-Critical",
};
const refusal = (
  schema: Parameters<typeof parseConfig>[0],
  env: Record<string, string | undefined>,
): string => {
  try {
    parseConfig(schema, env);
    return "taken";
  } catch (err) {
    return (err as Error).message;
  }
};

describe("the Slack actions function's variables", () => {
  it("give the signing secret's place, the workspace and channel whose clicks count, Slack's response URLs and the core's table and topics", () => {
    expect(parseConfig(SlackActionsEnvSchema, actions)).toMatchObject({
      signingSecret: { variable: "SLACK_SIGNING_SECRET", secretId: actions.SLACK_SIGNING_SECRET_ARN },
      rules: { teamId: "T0123ABCD", channelId: "C0123ABCD", responseUrlPrefix: "https://hooks.slack.com/" },
      core: {
        auditTable: actions.AUDIT_TABLE,
        incidentTopicArn: actions.INCIDENT_TOPIC_ARN,
        criticalTopicArn: actions.CRITICAL_TOPIC_ARN,
      },
    });
    // The landscape's name, as the audit functions have it: the incident's thread is named by it.
    expect(parseConfig(SlackActionsEnvSchema, { ...actions, LANDSCAPE: "prod-eu" }).core).toMatchObject({
      landscape: "prod-eu",
    });
    expect(refusal(SlackActionsEnvSchema, { ...actions, LANDSCAPE: "prod eu" })).toMatch(/LANDSCAPE/);
  });

  it("refuse a missing secret, a workspace or channel that is no ID, and response URLs over plain http elsewhere than loopback", () => {
    const { SLACK_SIGNING_SECRET_ARN: _, ...noSecret } = actions;
    expect(refusal(SlackActionsEnvSchema, noSecret)).toMatch(/SLACK_SIGNING_SECRET: is required/);
    expect(refusal(SlackActionsEnvSchema, { ...actions, SLACK_TEAM_ID: "acme" })).toMatch(
      /SLACK_TEAM_ID: expected a Slack workspace ID/,
    );
    expect(refusal(SlackActionsEnvSchema, { ...actions, SLACK_CHANNEL: "#alerts" })).toMatch(
      /SLACK_CHANNEL: expected the ID of the bot's channel/,
    );
    expect(
      refusal(SlackActionsEnvSchema, { ...actions, SLACK_RESPONSE_URL_PREFIX: "http://hooks.example/" }),
    ).toMatch(/SLACK_RESPONSE_URL_PREFIX: expected an https: URL/);
    expect(
      refusal(SlackActionsEnvSchema, { ...actions, SLACK_RESPONSE_URL_PREFIX: "http://127.0.0.1:9/" }),
    ).toBe("taken");
    const pasted = refusal(SlackActionsEnvSchema, { ...actions, SLACK_SIGNING_SECRET: "s3cr3t-value\n" });
    expect(pasted).toMatch(/SLACK_SIGNING_SECRET: has a line break/);
    expect(pasted).not.toContain("s3cr3t-value");
  });
});

describe("SLACK_INTERACTIVITY of the Slack function", () => {
  const bot = { SLACK_BOT_TOKEN: "xoxb-1", SLACK_CHANNEL: "C0123ABCD", AUDIT_TABLE: "t-audit" };
  it("puts the buttons on a bot's messages when true, and not otherwise", () => {
    const on = parseConfig(SlackEnvSchema, { ...bot, SLACK_INTERACTIVITY: "true" });
    expect(on.slack).toMatchObject({ kind: "bot", interactivity: true });
    expect(parseConfig(SlackEnvSchema, bot).slack).toMatchObject({ kind: "bot", interactivity: false });
    expect(refusal(SlackEnvSchema, { ...bot, SLACK_INTERACTIVITY: "yes" })).toMatch(
      /SLACK_INTERACTIVITY: expected true or false/,
    );
  });

  it("is refused with an incoming webhook, whose messages no app is sent the clicks of", () => {
    expect(
      refusal(SlackEnvSchema, {
        SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T/B/x",
        SLACK_INTERACTIVITY: "true",
      }),
    ).toMatch(/SLACK_INTERACTIVITY: is true without SLACK_BOT_TOKEN/);
  });
});
