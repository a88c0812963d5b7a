export {
  appsStatusCommand,
  type GroupMatch,
  type Inspectable,
  inspectCommand,
  pastableCommand,
  type ReportStore,
  reportCommand,
  silenceCommand,
} from "./commands.ts";
export {
  AUDITS,
  type AuditDefinition,
  applicationsAudit,
  auditNamed,
  coveredBy,
  expiredAudit,
  failingAudit,
  KEB_AUDITS,
  type KebAuditDefinition,
  type NarrowingFilters,
  narrowedQueries,
  type StatusTableAuditDefinition,
} from "./definitions.ts";
export { committable, type Delivery, toldBy, toldQuietly } from "./delivery.ts";
export { type DiffInput, type DiffResult, diffSnapshot } from "./diff.ts";
export { renderDigests, renderRuntimeMessages } from "./digest.ts";
export { DIGEST_TIME, digestTime, structuredDigest } from "./digest-v1.ts";
export {
  DIGEST_V1,
  type DigestV1,
  DigestV1GroupSchema,
  DigestV1Schema,
  type DigestV1Transition,
  DigestV1TransitionSchema,
} from "./digest-v1-schema.ts";
export type { EdgeDetail } from "./edge-detail.ts";
export {
  quarantinedFinding,
  refusedFinding,
  stuckFinding,
} from "./edge-finding.ts";
export * from "./errors.ts";
export {
  bounded,
  type FailingOperation,
  type Finding,
  MAX_DESCRIPTION,
  MAX_IDENTITY,
  problemKey,
  reasonOf,
  SEVERITY_RANK,
  type Severity,
  toFinding,
  unstorable,
} from "./finding.ts";
export { keyDigest, keyPart } from "./finding-key.ts";
export { groupKey, groupTransitions, type TransitionGroup } from "./groups.ts";
export {
  type AuditHealth,
  DEGRADED_AFTER_RUNS,
  HEALTHY,
  type HealthStep,
  healthNotice,
  nextHealth,
} from "./health.ts";
export { EDGE_LABELS, KEB_LABELS, type Labels, labelsOf } from "./labels.ts";
export { keepable, LEFT_OUT_LISTED, type LeftOut, leftOutNews } from "./left-out.ts";
export { fillTemplate, findingValues, type LinkTemplates, SAFE_LINK, safeLink } from "./links.ts";
export {
  formatMatcher,
  type LabelMatcher,
  MAX_PATTERN,
  type MatchOp,
  matchesAll,
  parseMatcher,
} from "./matcher.ts";
export {
  byteSize,
  type DigestContext,
  type DigestMessage,
  type MessageKind,
  type ShortDigest,
  SNS_BYTE_BUDGET,
  SNS_MESSAGE_LIMIT,
  type SnsAttribute,
  snsAttributes,
} from "./message.ts";
export { type AlertPolicy, DEFAULT_POLICY } from "./policy.ts";
export type {
  AlertPublisher,
  AuditStateStore,
  CommitFence,
  CommitResult,
  Published,
  PublishOutcome,
  RunRecord,
  RunReportStore,
  SilenceSource,
} from "./ports.ts";
export {
  CHATBOT_DESCRIPTION_LIMIT,
  type ChatbotNotification,
  chatbotNotification,
  runtimeThreadId,
  threadId,
} from "./render-chatbot.ts";
export {
  SLACK_LIMITS,
  type SlackBlock,
  type SlackButton,
  type SlackMessage,
  type SlackText,
  slackMessage,
} from "./render-slack.ts";
export { EMAIL_BUDGET, GROUP_COLLAPSE_AT, type RenderedText, renderText } from "./render-text.ts";
export { type ReportTransition, type RunReport, reportTransition } from "./report.ts";
export { reportDigests, transitionFromReport } from "./report-digests.ts";
export { pastable, shellOption, shellQuote } from "./shell.ts";
export {
  legacyMatchers,
  matchersOf,
  type Silence,
  type SilenceMatchers,
  silencing,
  storedFields,
} from "./silence.ts";
export {
  type SnapshotChange,
  type SnapshotEntry,
  TRANSITION_KINDS,
  type Transition,
  type TransitionKind,
  type TransitionRef,
} from "./snapshot.ts";
export { asciiSubject, subjectLine } from "./subject.ts";
export {
  type QuerySummary,
  type RunSummary,
  summarizeTransition,
  type TransitionSummary,
} from "./summary.ts";
export { humanDuration, oneLine, shortTime, slackCode, slackCommand, slackText } from "./text.ts";
