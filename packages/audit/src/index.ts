export { type AlertLink, type AlertRow, type GroupWords, linkOf } from "./alert-row.ts";
export {
  type AuditDefinition,
  type AuditKind,
  type KebAuditDefinition,
  type OwnSourceAuditDefinition,
  withGroupBy,
} from "./audit-definition.ts";
export {
  type CommandStore,
  pastableCommand,
  reportCommand,
  runReportCommand,
  silenceCommand,
} from "./commands.ts";
export { AUDITS, auditNamed } from "./definitions.ts";
export { committable, type Delivery, toldBy, toldQuietly } from "./delivery.ts";
export { type DiffResult, diffSnapshot } from "./diff.ts";
export { applicationsAudit, EDGE_GROUP_BY } from "./edge/edge-audit.ts";
export { EDGE_LABELS, quarantinedFinding, refusedFinding, stuckFinding } from "./edge/edge-finding.ts";
export { edgePresenter } from "./edge/edge-presenter.ts";
export * from "./errors.ts";
export { type Finding, labelOf, reasonOf, SEVERITY_RANK, type Severity, stateOf } from "./finding.ts";
export { keyPart } from "./finding-key.ts";
export { placeText, type TransitionGroup } from "./groups.ts";
export { type AuditHealth, HEALTHY, nextHealth } from "./health.ts";
export {
  coveredBy,
  expiredAudit,
  failingAudit,
  KEB_AUDITS,
  KEB_GROUP_BY,
  narrowedQueries,
} from "./keb/keb-audits.ts";
export {
  type FailingOperation,
  KEB_LABELS,
  type KebDetail,
  kebFinding,
  type RuntimeFields,
} from "./keb/keb-finding.ts";
export { kebPresenter } from "./keb/keb-presenter.ts";
export { keepable, LEFT_OUT_LISTED, type LeftOut, leftOutLine, leftOutNews } from "./left-out.ts";
export {
  fillTemplate,
  type LinkTemplates,
  linkValues,
  SAFE_LINK,
  safeLink,
  templateCanLink,
} from "./links.ts";
export { formatMatcher, type LabelMatcher, matchesAll, parseMatcher } from "./matcher.ts";
export {
  type DigestContext,
  type DigestMessage,
  MESSAGE_TOPICS,
  type MessageTopic,
  type ShortDigest,
  topicsOf,
} from "./message.ts";
export { fromText, type PlannedGroup, type PlannedMember, planNotification } from "./plan.ts";
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
export type { AlertDetail, DigestV1Fields, DigestV1Row, Presenter } from "./presenter.ts";
export { definePresenter } from "./presenter-defaults.ts";
export type { RunReport } from "./report.ts";
export { listedBeside, type RollUpGroup, rollUpGroup, rollUps, rollUpText } from "./roll-up.ts";
export { incidentMatchers, type Silence, silenceState, silencing } from "./silence.ts";
export {
  type SnapshotChange,
  type SnapshotEntry,
  TRANSITION_KINDS,
  type Transition,
  type TransitionKind,
  type TransitionRef,
} from "./snapshot.ts";
export {
  type KeyPrint,
  keyPrintOf,
  type SnapshotFingerprint,
  unchangedSince,
} from "./snapshot-fingerprint.ts";
export { type RunSummary, summarizeTransition, type TransitionSummary } from "./summary.ts";
export {
  countOf,
  formatCount,
  humanDuration,
  oneLine,
  shortTime,
  slackCode,
  slackCommand,
  slackText,
} from "./text.ts";
