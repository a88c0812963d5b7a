import { placeText, type TransitionGroup } from "./groups.ts";
import type { TransitionKind } from "./snapshot.ts";
import { countOf, formatCount } from "./text.ts";

// An event that spans many groups (a region-wide outage, a KEB release that breaks every plan)
// reads as one line before its groups: how many, where, and why, most first. Every channel
// shows the same words (`rollUpText`); each escapes them its own way.

/** Groups of one kind and state past this many get a roll-up line. */
const ROLL_UP_AT = 4;
// Reasons named in a roll-up; the rest are "…".
const REASONS = 4;

/** A group as a roll-up counts it: the engine's plan and a structured digest both give these. */
export interface RollUpGroup {
  kind: TransitionKind;
  state: string;
  reason: string;
  /** The group's place as one text ("" when it has none), and the label(s) it is made of. */
  place: string;
  placeLabel: string;
  count: number;
}

/** One kind and state across many groups. */
export interface RollUp {
  kind: TransitionKind;
  state: string;
  count: number;
  /** Distinct places, and the one place when there is only one. */
  places: number;
  onlyPlace: string;
  placeLabel: string;
  /** Members by reason, most first ("" when they have none). */
  reasons: Array<[reason: string, count: number]>;
}

/** The roll-ups of a message's groups, in the groups' order: one per kind and state with `ROLL_UP_AT` groups or more. */
export function rollUps(groups: readonly RollUpGroup[]): RollUp[] {
  const byKey = new Map<
    string,
    { roll: RollUp; groups: number; places: Set<string>; reasons: Map<string, number> }
  >();
  for (const g of groups) {
    const key = `${g.kind}|${g.state}`;
    let entry = byKey.get(key);
    if (!entry) {
      entry = {
        roll: {
          kind: g.kind,
          state: g.state,
          count: 0,
          places: 0,
          onlyPlace: "",
          placeLabel: g.placeLabel,
          reasons: [],
        },
        groups: 0,
        places: new Set(),
        reasons: new Map(),
      };
      byKey.set(key, entry);
    }
    entry.groups++;
    entry.roll.count += g.count;
    if (g.place) entry.places.add(g.place);
    entry.reasons.set(g.reason, (entry.reasons.get(g.reason) ?? 0) + g.count);
  }
  return [...byKey.values()]
    .filter((e) => e.groups >= ROLL_UP_AT)
    .map(({ roll, places, reasons }) => ({
      ...roll,
      places: places.size,
      onlyPlace: places.size === 1 ? ([...places][0] as string) : "",
      reasons: [...reasons].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
    }));
}

const BEFORE: Record<TransitionKind, string> = {
  firing: "",
  changed: "now ",
  reminder: "still ",
  resolved: "no longer ",
};

/**
 * "20,000 runtimes failed in 10 regions: err_keb_timeout 6,667 · err_kyma_failed 6,667 · …",
 * its parts given to `code` (a channel's way to show a value) before they are joined.
 */
export function rollUpText(r: RollUp, noun: string, code: (value: string) => string = (v) => v): string {
  const where =
    r.places > 1
      ? ` in ${countOf(r.places, `${r.placeLabel}s`)}`
      : r.onlyPlace
        ? ` in ${code(r.onlyPlace)}`
        : "";
  const named = r.reasons.filter(([reason]) => reason).slice(0, REASONS);
  const why = named.map(([reason, n]) => `${code(reason)} ${formatCount(n)}`).join(" · ");
  const more = r.reasons.filter(([reason]) => reason).length > REASONS ? " · …" : "";
  return `${countOf(r.count, noun)} ${BEFORE[r.kind]}${code(r.state)}${where}${why ? `: ${why}${more}` : ""}`;
}

/** A group of the engine's as a roll-up counts it. */
export function rollUpGroup(g: TransitionGroup): RollUpGroup {
  return {
    kind: g.kind,
    state: g.state,
    reason: g.reason,
    place: placeText(g),
    placeLabel: g.place.length === 1 ? (g.place[0]?.[0] ?? "place") : "place",
    count: g.members.length,
  };
}

/** Groups of a roll-up that a short channel (Chatbot, Slack, the e-mail's summary) still lists one by one. */
const ROLLED_UP_LISTED = 3;

/**
 * Whether a channel with little room lists each group: every group of a kind and state without a
 * roll-up, and the first `ROLLED_UP_LISTED` of one with (the roll-up line tells the rest), so
 * that a distinct incident is not crowded out by the many groups of one event.
 */
export function listedBeside(groups: readonly RollUpGroup[]): boolean[] {
  const rolled = new Set(rollUps(groups).map((r) => `${r.kind}|${r.state}`));
  const seen = new Map<string, number>();
  return groups.map((g) => {
    const key = `${g.kind}|${g.state}`;
    if (!rolled.has(key)) return true;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return n <= ROLLED_UP_LISTED;
  });
}
