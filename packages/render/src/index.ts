export {
  CHATBOT_DESCRIPTION_LIMIT,
  type ChatbotNotification,
  chatbotNotification,
  incidentThreadId,
  threadId,
} from "./chatbot/render-chatbot.ts";
export { renderDigests } from "./digest.ts";
export { EMAIL_BUDGET, GROUP_COLLAPSE_AT, type RenderedText, renderText } from "./email/render-text.ts";
export { HEALTH_RUNBOOK_DOC, HEALTH_RUNBOOK_REASON, healthNotice } from "./health-notice.ts";
export { MAX_NEW_INCIDENT_MESSAGES, renderIncidentMessages } from "./incident-messages.ts";
export { renderPagerMessages } from "./pager-messages.ts";
export { reportDigests, transitionFromReport } from "./report-digests.ts";
export {
  SLACK_LIMITS,
  type SlackBlock,
  type SlackButton,
  type SlackMessage,
  type SlackText,
  slackMessage,
} from "./slack/render-slack.ts";
export { healthSlackMessage } from "./slack/render-slack-health.ts";
export { testSlackMessage } from "./slack/render-slack-test.ts";
export { DIGEST_TIME, digestTime, structuredDigest } from "./structured/digest-v1.ts";
export { DIGEST_V1 } from "./structured/digest-v1-name.ts";
export {
  type DigestV1,
  DigestV1GroupSchema,
  DigestV1Schema,
  type DigestV1Transition,
  DigestV1TransitionSchema,
} from "./structured/digest-v1-schema.ts";
export { HEALTH_V1 } from "./structured/health-v1-name.ts";
export { type HealthV1, HealthV1Schema } from "./structured/health-v1-schema.ts";
export { TEST_V1 } from "./structured/test-v1-name.ts";
export { type TestV1, TestV1Schema } from "./structured/test-v1-schema.ts";
export { asciiSubject, subjectLine } from "./subject.ts";
export { TEST_CHANNELS, type TestNoticeContext, testNotice } from "./test-notice.ts";
