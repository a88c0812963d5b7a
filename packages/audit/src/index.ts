export { type AuditDefinition, withGroupBy, withInhibitRules } from "./audit-definition.ts";
export {
  type CommandStore,
  incidentReportCommand,
  incidentSilenceCommand,
  incidentStatsCommand,
  inStore,
  pastableCommand,
  reportCommand,
  runReportCommand,
  silenceCommand,
} from "./commands.ts";
export { committable, type Delivery, toldBy, toldQuietly } from "./delivery.ts";
export { type DiffResult, diffSnapshot, type LegacyPage } from "./diff.ts";
export * from "./errors.ts";
export {
  bounded,
  type Finding,
  labelOf,
  reasonOf,
  SEVERITY_RANK,
  type Severity,
  stateOf,
} from "./finding.ts";
export { keyPart } from "./finding-key.ts";
export { placeText, type TransitionGroup } from "./groups.ts";
export { type AuditHealth, HEALTHY, nextHealth } from "./health.ts";
export {
  endedEpisodes,
  INCIDENT_ITEM_BYTES,
  incidentsWithNews,
  incidentWrites,
  withAcknowledgements,
  withRepages,
} from "./incident-history.ts";
export type {
  Acknowledgement,
  EndedEpisode,
  Flapping,
  IncidentActionStore,
  IncidentEvent,
  IncidentEventKind,
  IncidentHistory,
  IncidentQuery,
  IncidentRecord,
} from "./incident-record.ts";
export {
  type IncidentBreakdown,
  type IncidentStats,
  incidentStats,
} from "./incident-stats.ts";
export {
  MAX_RULE_PARTS,
  parseInhibitRule,
  ruleMatcherProblem,
} from "./inhibit-rule-text.ts";
export { type InhibitRule, inhibitor } from "./inhibition.ts";
export { keepable, LEFT_OUT_LISTED, type LeftOut, leftOutLine, leftOutNews } from "./left-out.ts";
export {
  fillTemplate,
  type LinkTemplates,
  linkValues,
  SAFE_LINK,
  safeLink,
  templateCanLink,
} from "./links.ts";
export { type LabelMatcher, matchesAll } from "./matcher.ts";
export { formatMatcher } from "./matcher-format.ts";
export { parseMatchers } from "./matcher-parse.ts";
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
  HistoryCommit,
  Published,
  PublishOutcome,
  RunRecord,
  RunReportStore,
  SilenceSource,
} from "./ports.ts";
export type { AlertDetail, DigestV1Row, Presenter } from "./presenter.ts";
export { definePresenter } from "./presenter-defaults.ts";
export type { RunReport } from "./report.ts";
export { listedBeside, type RollUpGroup, rollUpGroup, rollUps, rollUpText } from "./roll-up.ts";
export {
  DEFAULT_ROUTE,
  defaultRoutes,
  incidentLabel,
  MAX_NEW_INCIDENTS,
  MAX_NEW_PAGES,
  ROUTE_INTERVAL,
  ROUTE_INTERVAL_RULE,
  ROUTE_NAME,
  ROUTE_NAME_RULE,
  type Route,
  repeatedRouteNames,
  routeIntervalMs,
  routesOf,
} from "./route.ts";
export { pastable, shellOption } from "./shell.ts";
export { incidentMatchers, type Silence, silenceState, silencing } from "./silence.ts";
export {
  heldBack,
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
  lastedFor,
  oneLine,
  shortTime,
  slackCode,
  slackCommand,
  slackText,
} from "./text.ts";
