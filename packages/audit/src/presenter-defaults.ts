import { type Finding, stateOf } from "./finding.ts";
import type { DigestV1Row, Presenter } from "./presenter.ts";
import type { Transition } from "./snapshot.ts";
import { humanDuration, oneLine, shortTime } from "./text.ts";

// What a presenter says when its audit has nothing of its own to say: an audit brings its own
// words only where they matter (`definePresenter`). Findings here are told by their summary and
// labels.

function lines(t: Transition, at: string, brief: boolean): string[] {
  const f = t.finding;
  const age = humanDuration(Date.parse(at) - Date.parse(t.since));
  const name = oneLine(f.summary || f.key, 160);
  if (t.kind === "resolved") return [`- resolved after ${age}: ${name}, was ${oneLine(stateOf(f), 40)}`];
  const since = `since ${shortTime(t.since)} (${age})`;
  if (brief) return [`- [${t.severity}] still ${oneLine(stateOf(f), 40)} ${since}: ${name}`];
  const labels = Object.entries(f.labels)
    .filter(([, value]) => value)
    .map(([label, value]) => `${label}=${oneLine(value, 80)}`)
    .join(", ");
  return [`- [${t.severity}] ${oneLine(stateOf(f), 40)}: ${name}, ${since}`, `    ${oneLine(labels, 600)}`];
}

/**
 * Digest v1's fields of a finding of an audit that brings none: its key and summary where v1 names
 * a runtime, the rest blank (its labels are beside them in the row).
 */
function v1Row(f: Finding): DigestV1Row {
  return {
    instanceID: f.key,
    runtimeID: "",
    shootName: f.summary,
    globalAccountID: "",
    subAccountID: "",
    plan: "",
    region: "",
    provider: "",
  };
}

const DEFAULTS: Presenter = {
  tally: { label: "state", word: "states" },
  noun: () => "findings",
  placeWord: "in",
  placeLabel: "",
  example: (f) => oneLine(f.summary || f.key, 80),
  lines,
  groupNote: () => undefined,
  subject: (t, state, reason) => `${state}${reason ? ` (${reason})` : ""} ${t.finding.summary || t.key}`,
  chatNote: () => undefined,
  inspect: () => undefined,
  // Any label that changes is a change: an audit whose labels hold counts says otherwise.
  problemKey: (f) =>
    JSON.stringify(Object.entries(f.labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  linkValues: () => ({}),
  details: () => [],
  digestV1: { row: v1Row, group: {} },
};

/** A presenter of an audit's own words, the rest told from its findings' summaries and labels. */
export function definePresenter(own: Partial<Presenter>): Presenter {
  return { ...DEFAULTS, ...own };
}
