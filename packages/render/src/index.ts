export { CHATBOT_DESCRIPTION_LIMIT, type ChatbotNotification } from "./chatbot/render-chatbot.ts";
export { renderDigests } from "./digest.ts";
export { EMAIL_BUDGET } from "./email/render-text.ts";
export { baselineNotice, notConfiguredNotice } from "./first-day-notices.ts";
export { HEALTH_RUNBOOK_DOC, healthNotice } from "./health-notice.ts";
export { MAX_NEW_INCIDENT_MESSAGES, renderIncidentMessages } from "./incident-messages.ts";
export { type IncidentReportInput, incidentReportHtml } from "./incident-report/incident-report-html.ts";
export { incidentSummaryNotice } from "./incident-summary-notice.ts";
export {
  healthPagerEvent,
  incidentPagerEvent,
  PAGER_LIMITS,
  type PagerEvent,
  type PagerResolve,
  type PagerTrigger,
  runDigestPagerEvent,
  testPagerEvents,
} from "./pager/pagerduty-event.ts";
export { renderPagerMessages } from "./pager-messages.ts";
export { reportDigests } from "./report-digests.ts";
export { renderRunMessages } from "./routed-messages.ts";
export { type SlackMessage, slackMessage } from "./slack/render-slack.ts";
export { healthSlackMessage } from "./slack/render-slack-health.ts";
export { summarySlackMessage } from "./slack/render-slack-summary.ts";
export { testSlackMessage } from "./slack/render-slack-test.ts";
export { DIGEST_TIME } from "./structured/digest-v1.ts";
export { DIGEST_V1 } from "./structured/digest-v1-name.ts";
export { type DigestV1, DigestV1Schema } from "./structured/digest-v1-schema.ts";
export { HEALTH_V1 } from "./structured/health-v1-name.ts";
export { type HealthV1, HealthV1Schema } from "./structured/health-v1-schema.ts";
export { SUMMARY_V1 } from "./structured/summary-v1-name.ts";
export { type SummaryV1, SummaryV1Schema } from "./structured/summary-v1-schema.ts";
export { TEST_V1 } from "./structured/test-v1-name.ts";
export { type TestV1, TestV1Schema } from "./structured/test-v1-schema.ts";
export { asciiSubject } from "./subject.ts";
export { type IncidentSummaryContext, SUMMARY_ROWS } from "./summary/summary-document.ts";
export { TEST_CHANNELS, testNotice } from "./test-notice.ts";
