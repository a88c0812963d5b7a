import {
  countOf,
  formatCount,
  humanDuration,
  type Severity,
  type TransitionKind,
} from "@fleet-auditor/audit";
import type { TitlePart } from "./fit-title.ts";
import { type GroupMix, type MixTally, mergeMixes } from "./group-mix.ts";

// Every title, whatever its channel, from one set of facts: the incident's values first (state,
// reason, place), then how many and what happened, what is inside, then the landscape, severity
// and audit. The renderers give the facts from the plan; the Slack and pager functions from the
// structured digest (`digest-title.ts`); `fitTitle` cuts the parts to the channel's room.

/** A group as a title reads it: the plan's and the structured digest's alike. */
interface TitleGroup {
  kind: TransitionKind;
  state: string;
  reason: string;
  /** Its `groupBy` labels and values (absent in a digest from before labels). */
  labels?: Readonly<Record<string, string>>;
  /** Its place as one text (a digest from before labels: the region). */
  region?: string;
  count: number;
  words?: { noun: string; place: string };
  mix?: GroupMix;
}

/** What a title is made from. */
export interface TitleSource {
  audit: string;
  landscape?: string;
  severity: Severity;
  complete: boolean;
  /** When the run judged (ISO): an ended incident lasted from its start until then. */
  at: string;
  counts: Readonly<Record<TransitionKind, number>>;
  /** The message's groups in the order they are told; the first leads a message of many incidents. */
  groups: readonly TitleGroup[];
  /** Findings the run left out, when this message tells them. */
  leftOut?: number;
  /** An incident message: the one incident it tells. */
  incident?: {
    /** The `groupBy` values it opened with (absent: its first group's). */
    values?: Readonly<Record<string, string>>;
    /** Members still firing after the run (absent in a digest from before it was told). */
    firing?: number;
    startsAt: string;
    ended: boolean;
  };
  /** The one transition a message tells alone, as its presenter names it (`failed (err_x) shoot c-1 in eu-1`). */
  one?: { subject: string; kind: TransitionKind };
}

const KIND_WORD: Record<TransitionKind, string> = {
  firing: "new",
  changed: "changed",
  reminder: "still failing",
  resolved: "recovered",
};
// Reasons a title names when an incident holds several; the rest are "…".
const REASONS = 4;
// States a title names when an incident holds several.
const STATES = 3;

/**
 * A title's parts (`fitTitle` fits them): `failed (err_quota) in eu-1: 24 recovered, 6 still
 * failing | prod-eu | CRITICAL | failing audit [fleet-auditor]`. An incident that its `groupBy`
 * does not split by reason or place says what it holds (`failed, error: 3,000 new runtimes in 33
 * regions (err_a 1,000 · err_b 1,000 · …)`); an incident with firing members is never told
 * resolved, and an ended one says how long it lasted. `tag`: the e-mail's `[fleet-auditor]`.
 */
export function titleParts(source: TitleSource, options: { tag?: boolean } = {}): TitlePart[] {
  const mix = mergeMixes(source.groups.map((g) => g.mix));
  const total = Object.values(source.counts).reduce((n, c) => n + c, 0);
  const one = total === 1 ? source.one : undefined;
  // A digest, or a roll-up (an incident message without values of its own: it holds several),
  // leads with its first group and says how many more; one incident's values say it all.
  const more = source.incident?.values || one ? [] : moreIncidents(source.groups);
  const lead = leadOf(source, mix);
  const parts: TitlePart[] = [
    ...(one
      ? [{ role: "lead" as const, text: one.subject, sep: "" }]
      : more.length > 0
        ? // The first group's place yields before `+N more`: "failed (err_quota) +3 more" is true.
          [
            { role: "lead" as const, text: lead.head, sep: "" },
            { role: "place" as const, text: lead.place, sep: " " },
          ]
        : [{ role: "lead" as const, text: `${lead.head}${lead.place ? ` ${lead.place}` : ""}`, sep: "" }]),
    ...more,
    { role: "news", text: news(source, one), sep: ": " },
    { role: "inside", text: one ? "" : inside(mix), sep: " " },
    { role: "landscape", text: source.landscape ?? "", sep: " | " },
    { role: "severity", text: source.severity === "info" ? "" : source.severity.toUpperCase(), sep: " | " },
    { role: "audit", text: `${source.audit} audit`, sep: " | " },
    ...(options.tag ? [{ role: "tag" as const, text: "[fleet-auditor]", sep: " " }] : []),
  ];
  // A message with nothing to lead (a short digest names no group) starts with its news.
  return parts.filter((p) => p.text !== "");
}

/**
 * The values of the incident, or of the message's first group: `failed (err_quota)` and its place
 * `in eu-1`.
 */
function leadOf(source: TitleSource, mix: GroupMix | undefined): { head: string; place: string } {
  const first = source.groups[0];
  const values = source.incident?.values ?? first?.labels ?? v1Values(first);
  if (!values) return { head: "", place: "" };
  const has = (label: string): boolean => Object.hasOwn(values, label);
  const state = has("state") ? values.state : mix?.state ? named(mix.state, STATES) : (first?.state ?? "");
  const reason = has("reason") ? values.reason : mix?.reason?.distinct === 1 ? mix.reason.top[0]?.value : "";
  let place = Object.entries(values)
    .filter(([label, value]) => label !== "state" && label !== "reason" && label !== "audit" && value)
    .map(([, value]) => value)
    .join(" ");
  if (!place && mix?.place?.distinct === 1) place = mix.place.top[0]?.value ?? "";
  const placeWord = first?.words?.place ?? "in";
  return {
    head: `${state || "flagged"}${reason ? ` (${reason})` : ""}`,
    place: place ? `${placeWord} ${place}` : "",
  };
}

/** A digest group from before labels was made of state, reason and region. */
function v1Values(g: TitleGroup | undefined): Record<string, string> | undefined {
  return g ? { state: g.state, reason: g.reason, region: g.region ?? "" } : undefined;
}

/** `failed, error, …`: the most frequent values, and `…` when there are more. */
function named(t: MixTally, shown: number): string {
  const values = t.top.slice(0, shown).map((v) => v.value || "-");
  return `${values.join(", ")}${t.distinct > shown ? ", …" : ""}`;
}

/** A digest or a roll-up of many incidents: ` +6 more` (incidents) after the first one's values. */
function moreIncidents(groups: readonly TitleGroup[]): TitlePart[] {
  const keys = new Set(groups.map((g) => JSON.stringify(g.labels ?? v1Values(g))));
  const more = keys.size - 1;
  return more > 0 ? [{ role: "more", text: `+${formatCount(more)} more`, sep: " " }] : [];
}

/** What happened, with numbers: `30 new runtimes`, `24 recovered, 6 still failing`, `resolved, lasted 3h 12m`. */
function news(source: TitleSource, one: TitleSource["one"]): string {
  const { counts, incident } = source;
  // One noun for the message's members only when every group has it: 30 new runtimes, not 30 new
  // Applications when 20 of them are refusals.
  const nouns = new Set(source.groups.map((g) => g.words?.noun ?? "findings"));
  const noun = nouns.size === 1 ? ([...nouns][0] as string) : "findings";
  const items: string[] = [];
  if (!source.complete) items.push("INCOMPLETE scan");
  // Its end first: what an on-call person needs to know before the numbers.
  if (incident?.ended)
    items.push(`resolved, lasted ${humanDuration(Date.parse(source.at) - Date.parse(incident.startsAt))}`);
  const firing = incident?.ended ? undefined : incident?.firing;
  if (one) items.push(KIND_WORD[one.kind]);
  else {
    if (counts.firing) items.push(countOf(counts.firing, `new ${noun}`));
    if (counts.changed) items.push(`${formatCount(counts.changed)} changed`);
    // An incident's reminders are its members still failing: the total below says it.
    if (counts.reminder && firing === undefined) items.push(`${formatCount(counts.reminder)} still failing`);
    if (counts.resolved) items.push(`${formatCount(counts.resolved)} recovered`);
  }
  if (firing !== undefined) {
    if (counts.resolved || counts.reminder) items.push(`${formatCount(firing)} still failing`);
    else if (firing !== counts.firing) items.push(`${formatCount(firing)} failing in all`);
  }
  if (source.leftOut) items.push(`${formatCount(source.leftOut)} left out`);
  return items.join(", ");
}

/** What an incident holds that its values do not say: ` in 33 regions (err_a 1,000 · err_b 1,000 · …)`. */
function inside(mix: GroupMix | undefined): string {
  const out: string[] = [];
  if (mix?.place && mix.place.distinct > 1)
    out.push(`in ${countOf(mix.place.distinct, `${mix.place.label}s`)}`);
  const reasons = mix?.reason?.top.filter((r) => r.value) ?? [];
  if (mix?.reason && mix.reason.distinct > 1 && reasons.length) {
    const shown = reasons.slice(0, REASONS).map((r) => `${r.value} ${formatCount(r.count)}`);
    out.push(`(${shown.join(" · ")}${mix.reason.distinct > shown.length ? " · …" : ""})`);
  }
  return out.join(" ");
}
