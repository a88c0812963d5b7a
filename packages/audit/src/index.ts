export {
  AUDITS,
  type AuditDefinition,
  auditNamed,
  expiredAudit,
  failingAudit,
  type NarrowingFilters,
  narrowedQueries,
} from "./definitions.ts";
export { committable, type Delivery, toldBy, toldQuietly } from "./delivery.ts";
export { type DiffInput, type DiffResult, diffSnapshot } from "./diff.ts";
export {
  asciiSubject,
  byteSize,
  type DigestContext,
  type DigestMessage,
  MAX_MESSAGES_PER_RUN,
  renderDigests,
  SNS_MESSAGE_LIMIT,
  subjectLine,
} from "./digest.ts";
export * from "./errors.ts";
export {
  type FailingOperation,
  type Finding,
  problemKey,
  SEVERITY_RANK,
  type Severity,
  toFinding,
} from "./finding.ts";
export { type AlertPolicy, DEFAULT_POLICY } from "./policy.ts";
export type {
  AlertPublisher,
  AuditStateStore,
  CommitFence,
  CommitResult,
  RunRecord,
  SilenceSource,
} from "./ports.ts";
export { chatbotNotification } from "./render-chatbot.ts";
export { renderText } from "./render-text.ts";
export { type Silence, type SilenceMatchers, silencing } from "./silence.ts";
export {
  type SnapshotChange,
  type SnapshotEntry,
  TRANSITION_KINDS,
  type Transition,
  type TransitionKind,
  type TransitionRef,
} from "./snapshot.ts";
export {
  type QuerySummary,
  type RunSummary,
  summarizeTransition,
  type TransitionSummary,
} from "./summary.ts";
