import {
  countOf,
  type DigestContext,
  fillTemplate,
  formatCount,
  fromText,
  leftOutLine,
  listedBeside,
  oneLine,
  type PlannedGroup,
  type PlannedMember,
  pastableCommand,
  placeText,
  rollUpGroup,
  rollUps,
  rollUpText,
  shortTime,
  TRANSITION_KINDS,
  type TransitionKind,
  type TransitionRef,
} from "@fleet-auditor/audit";
import { rollUpNoun } from "../roll-up-noun.ts";
import { incidentLine, incidentOf } from "../title/incident-line.ts";

const HEADINGS: Record<TransitionKind, string> = {
  firing: "NEW",
  changed: "CHANGED",
  reminder: "STILL FAILING",
  resolved: "RECOVERED",
};
const WORDS: Record<TransitionKind, string> = {
  firing: "new",
  changed: "changed",
  reminder: "still failing",
  resolved: "recovered",
};
/** Gmail clips a body past about 102 KB: the e-mail stays under this, in UTF-8 bytes. */
export const EMAIL_BUDGET = 100_000;
/** A group larger than this is told as one line with a count and examples. */
const GROUP_COLLAPSE_AT = 20;
const EXAMPLES = 3;
const SUMMARY_ROWS = 30;
// Collapsed first when the e-mail would not fit: resolved news matters least.
const COLLAPSE_ORDER: TransitionKind[] = ["resolved", "reminder", "changed", "firing"];

/** The e-mail text and which transitions it names one by one (the rest it counts). */
export interface RenderedText {
  text: string;
  named: Set<TransitionRef>;
  /** Groups left out for the size budget (their transitions are only in the report). */
  hiddenGroups: number;
}

/**
 * The plain-text e-mail: what happened and where to read everything first (a roll-up line for an
 * event that spans many groups), then a summary by group, then a section per kind in the order
 * every channel tells them (new, changed, reminders, resolved). Each group is a head line with
 * what its members share (a description, a runbook) and how to silence it, then its members;
 * large groups are the head line with a count and examples; when the
 * text would pass `EMAIL_BUDGET`, whole kinds collapse (resolved first), and groups that still do
 * not fit are counted at the end. Every text from KEB is one line and follows a label of ours
 * on its line, so none can forge a line; every command is quoted (audit's `commands.ts`) or left out.
 */
export function renderText(ctx: DigestContext, groups: readonly PlannedGroup[]): RenderedText {
  const collapseAt = ctx.collapseAt ?? GROUP_COLLAPSE_AT;
  const thresholds = Object.fromEntries(TRANSITION_KINDS.map((k) => [k, collapseAt])) as Record<
    TransitionKind,
    number
  >;
  // The head, roll-ups and summary do not depend on what collapses: made once for every try.
  const rolled = rollUpLines(groups);
  const top = [...head(ctx), ...(rolled.length ? ["", ...rolled] : []), "", ...summary(groups), ""];
  let rendered = renderWith(ctx, top, groups, thresholds);
  for (const kind of COLLAPSE_ORDER) {
    if (rendered.hiddenGroups === 0 && bytes(rendered.text) <= EMAIL_BUDGET) break;
    thresholds[kind] = 0;
    rendered = renderWith(ctx, top, groups, thresholds);
  }
  return rendered;
}

function renderWith(
  ctx: DigestContext,
  top: readonly string[],
  groups: readonly PlannedGroup[],
  collapseAt: Record<TransitionKind, number>,
): RenderedText {
  const out = new Budgeted(EMAIL_BUDGET - 1_000);
  const named = new Set<TransitionRef>();
  out.force(...top);
  let hidden = 0;
  let hiddenTransitions = 0;
  for (const kind of TRANSITION_KINDS) {
    const section = groups.filter((g) => g.kind === kind);
    if (section.length === 0) continue;
    const count = section.reduce((n, g) => n + g.members.length, 0);
    if (!out.add([`${HEADINGS[kind]} (${formatCount(count)})`])) {
      hidden += section.length;
      hiddenTransitions += count;
      continue;
    }
    for (const g of section) {
      const collapsed = g.members.length > collapseAt[kind];
      const shown = collapsed ? g.told.slice(0, EXAMPLES) : g.told;
      const lines = groupLines(g, collapsed);
      if (out.add(lines)) for (const m of shown) named.add(m.ref);
      else {
        hidden++;
        hiddenTransitions += g.members.length;
      }
    }
    out.force("");
  }
  if (hidden > 0) {
    out.force(
      `+${countOf(hiddenTransitions, "more transitions")} in ${countOf(hidden, "groups")} not shown here, to keep this e-mail readable; ${ctx.report.stored ? "all are in the run report above" : "they are sent again next run"}.`,
    );
  }
  return { text: out.text().trimEnd(), named, hiddenGroups: hidden };
}

function head(ctx: DigestContext): string[] {
  const where = ctx.landscape ? `[${oneLine(ctx.landscape, 40)}] ` : "";
  const lines = [
    `fleet-auditor ${where}${oneLine(ctx.audit, 40)} audit, run ${oneLine(ctx.runId, 100)} at ${shortTime(ctx.at)}`,
  ];
  const listed = countOf(ctx.listed, ctx.listedWhat ?? "runtimes");
  lines.push(
    ctx.complete
      ? `Scan complete: ${listed} listed, ${formatCount(ctx.flagged)} flagged.`
      : `Scan INCOMPLETE (${oneLine(ctx.incompleteReason ?? "unknown", 300)}): nothing was resolved this run; ${listed} listed.`,
  );
  if (ctx.incident) lines.push(oneLine(incidentLine(incidentOf(ctx.incident), ctx.at), 300));
  if (ctx.repeats)
    lines.push(
      `Run ${oneLine(ctx.repeats, 80)} was interrupted after publishing: some of this may repeat its message.`,
    );
  if (ctx.leftOut) lines.push(leftOutLine(ctx.leftOut));
  lines.push(...reportPointer(ctx));
  return lines;
}

/** Where every transition can be read; said near the top of every message. */
export function reportPointer(ctx: DigestContext): string[] {
  if (!ctx.report.stored) {
    return ["The run report could not be stored: what this message does not name is sent again next run."];
  }
  const url = fillTemplate(ctx.links?.report, { runId: ctx.runId });
  const command = pastableCommand(ctx.report.command);
  return [
    command
      ? `Every transition of this run: ${command}`
      : "Every transition of this run is in its run report.",
    ...(url ? [`  ${url}`] : []),
  ];
}

/** Counts by kind, then one row per group in the order they are told (kind, count, state, reason, place, tally, since). */
function summary(groups: readonly PlannedGroup[]): string[] {
  const byKind = TRANSITION_KINDS.map((k) => [k, groups.filter((g) => g.kind === k)] as const)
    .map(([k, gs]) => [k, gs.reduce((n, g) => n + g.members.length, 0)] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${formatCount(n)} ${WORDS[k]}`);
  const lines = [`Summary: ${byKind.join(", ")}`];
  // A roll-up above speaks for most of its groups: the rows go to the other incidents.
  const listed = listedBeside(groups.map(rollUpGroup));
  const rows = groups.filter((_, i) => listed[i]);
  for (const g of rows.slice(0, SUMMARY_ROWS)) {
    const parts = [
      `${oneLine(g.state, 40)}${g.reason ? ` (${oneLine(g.reason, 80)})` : ""}${where(g)}`,
      tally(g),
      `since ${shortTime(g.since)}`,
    ].filter(Boolean);
    lines.push(
      `  ${HEADINGS[g.kind].padEnd(13)} ${formatCount(g.members.length).padStart(6)}  ${parts.join("; ")}`,
    );
  }
  const more = groups.length - Math.min(rows.length, SUMMARY_ROWS);
  if (more > 0)
    lines.push(
      `  +${countOf(more, "more groups")}${rows.length < groups.length ? ", in the roll-up above and below" : " below"}`,
    );
  return lines;
}

/** The roll-up lines of an event that spans many groups ("20,000 runtimes failed in 10 regions: …"). */
function rollUpLines(groups: readonly PlannedGroup[]): string[] {
  return rollUps(groups.map(rollUpGroup)).map(
    (r) => `${HEADINGS[r.kind]}: ${oneLine(rollUpText(r, rollUpNoun(groups, r)), 600)}`,
  );
}

/** " in eu-1", or "" for a group with no place (never a placeholder). */
function where(g: PlannedGroup): string {
  const place = oneLine(placeText(g), 40);
  return place ? ` in ${place}` : "";
}

/** "plans aws 20, trial 5": the group's members by its tally label; "" when none has one. */
function tally(g: PlannedGroup): string {
  const named = g.tally.filter(([p]) => oneLine(p, 30));
  if (named.length === 0) return "";
  const shown = named.slice(0, 4).map(([p, n]) => `${oneLine(p, 30)} ${formatCount(n)}`);
  return `${g.words.tally} ${shown.join(", ")}${named.length > 4 ? ", …" : ""}`;
}

/**
 * A group: its head line (count, state, reason, place, tally, since, severity); for a changed
 * group what its members were; what its members share said once (the presenter's note, a
 * runbook); how to silence it; then its members, or, collapsed, a few examples.
 */
function groupLines(g: PlannedGroup, collapsed: boolean): string[] {
  const first = g.told[0] as PlannedMember;
  const state = oneLine(g.state, 40);
  const verb = g.kind === "resolved" ? `no longer ${state}` : g.kind === "changed" ? `now ${state}` : state;
  const head = [
    `${countOf(g.members.length, g.words.noun)} ${verb}${g.reason ? ` (${oneLine(g.reason, 80)})` : ""}${where(g)}`,
    tally(g),
    `since ${shortTime(g.since)}`,
  ].filter(Boolean);
  const lines = [`* ${head.join(", ")}${g.kind === "resolved" ? "" : ` [${g.severity}]`}`];
  if (collapsed && g.from?.length) lines.push(`    ${fromText(g.from, (was) => oneLine(was, 80))}`);
  if (collapsed) {
    const examples = g.told.slice(0, EXAMPLES).map((m) => m.row.example);
    lines.push(`    e.g. ${examples.join(", ")}`);
  }
  let note: string | undefined;
  let runbook: string | undefined;
  if (g.kind !== "resolved") {
    // Collapsed, the first member speaks for the group; listed, only what every member shares.
    const notes = (collapsed ? [first] : g.told).map((m) => m.row.groupNote);
    const runbooks = (collapsed ? [first] : g.told).map((m) => m.links.runbook);
    note = notes.every((n) => n === notes[0]) ? notes[0] : undefined;
    runbook = runbooks.every((r) => r === runbooks[0]) ? runbooks[0] : undefined;
    if (note) lines.push(`    ${note}`);
    if (runbook) lines.push(`    runbook: ${runbook}`);
    if (g.silence) lines.push(`    silence: ${g.silence}`);
  }
  if (collapsed) return lines;
  const shared = new Set(note ? [`    ${note}`] : []);
  for (const m of g.told) {
    const own = transitionLines(m, g.kind === "reminder", runbook !== undefined);
    lines.push(...own.filter((l) => !shared.has(l)).map((l) => `  ${l}`));
  }
  return lines;
}

/**
 * One transition: the presenter's block (or one line for a reminder in a small group, or a
 * resolution), then its links and how to inspect it (its runbook only when the group's head did
 * not give it).
 */
function transitionLines(m: PlannedMember, brief: boolean, runbookShown: boolean): string[] {
  const lines = [...m.row.lines];
  if (brief || m.transition.kind === "resolved") return lines;
  if (m.links.runtime) lines.push(`    console: ${m.links.runtime}`);
  if (m.links.runbook && !runbookShown) lines.push(`    runbook: ${m.links.runbook}`);
  if (m.inspect) lines.push(`    inspect: ${m.inspect}`);
  return lines;
}

const bytes = (text: string): number => Buffer.byteLength(text);

/** Lines added while they fit a byte budget; `force` adds regardless (heads and footers). */
class Budgeted {
  readonly #lines: string[] = [];
  #bytes = 0;
  readonly #budget: number;
  constructor(budget: number) {
    this.#budget = budget;
  }
  add(lines: readonly string[]): boolean {
    const size = lines.reduce((n, l) => n + bytes(l) + 1, 0);
    if (this.#bytes + size > this.#budget) return false;
    this.force(...lines);
    return true;
  }
  force(...lines: string[]): void {
    for (const l of lines) {
      this.#lines.push(l);
      this.#bytes += bytes(l) + 1;
    }
  }
  text(): string {
    return this.#lines.join("\n");
  }
}
