import type { Finding } from "@fleet-auditor/audit";
import type { PagerEvent, SlackMessage } from "@fleet-auditor/render";
import type { Run, Scan, State } from "./run-state.ts";

/** The minimal logger the use cases write to (Powertools Logger fits). */
export interface RunLogger {
  info(message: string, ...extra: Array<Record<string, unknown>>): void;
  warn(message: string, ...extra: Array<Record<string, unknown>>): void;
}

/** What a Slack post gave back: the message's `ts`, where the poster learns it. */
interface SlackPosted {
  ts?: string;
}

/** Where a Slack post goes in a thread: under the parent's `ts`; `broadcast`, the channel sees it too. */
interface SlackReply {
  threadTs: string;
  broadcast?: boolean;
}

/**
 * Posts one Slack message or throws; `deadline` (epoch ms) bounds every retry and wait. A poster
 * that `threads` (notify's `SlackBot`) returns each post's `ts` and replies under `reply`; one
 * that does not (`SlackWebhook`: an incoming webhook returns no `ts`) posts each on its own.
 */
export interface SlackPoster {
  readonly threads: boolean;
  post(message: SlackMessage, deadline: number, reply?: SlackReply): Promise<SlackPosted>;
}

/**
 * Where each incident's Slack thread starts: the parent message's `ts` by `incidentKey` (store's
 * `DynamoSlackThreads`, in the audit table with a TTL).
 */
export interface SlackThreads {
  /** The `ts` of the incident's thread parent, or undefined when none is kept. */
  parentOf(incidentKey: string): Promise<string | undefined>;
  /**
   * Keeps `ts` as the incident's parent unless one is kept already (a conditional write), and
   * returns the parent that stands: the first one, if two posts raced.
   */
  keepParent(incidentKey: string, ts: string): Promise<string>;
}

/** What `MessageOrder.hold` found: the key held, a message at or after this one applied, or another holder. */
type OrderHold =
  | { kind: "held"; token: string }
  | { kind: "applied"; last: number }
  | { kind: "busy"; until: number };

/**
 * A receiver's last applied message per key (store's `DynamoMessageOrder`, in the audit table):
 * a message is applied under a hold of its key, so that two are never sent at once, and one older
 * than the last applied is never sent. Places are `MessagePlace.place`.
 */
export interface MessageOrder {
  /** Holds `key` for the message at `place` until `until` (epoch ms), unless one at or after it was applied or another holds it. */
  hold(key: string, place: number, until: number): Promise<OrderHold>;
  /** Records the held message as applied and lets go; false when its hold was lost (nothing recorded). */
  applied(key: string, place: number, token: string): Promise<boolean>;
  /** Lets go of the key without recording anything: the message was not applied. */
  release(key: string, token: string): Promise<void>;
}

/** A scan after the source looked again at what it did not list, and how each of those ended. */
export interface Confirmed {
  scan: Scan;
  /** Resolved keys: how they ended ("no longer listed", a displayed state). */
  endings: Map<string, string>;
}

/**
 * What an audit reads, as a port. `read` is stage 3 of a run: findings, whether the read was
 * complete and what was read; it ends incomplete rather than throw for what it could not read. A
 * source that can look absent keys up again says so with `confirmAbsent` (stage 4): a key the
 * snapshot has and the scan did not list resolves only on its answer. The run never asks which
 * kind of source it has.
 */
export interface AuditSource {
  read(run: Run): Promise<Scan>;
  confirmAbsent?(run: Run, scan: Scan, state: State): Promise<Confirmed>;
  /** Whether a run may narrow it with KEB's filters. */
  readonly filterable: boolean;
  /**
   * Whether a narrowed run looked at this finding (by its last known labels): only what a run
   * looked at may resolve. Without it, a run looks at every finding.
   */
  covers?(run: Run, finding: Finding): boolean;
  /** What `listed` counts, as messages say it ("runtimes", "status rows"). */
  readonly listedWhat: string;
  /**
   * Whether `read` may begin before the run holds the lease, beside the ledger's look and the
   * lease's take: only a read that stops when the run's signal aborts and leaves nothing running
   * (KEB's pages). Otherwise it begins once the lease is held.
   */
  readonly readsBeforeLease?: boolean;
}

/**
 * Sends one PagerDuty event (routing key added by the adapter, notify's `PagerDutyEvents`) or
 * throws; `deadline` (epoch ms) bounds every retry and wait.
 */
export interface PagerPort {
  send(event: PagerEvent, deadline: number): Promise<void>;
}
