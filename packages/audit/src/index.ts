export {
  type AuditDefinition,
  type AuditKind,
  type KebAuditDefinition,
  type OwnSourceAuditDefinition,
  type StatusTableAuditDefinition,
  withGroupBy,
} from "./audit-definition.ts";
export {
  type CommandStore,
  type GroupMatch,
  inStore,
  pastableCommand,
  reportCommand,
  runReportCommand,
  type StoreTable,
  silenceCommand,
} from "./commands.ts";
export { AUDITS, auditNamed, digestPresenter, fromFlat, readRow } from "./definitions.ts";
export { committable, type Delivery, toldBy, toldQuietly } from "./delivery.ts";
export { type DiffInput, type DiffResult, diffSnapshot } from "./diff.ts";
export { applicationsAudit, EDGE_GROUP_BY } from "./edge/edge-audit.ts";
export type { EdgeDetail } from "./edge/edge-detail.ts";
export {
  EDGE_LABELS,
  edgeDetail,
  quarantinedFinding,
  refusedFinding,
  stuckFinding,
} from "./edge/edge-finding.ts";
export { edgePresenter } from "./edge/edge-presenter.ts";
export * from "./errors.ts";
export {
  bounded,
  type Finding,
  type Labels,
  labelOf,
  MAX_IDENTITY,
  reasonOf,
  SEVERITY_RANK,
  type Severity,
  stateOf,
  unstorable,
} from "./finding.ts";
export { keyDigest, keyPart } from "./finding-key.ts";
export { type Grouping, groupTransitions, placeText, type TransitionGroup } from "./groups.ts";
export {
  type AuditHealth,
  DEGRADED_AFTER_RUNS,
  HEALTHY,
  type HealthStep,
  nextHealth,
} from "./health.ts";
export { type IncidentScope, incidentOf, incidentValues, OpenIncidents } from "./incident.ts";
export {
  coveredBy,
  expiredAudit,
  failingAudit,
  KEB_AUDITS,
  KEB_GROUP_BY,
  type NarrowingFilters,
  narrowedQueries,
} from "./keb/keb-audits.ts";
export {
  type FailingOperation,
  KEB_LABELS,
  type KebDetail,
  kebDetail,
  MAX_DESCRIPTION,
  toFinding,
} from "./keb/keb-finding.ts";
export { kebPresenter } from "./keb/keb-presenter.ts";
export {
  keepable,
  LEFT_OUT_LISTED,
  type LeftOut,
  type LeftOutNews,
  leftOutLine,
  leftOutNews,
} from "./left-out.ts";
export {
  fillTemplate,
  type LinkTemplates,
  linkValues,
  parsedUrl,
  SAFE_LINK,
  safeLink,
  templateCanLink,
} from "./links.ts";
export {
  formatMatcher,
  type LabelMatcher,
  MAX_PATTERN,
  type MatchOp,
  matchesAll,
  parseMatcher,
} from "./matcher.ts";
export {
  type DigestContext,
  type DigestMessage,
  MESSAGE_TOPICS,
  type MessageFormat,
  type MessageKind,
  type MessageTopic,
  type ShortDigest,
  topicsOf,
} from "./message.ts";
export {
  fromText,
  type NotificationPlan,
  type PlannedGroup,
  type PlannedMember,
  planNotification,
} from "./plan.ts";
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
export type { FlatFinding, Presenter } from "./presenter.ts";
export { definePresenter } from "./presenter-defaults.ts";
export { type ReportTransition, type RunReport, reportTransition } from "./report.ts";
export {
  listedBeside,
  ROLL_UP_AT,
  ROLLED_UP_LISTED,
  type RollUp,
  type RollUpGroup,
  rollUpGroup,
  rollUps,
  rollUpText,
} from "./roll-up.ts";
export { pastable, shellOption, shellQuote } from "./shell.ts";
export {
  incidentMatchers,
  legacyMatchers,
  matchersOf,
  type Silence,
  type SilenceMatchers,
  silenceState,
  silencing,
  storedFields,
} from "./silence.ts";
export {
  type IncidentRef,
  type SnapshotChange,
  type SnapshotEntry,
  TRANSITION_KINDS,
  type Transition,
  type TransitionIncident,
  type TransitionKind,
  type TransitionRef,
} from "./snapshot.ts";
export { type StoredEntry, storableEntry, storedEntry } from "./stored-entry.ts";
export {
  type QuerySummary,
  type RunSummary,
  summarizeTransition,
  type TransitionSummary,
} from "./summary.ts";
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
