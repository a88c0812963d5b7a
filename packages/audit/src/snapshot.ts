import type { Finding, Severity } from "./finding.ts";

/** The incident a firing finding belongs to, as the snapshot keeps it. */
export interface IncidentRef {
  /** `incidentKey`: stable for the episode, never reused. */
  key: string;
  /** When it opened (ISO): the run in which its first member fired. */
  openedAt: string;
  /**
   * When it began (ISO): the earliest onset of the members it opened with, fixed then (absent on
   * incidents opened before it was kept: their start is their members' earliest onset).
   */
  startsAt?: string;
  /** The `groupBy` labels and values it was opened with. */
  values: Readonly<Record<string, string>>;
  /**
   * The roll-up it was told in when it opened in a storm (its route's `maxNew` new incidents were
   * told already): its news goes to that roll-up's thread (and page), never to a thread of its own.
   */
  thread?: string;
  /**
   * It opened flapping (its route's incidents with these values kept opening and ending): the
   * episodes in the window, it included, and the thread of the episode before it, where its
   * messages go (the pager's page is its own).
   */
  flapping?: IncidentFlapping;
}

/** An incident that opened flapping: how many episodes the window held, and whose thread it posts in. */
interface IncidentFlapping {
  episodes: number;
  postedIn: string;
}

/** The incident a transition belongs to on one route, as messages tell it. */
export interface TransitionIncident {
  /** `incidentKey`. */
  key: string;
  /** When the incident began: its earliest member's onset (ISO). */
  startsAt: string;
  /** When it opened (ISO): a run's time; it opened in this run when that is the run's. */
  openedAt: string;
  /** The `groupBy` labels and values it was opened with: what its titles lead with. */
  values?: Readonly<Record<string, string>>;
  /**
   * How many of its members still fire once the run's writes are committed: a partial recovery
   * says "24 recovered, 6 still failing"; 0 when it ended.
   */
  firing: number;
  /** Its last member resolved in this run: the incident is over. */
  ended?: true;
  /**
   * The roll-up it was told in (a storm): its messages go to that thread, its page is that one.
   * `firing`: the members of all its incidents still firing; `ended` once none is.
   */
  thread?: { key: string; ended?: true; firing: number };
  /**
   * What the pager hears of it in this run, on a route to the critical topic: `trigger` when it
   * (or the roll-up it is in) became known, its first member told; `resolve` when it ended (the
   * roll-up: when the last incident in it ended). Absent when neither happened in this run.
   */
  pager?: "trigger" | "resolve";
  /** It opened flapping: its messages go to `postedIn`, an earlier episode's thread. */
  flapping?: IncidentFlapping;
}

/**
 * What the audit remembers of one finding between runs (one item per key per audit).
 * `pending`: flagged, not yet for enough runs to fire. `firing`: flagged and notified (or held back).
 */
export interface SnapshotEntry {
  /** The finding's key. */
  key: string;
  phase: "pending" | "firing";
  finding: Finding;
  /** Consecutive flagged runs, counted while pending. */
  flaggedRuns: number;
  /** Consecutive clear runs, counted while firing. */
  clearRuns: number;
  /** When a run first saw it flagged (ISO); its onset is the finding's `startsAt`, when known. */
  firstSeenAt: string;
  /**
   * The incident it fired in on the default route (firing entries; absent for one that fired
   * before incidents, or not on that route).
   */
  incident?: IncidentRef;
  /** Its incidents on the other routes it is on, by route name. */
  routes?: Readonly<Record<string, IncidentRef>>;
  /**
   * When a reminder of it was last told on a route with a reminder interval of its own (ISO), by
   * route name; a route without one reminds from `notifiedAt`.
   */
  remindedOn?: Readonly<Record<string, string>>;
  /** When the last notification about it was published; null while held back or never sent. */
  notifiedAt: string | null;
  /** Bumped on each write; shows how often the item changed. */
  version: number;
}

/** The kinds of transition a run can produce, in the order digests and summaries list them. */
export const TRANSITION_KINDS = ["firing", "changed", "reminder", "resolved"] as const;
export type TransitionKind = (typeof TRANSITION_KINDS)[number];

/**
 * A transition's position in its run's `DiffResult.transitions`. Digests and snapshot writes refer
 * to transitions by it; `delivery.ts` is where the three meet.
 */
export type TransitionRef = number;

/** One state change worth telling subscribers about. */
export interface Transition {
  kind: TransitionKind;
  /** The finding's key. */
  key: string;
  state: string;
  previousState: string | null;
  severity: Severity;
  finding: Finding;
  /** When its problem began (onset): when its source says, else when it was first seen (ISO). */
  since: string;
  /** When a run first saw it flagged (ISO). */
  firstSeenAt?: string;
  /** Its incident on the default route (what reports and the run's digest read). */
  incident?: TransitionIncident;
  /** Its incident on each route this transition is news for, by route name. */
  incidents?: Readonly<Record<string, TransitionIncident>>;
  /**
   * A finding that fired before and joins a route it now matches (a route added, or its labels
   * changed without a change to its problem): news for that route alone (`incidents`), not for
   * the run's digest.
   */
  joined?: true;
  /**
   * A reminder due on routes with a reminder interval of their own (`incidents`), not yet on the
   * policy's: news for those routes alone, not for the run's digest.
   */
  routesOnly?: true;
  /** `changed`: the finding as it was, so a message can say old → new. */
  previous?: Finding;
  /**
   * `resolved`: how it ended, when its source can look it up again (e.g. the displayed
   * state, or "no longer listed"). Absent when it cannot or the lookup failed.
   */
  ending?: string;
  /** The silence that keeps it from being published. */
  silencedBy?: string;
  /**
   * The key of the firing finding whose inhibition rule keeps it from being published
   * (`inhibition.ts`); absent when a silence already does.
   */
  inhibitedBy?: string;
  /**
   * A reminder of a finding whose incidents are all acknowledged: who acknowledged (the first);
   * held back like a silenced one. Only reminders: an incident that changes is told again.
   */
  acknowledgedBy?: string;
}

/**
 * Whether a transition is held back from every message: silenced (`silencedBy`), inhibited
 * (`inhibitedBy`) or a reminder of acknowledged incidents (`acknowledgedBy`). Every renderer leaves
 * these out, and the commit counts them as done (`delivery.ts`).
 */
export function heldBack(
  t: Pick<Transition, "silencedBy" | "inhibitedBy" | "acknowledgedBy"> | undefined,
): boolean {
  return (
    t !== undefined &&
    (t.silencedBy !== undefined || t.inhibitedBy !== undefined || t.acknowledgedBy !== undefined)
  );
}

/**
 * A write to the snapshot, committed after the run. `transition` ties it to a notification: it is
 * committed only once that transition was told (see `committable`).
 */
export type SnapshotChange =
  | { op: "put"; entry: SnapshotEntry; transition?: TransitionRef }
  | { op: "delete"; key: string; transition?: TransitionRef };
