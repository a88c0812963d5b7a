import { jsonSurelyWithin } from "./json-size.ts";
import { oneLine } from "./text.ts";

// Alertmanager's lesson, made ours: a finding is a key, a flat set of labels and a severity.
// Silences match labels, groups are made of labels, links are filled from labels. What a finding
// is beyond that (a KEB runtime's failing operation, an edge Application) is its `detail`, which
// only its audit's presenter reads (`presenter.ts`).

/** How urgent a finding is; orders digests and sets the `severity` attribute. */
export type Severity = "critical" | "warning" | "info";

export const SEVERITY_RANK: Record<Severity, number> = { critical: 3, warning: 2, info: 1 };

/**
 * A finding's labels: names of ours, bounded one-line values. Read them with `labelOf`: names
 * in silences and templates come from users, and must never reach `Object.prototype`.
 */
export type Labels = Readonly<Record<string, string>>;

/** One thing an audit flags, as every part of the engine sees it. */
export interface Finding {
  /** Unique within its audit, bounded; the snapshot is keyed by it. */
  key: string;
  labels: Labels;
  severity: Severity;
  /** When the source says the problem began (ISO), when it says. */
  startsAt?: string;
  /** One line that names it in lists and subjects. */
  summary: string;
  /** The source's own data, read only by its audit's presenter. */
  detail?: unknown;
}

/** A label's value; `""` for a label the finding does not have (as in Alertmanager). */
export function labelOf(labels: Labels, name: string): string {
  return Object.hasOwn(labels, name) ? (labels[name] ?? "") : "";
}

/** A finding's state (the `state` label): what transitions report as before and after. */
export const stateOf = (f: Finding): string => labelOf(f.labels, "state");

/** What a finding is about (the `reason` label): groups, runbooks and silences use it. */
export const reasonOf = (f: Finding): string => labelOf(f.labels, "reason");

/** Identity and placement texts are kept up to this many characters. */
const MAX_IDENTITY = 256;
// DynamoDB keys hold at most 1024 bytes; a snapshot item's sort key is `RT#<key>`.
const MAX_KEY_BYTES = 1_000;
// Far below DynamoDB's 400 KB: a snapshot item is a finding and a few counters, and a report row
// or ledger line repeats parts of it. Every field is bounded where it is built, so only a bug
// reaches this.
const MAX_FINDING_BYTES = 64_000;

/**
 * Text from outside as a finding keeps it: one line (control characters and line breaks become
 * spaces, so no field can start a line of a message) and at most `max` code points. Every text
 * of a finding passes here when the finding is built, so everything downstream (snapshot,
 * report, ledger, messages, silences) sees the same bounded value.
 */
export function bounded(text: string, max = MAX_IDENTITY): string {
  return oneLine(text, max);
}

/**
 * Why a finding cannot be kept in the snapshot, or undefined when it can. Such a finding is left
 * out before anything is published, counted in the run summary and told once: storing it would
 * fail after the publish, and every run would send the same message again.
 */
export function unstorable(f: Finding): string | undefined {
  const bytes = Buffer.byteLength(f.key);
  if (bytes > MAX_KEY_BYTES) return `its key is ${bytes} bytes; DynamoDB keys hold at most 1024`;
  // Nearly every finding is far below the limit: a bound from its strings' lengths says so
  // without serialising it; only one that may be near it is measured.
  if (jsonSurelyWithin(f, MAX_FINDING_BYTES)) return undefined;
  const size = Buffer.byteLength(JSON.stringify(f));
  return size > MAX_FINDING_BYTES
    ? `it is ${size} bytes; a snapshot item keeps at most ${MAX_FINDING_BYTES}`
    : undefined;
}
