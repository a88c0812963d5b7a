// The stage's SNS topics and who hears each: the e-mail subscriptions and the AWS Chatbot channel
// that stages.json names for the stage.

import { DEFAULT_CHATBOT_REGION } from "./aws-regions.ts";
import type { StageSettings } from "./stage-schema.ts";

/** The topics a run publishes to, and the alarms' own. */
export interface Topics {
  /** The run digests: e-mail subscribes here; subscriptions can filter on audit, severity, kinds. */
  alerts: sst.aws.SnsTopic;
  /** Critical incidents' opening and end, and health notices: what a pager hears, unfiltered. */
  critical: sst.aws.SnsTopic;
  /** One message per incident with news, threaded by its incidentKey: what chat follows. */
  incidents: sst.aws.SnsTopic;
  /** The alarms': their messages carry no audit or severity attribute for a filter to match. */
  ops: sst.aws.SnsTopic;
  /** The key the four are encrypted with, on a stage whose `encryptTopics` asks for it. */
  key?: aws.kms.Key;
}

/**
 * A customer-managed key for the topics. SNS encrypts at rest with it; each publisher needs
 * `kms:GenerateDataKey*` and `kms:Decrypt` on it: the audit functions by their grants
 * (`topicKeyAccess`), CloudWatch's alarms by this policy (the AWS-managed `alias/aws/sns` admits
 * no service principal, so alarms could not publish to a topic under it). Subscribers need
 * nothing: SNS decrypts before it delivers. The account's root keeps administering it.
 */
function topicKey(): aws.kms.Key {
  const account = aws.getCallerIdentityOutput({}).accountId;
  const partition = aws.getPartitionOutput({}).partition;
  return new aws.kms.Key("TopicKey", {
    description: `fleet-auditor ${$app.stage}: the SNS topics' key`,
    enableKeyRotation: true,
    policy: $jsonStringify({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "Account",
          Effect: "Allow",
          Principal: { AWS: $interpolate`arn:${partition}:iam::${account}:root` },
          Action: "kms:*",
          Resource: "*",
        },
        {
          Sid: "CloudWatchAlarms",
          Effect: "Allow",
          Principal: { Service: "cloudwatch.amazonaws.com" },
          Action: ["kms:Decrypt", "kms:GenerateDataKey*"],
          Resource: "*",
          Condition: { StringEquals: { "aws:SourceAccount": account } },
        },
      ],
    }),
  });
}

/** What a function that publishes to the topics needs of their key, when they have one. */
export function topicKeyAccess(t: Topics): Array<{ actions: string[]; resources: $util.Input<string>[] }> {
  return t.key ? [{ actions: ["kms:Decrypt", "kms:GenerateDataKey*"], resources: [t.key.arn] }] : [];
}

/** An e-mail subscription to a topic, with its filter policy when it has one. */
function email(name: string, topic: sst.aws.SnsTopic, address: string, filter?: Record<string, unknown>) {
  new aws.sns.TopicSubscription(name, {
    topic: topic.arn,
    protocol: "email",
    endpoint: address,
    ...(filter ? { filterPolicy: JSON.stringify(filter) } : {}),
  });
}

/**
 * The four topics (encrypted with a key of their own when the stage's `encryptTopics` asks), the
 * stage's e-mail subscriptions, and its Chatbot channel when it names one.
 */
export function topics(settings: StageSettings): Topics {
  const key = settings.encryptTopics ? topicKey() : undefined;
  const args = key ? { transform: { topic: { kmsMasterKeyId: key.arn } } } : {};
  const alerts = new sst.aws.SnsTopic("Alerts", args);
  for (const [i, { address, filter }] of (settings.alertEmails ?? []).entries())
    email(`AlertEmail${i + 1}`, alerts, address, filter);
  // A pager subscribes here without a filter, so its route does not rest on SNS applying filter
  // policies to a MessageStructure=json publish.
  const critical = new sst.aws.SnsTopic("Critical", args);
  if (settings.pagerEmail) email("PagerEmail", critical, settings.pagerEmail);
  // AWS Chatbot and the Slack function subscribe here; the e-mail digests stay on Alerts, so their
  // subscriptions stay as they are. Health notices go to both.
  const incidents = new sst.aws.SnsTopic("Incidents", args);
  const ops = new sst.aws.SnsTopic("Ops", args);
  if (settings.opsEmail) email("OpsEmail", ops, settings.opsEmail);
  if (settings.chatbot) chatbot(settings.chatbot, [incidents, ops]);
  return { alerts, critical, incidents, ops, ...(key ? { key } : {}) };
}

/**
 * AWS Chatbot in a Slack channel (the workspace must be authorized in the Chatbot console once).
 * Chatbot only relays notifications: its role may do nothing, and the guardrail says so. Its API
 * exists in four regions only (`CHATBOT_REGIONS`), not in the stage's (eu-central-1 by default),
 * so the configuration is made through a provider of its own region; it follows the topics where
 * they are, and the role is global.
 */
function chatbot(ids: NonNullable<StageSettings["chatbot"]>, follows: sst.aws.SnsTopic[]): void {
  const role = new aws.iam.Role("ChatbotRole", {
    assumeRolePolicy: JSON.stringify({
      Version: "2012-10-17",
      Statement: [
        { Effect: "Allow", Principal: { Service: "chatbot.amazonaws.com" }, Action: "sts:AssumeRole" },
      ],
    }),
  });
  new aws.chatbot.SlackChannelConfiguration(
    "Chatbot",
    {
      configurationName: `fleet-auditor-${$app.stage}`,
      iamRoleArn: role.arn,
      slackTeamId: ids.teamId,
      slackChannelId: ids.channelId,
      snsTopicArns: follows.map((t) => t.arn),
      guardrailPolicyArns: ["arn:aws:iam::aws:policy/ReadOnlyAccess"],
      loggingLevel: "ERROR",
    },
    {
      provider: new aws.Provider("ChatbotRegion", {
        region: ids.region ?? DEFAULT_CHATBOT_REGION,
        // A provider of its own does not inherit the app's default tags.
        defaultTags: { tags: { app: "fleet-auditor", stage: $app.stage } },
      }),
    },
  );
}
