import { type Labels, reasonOf, type Severity, stateOf } from "./finding.ts";
import type { AlertDetail, Presenter } from "./presenter.ts";
import type { Transition } from "./snapshot.ts";

// The one place a presenter is asked how a transition reads: the plan calls it once per member
// and every channel (e-mail, Chatbot, Slack, the structured digest, the pager) renders the row it
// gets back, never the presenter. A channel out of process (the Slack and pager functions) gets
// the same row inside the structured digest, so it needs no audit's code to read it.

/** A link of a finding, by what it opens: `console`, `runbook`. */
export interface AlertLink {
  readonly name: string;
  readonly url: string;
}

/** One transition as every channel tells it, whatever audit it comes from. */
export interface AlertRow {
  /** The finding's key. */
  key: string;
  labels: Labels;
  severity: Severity;
  /** One line that names it (a runtime's shoot, an Application's request). */
  summary: string;
  /** Its block of e-mail lines (one line for a reminder or a resolution), without links and commands. */
  lines: readonly string[];
  /** How a collapsed group's examples name it. */
  example: string;
  /** What a group's head says for it when every member says the same (a KEB description). */
  groupNote?: string;
  /** What a chat list says after its name (a failing operation, an Application's status). */
  note?: string;
  /** The command that shows what it is about, when one can be pasted. */
  inspect?: string;
  /** What a title calls it when a message tells it alone: state and reason first (`Presenter.subject`). */
  subject: string;
  /** Name/value pairs for a pager's details and a chat's fields. */
  details: readonly AlertDetail[];
  /** Its console page and runbook, when their templates give a safe link. */
  links: readonly AlertLink[];
}

/** The words a group of one audit's findings is told with. */
export interface GroupWords {
  /** What its members are, for "25 runtimes failed". */
  noun: string;
  /** What its tally counts: "plans", "verbs". */
  tally: string;
  /** The words before its place: "in", "on node". */
  place: string;
}

/** The row of one transition: its presenter asked once, its links already filled. */
export function alertRow(
  t: Transition,
  presenter: Presenter,
  at: string,
  extra: { links: readonly AlertLink[]; inspect?: string },
): AlertRow {
  const f = t.finding;
  const now = stateOf(f);
  const groupNote = presenter.groupNote(f);
  const note = t.kind === "resolved" ? undefined : presenter.chatNote(f, t.since);
  return {
    key: f.key,
    labels: f.labels,
    severity: t.severity,
    summary: f.summary,
    lines: presenter.lines(t, at, t.kind === "reminder"),
    example: presenter.example(f),
    ...(groupNote !== undefined ? { groupNote } : {}),
    ...(note !== undefined ? { note } : {}),
    ...(extra.inspect !== undefined ? { inspect: extra.inspect } : {}),
    subject: presenter.subject(t, now, reasonOf(f)),
    details: presenter.details(f),
    links: extra.links,
  };
}

/** The words of a group of `state`, as its audit's presenter says them. */
export function groupWords(presenter: Presenter, state: string): GroupWords {
  return { noun: presenter.noun(state), tally: presenter.tally.word, place: presenter.placeWord };
}
