import type { Severity } from "./finding.ts";
import type { MessageTopic } from "./message.ts";

// Alertmanager forgets an alert once it resolves; this product keeps each incident's episode, so
// that the on-call person can answer "what happened last night, how long did it take, what keeps
// coming back". An incident's history is a record (what it is now: counts, times, the first
// members) and a timeline of events (one per run that told something of it). Both are bounded by
// bytes whatever the incident's size: a 20,000-member incident keeps counts and examples, never a
// list of its members. They are written with the snapshot changes they describe, in the same
// fenced commit, and only for what was told (`incident-history.ts`).

/** A member of an incident as its history names it: enough to recognise it, bounded. */
export interface IncidentExample {
  /** The finding's key. */
  key: string;
  /** Its one-line summary. */
  summary: string;
}

/** What one event of an incident's timeline says happened, most telling first. */
export const INCIDENT_EVENT_KINDS = [
  "opened",
  "ended",
  "joined",
  "changed",
  "left",
  "reminded",
  "paged",
  "silenced",
  "inhibited",
  "acknowledged",
  "unacknowledged",
  "pagerResolved",
] as const;
export type IncidentEventKind = (typeof INCIDENT_EVENT_KINDS)[number];

/** One run's news of one incident (or an acknowledgement of it), as its timeline keeps it. */
export interface IncidentEvent {
  /** The incident's key. */
  key: string;
  /** When (ISO): the run's time, or when an acknowledgement was made. */
  at: string;
  /** The run that told it; absent for an acknowledgement. */
  runId?: string;
  /** What happened, in `INCIDENT_EVENT_KINDS` order. */
  what: IncidentEventKind[];
  /** Members that fired into it in this run (the opening ones included). */
  joined: number;
  /** Members whose problem changed (a new state or reason) while in it. */
  changed: number;
  /** Members that resolved. */
  left: number;
  /** Members told again as still failing. */
  reminded: number;
  /** Members held back by a silence, and the first silences' IDs. */
  silenced: number;
  silences?: string[];
  /** Members held back by an inhibiting finding, and the first such findings' keys. */
  inhibited: number;
  inhibitedBy?: string[];
  /** Members still firing after this event. */
  firing: number;
  /** What the pager was sent for it in this run, on a route to the critical topic. */
  page?: "trigger" | "resolve";
  /** The first members this event is about (joined, changed or left), at most a few. */
  examples?: IncidentExample[];
  /** Who acknowledged it or took the acknowledgement back, and why (acknowledgements). */
  by?: string;
  comment?: string;
}

/** An incident's episode as it stands: one record per incident, kept until its TTL. */
export interface IncidentRecord {
  /** `incidentKey`: stable for the episode, never reused. */
  key: string;
  audit: string;
  /** The route it is on (`default` for the chat route of before routes) and its receiver. */
  route: string;
  receiver: MessageTopic;
  /** The `groupBy` labels and values it was opened with. */
  values: Readonly<Record<string, string>>;
  /**
   * The labels every member it had shares, with their values (bounded): what statistics break it
   * down by (`reason`, `region`) when it was not grouped by them.
   */
  common: Readonly<Record<string, string>>;
  /** The highest severity any member had. */
  severity: Severity;
  /** When it opened (ISO): the run in which its first member fired. */
  openedAt: string;
  /** When its problem began: its opening members' earliest onset (ISO). */
  startsAt: string;
  /** When its last member resolved (ISO); absent while it is open. */
  endedAt?: string;
  /** `endedAt - openedAt`, ms: its time to resolve; absent while it is open. */
  durationMs?: number;
  /** The time of its latest event (ISO). */
  lastAt: string;
  /** Members firing now (0 once it ended), the most it had at once, and all that joined it. */
  firing: number;
  peak: number;
  members: number;
  /** Over the episode: members' changes, reminders told, pages sent, members held back. */
  changes: number;
  reminders: number;
  pages: number;
  silenced: number;
  inhibited: number;
  /** The first members it had, at most a few. */
  examples: IncidentExample[];
  /** Events in its timeline. */
  events: number;
  /** The roll-up it was told in (a storm): its messages went to that thread. */
  thread?: string;
  /**
   * It opened while its route's incidents with the same values kept opening and ending (flapping):
   * how many episodes with these values the window held, this one included, and the key of the
   * earlier episode whose thread its messages went to.
   */
  flapping?: { episodes: number; postedIn: string };
  /** Who acknowledged it and when, while it is acknowledged. */
  acknowledged?: { by: string; at: string; comment?: string };
  /**
   * When PagerDuty resolved its page while it still failed here: its next change pages again
   * (a new alert under the same key), and clears this.
   */
  pagerResolvedAt?: string;
}

/**
 * An incident that ended lately, as runs remember it to tell when the next one with the same
 * values is flapping (`Flapping`): one list per audit, pruned to the flapping window.
 */
export interface EndedEpisode {
  route: string;
  values: Readonly<Record<string, string>>;
  key: string;
  /** The chat thread its messages went to: its own key, its roll-up's, or an earlier episode's. */
  thread: string;
  openedAt: string;
  endedAt: string;
}

/**
 * When an incident that opens is flapping: when `after` episodes with its route and values (it
 * included) opened and ended within `windowMs` (the ones before it ended, it just opened).
 */
export interface Flapping {
  windowMs: number;
  after: number;
}

/** Which incidents a history query asks for. */
export interface IncidentQuery {
  /** Only this audit's; default every audit's. */
  audit?: string;
  /** Only those open at some time since then: still open, or ended after it. */
  since?: Date;
  /** Only those still open. */
  open?: boolean;
}

/** Who acknowledged an incident, when, and why. */
export type Acknowledgement = NonNullable<IncidentRecord["acknowledged"]>;

/** Incident history as the CLI, the console and the report read it. */
export interface IncidentHistory {
  /** Records of the audits' incidents that `query` asks for, newest opening first. */
  listIncidents(audits: readonly string[], query: IncidentQuery): Promise<IncidentRecord[]>;
  /** One incident's record and its timeline, oldest event first; undefined when none is kept. */
  incidentTimeline(
    audits: readonly string[],
    key: string,
  ): Promise<{ record: IncidentRecord; events: IncidentEvent[] } | undefined>;
}

/** What acting on an incident writes: its acknowledgement, and the events that tell of actions. */
export interface IncidentActionStore {
  /** The incident's record (with its acknowledgement) and its audit; undefined when none is kept. */
  findIncident(
    audits: readonly string[],
    key: string,
  ): Promise<{ audit: string; record: IncidentRecord } | undefined>;
  /** Records the acknowledgement unless the incident is acknowledged already: false then, nothing written. */
  acknowledge(audit: string, key: string, ack: Acknowledgement, expiresAt: number): Promise<boolean>;
  /** Removes the acknowledgement; false when there was none. */
  unacknowledge(audit: string, key: string): Promise<boolean>;
  /** Notes that PagerDuty resolved the incident's page while it still fails (`pagerResolvedAt`). */
  markPagerResolved(audit: string, key: string, at: string, expiresAt: number): Promise<void>;
  /** Adds an event to the incident's timeline (an action's: `id` keeps two at one time apart). */
  addEvent(event: IncidentEvent, id: string, expiresAt: number): Promise<void>;
}
