import { inspectCommand, pastableCommand, silenceCommand } from "./commands.ts";
import type { EdgeDetail } from "./edge-detail.ts";
import type { Finding } from "./finding.ts";
import type { TransitionGroup } from "./groups.ts";
import { leftOutLine } from "./left-out.ts";
import { fillTemplate, findingValues } from "./links.ts";
import type { DigestContext } from "./message.ts";
import { TRANSITION_KINDS, type Transition, type TransitionKind, type TransitionRef } from "./snapshot.ts";
import { humanDuration, oneLine, shortTime } from "./text.ts";

const HEADINGS: Record<TransitionKind, string> = {
  firing: "NEW",
  changed: "CHANGED",
  reminder: "STILL FAILING",
  resolved: "RESOLVED",
};
const WORDS: Record<TransitionKind, string> = {
  firing: "new",
  changed: "changed",
  reminder: "still failing",
  resolved: "resolved",
};
/** Gmail clips a body past about 102 KB: the e-mail stays under this, in UTF-8 bytes. */
export const EMAIL_BUDGET = 100_000;
/** A group larger than this is told as one line with a count and examples. */
export const GROUP_COLLAPSE_AT = 20;
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
 * The plain-text e-mail: what happened and where to read everything first, then a summary by
 * group, then a section per kind. Large groups are one line with a count and examples; when the
 * text would pass `EMAIL_BUDGET`, whole kinds collapse (resolved first), and groups that still do
 * not fit are counted at the end. Every text from KEB is one line and follows a label of ours
 * on its line, so none can forge a line; every command is quoted (`commands.ts`) or left out.
 */
export function renderText(
  ctx: DigestContext,
  transitions: readonly Transition[],
  groups: readonly TransitionGroup[],
): RenderedText {
  const collapseAt = ctx.collapseAt ?? GROUP_COLLAPSE_AT;
  const thresholds = Object.fromEntries(TRANSITION_KINDS.map((k) => [k, collapseAt])) as Record<
    TransitionKind,
    number
  >;
  let rendered = renderWith(ctx, transitions, groups, thresholds);
  for (const kind of COLLAPSE_ORDER) {
    if (rendered.hiddenGroups === 0 && bytes(rendered.text) <= EMAIL_BUDGET) break;
    thresholds[kind] = 0;
    rendered = renderWith(ctx, transitions, groups, thresholds);
  }
  return rendered;
}

function renderWith(
  ctx: DigestContext,
  transitions: readonly Transition[],
  groups: readonly TransitionGroup[],
  collapseAt: Record<TransitionKind, number>,
): RenderedText {
  const out = new Budgeted(EMAIL_BUDGET - 1_000);
  const named = new Set<TransitionRef>();
  out.force(...head(ctx), "", ...summary(groups), "");
  let hidden = 0;
  let hiddenTransitions = 0;
  for (const kind of TRANSITION_KINDS) {
    const section = groups.filter((g) => g.kind === kind);
    if (section.length === 0) continue;
    const count = section.reduce((n, g) => n + g.members.length, 0);
    if (!out.add([`${HEADINGS[kind]} (${count})`])) {
      hidden += section.length;
      hiddenTransitions += count;
      continue;
    }
    for (const g of section) {
      const collapsed = g.members.length > collapseAt[kind];
      const shown = collapsed ? g.members.slice(0, EXAMPLES) : g.members;
      const lines = collapsed
        ? groupLines(ctx, transitions, g)
        : shown.flatMap((ref) => transitionLines(ctx, transitions[ref] as Transition, kind === "reminder"));
      if (out.add(lines)) for (const ref of shown) named.add(ref);
      else {
        hidden++;
        hiddenTransitions += g.members.length;
      }
    }
    out.force("");
  }
  if (hidden > 0) {
    out.force(
      `+${hiddenTransitions} more transitions in ${hidden} group(s) not shown here, to keep this e-mail readable; ${ctx.report.stored ? "all are in the run report above" : "they are sent again next run"}.`,
      "",
    );
  }
  out.force(`Run ${oneLine(ctx.runId, 100)}.`);
  return { text: out.text(), named, hiddenGroups: hidden };
}

function head(ctx: DigestContext): string[] {
  const where = ctx.landscape ? `[${oneLine(ctx.landscape, 40)}] ` : "";
  const lines = [
    `fleet-auditor ${where}${oneLine(ctx.audit, 40)} audit, run ${oneLine(ctx.runId, 100)} at ${shortTime(ctx.at)}`,
  ];
  lines.push(
    ctx.complete
      ? `Scan complete: ${ctx.listed} ${ctx.listedWhat ?? "runtimes"} listed, ${ctx.flagged} flagged.`
      : `Scan INCOMPLETE (${oneLine(ctx.incompleteReason ?? "unknown", 300)}): nothing was resolved this run; ${ctx.listed} ${ctx.listedWhat ?? "runtimes"} listed.`,
  );
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

/** Counts by kind, then one row per group (kind, count, state, reason, region, plans, since). */
function summary(groups: readonly TransitionGroup[]): string[] {
  const byKind = TRANSITION_KINDS.map((k) => [k, groups.filter((g) => g.kind === k)] as const)
    .map(([k, gs]) => [k, gs.reduce((n, g) => n + g.members.length, 0)] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${WORDS[k]}`);
  const lines = [`Summary: ${byKind.join(", ")}`];
  const rows = [...groups].sort(
    (a, b) =>
      TRANSITION_KINDS.indexOf(a.kind) - TRANSITION_KINDS.indexOf(b.kind) || a.since.localeCompare(b.since),
  );
  for (const g of rows.slice(0, SUMMARY_ROWS)) {
    lines.push(
      `  ${HEADINGS[g.kind].padEnd(13)} ${String(g.members.length).padStart(6)}  ${oneLine(g.state, 40)}${g.reason ? ` (${oneLine(g.reason, 80)})` : ""} in ${oneLine(g.region, 40) || "-"}; ${plans(g)}; since ${shortTime(g.since)}`,
    );
  }
  if (rows.length > SUMMARY_ROWS) lines.push(`  +${rows.length - SUMMARY_ROWS} more groups`);
  return lines;
}

function plans(g: TransitionGroup): string {
  const shown = g.plans.slice(0, 4).map(([p, n]) => `${oneLine(p, 30) || "-"} ${n}`);
  return `${g.edge ? "verbs" : "plans"} ${shown.join(", ")}${g.plans.length > 4 ? ", …" : ""}`;
}

/** What a group's members are, for "* 25 … stuck in edge-17". */
function noun(g: TransitionGroup): string {
  if (!g.edge) return "runtimes";
  return g.state === "stuck" ? "Applications" : g.state === "refused" ? "refusal kinds" : "quarantine codes";
}

/** A collapsed group: one line with its count, examples, its runbook and how to silence it. */
function groupLines(ctx: DigestContext, transitions: readonly Transition[], g: TransitionGroup): string[] {
  const first = transitions[g.members[0] as TransitionRef] as Transition;
  const verb = g.kind === "resolved" ? `no longer ${oneLine(g.state, 40)}` : oneLine(g.state, 40);
  const lines = [
    `* ${g.members.length} ${noun(g)} ${verb}${g.reason ? ` (${oneLine(g.reason, 80)})` : ""} in ${oneLine(g.region, 40) || "-"}, ${plans(g)}, since ${shortTime(g.since)}${g.kind === "resolved" ? "" : ` [${g.severity}]`}`,
  ];
  const examples = g.members
    .slice(0, EXAMPLES)
    .map((ref) => transitions[ref] as Transition)
    .map((t) =>
      t.finding.edge
        ? oneLine(t.finding.shootName, 80)
        : `shoot ${oneLine(t.finding.shootName, 40) || "-"} (instance ${oneLine(t.instanceID, 60)})`,
    );
  lines.push(`    e.g. ${examples.join(", ")}`);
  if (g.kind !== "resolved") {
    const description = first.finding.operation?.description;
    if (description) lines.push(`    description: ${oneLine(description, 300)}`);
    const runbook = fillTemplate(ctx.links?.runbook, findingValues(first.finding));
    if (runbook) lines.push(`    runbook: ${runbook}`);
    const silence = silenceCommand({ ...g, audit: ctx.audit });
    if (silence) lines.push(`    silence: ${silence}`);
  }
  return lines;
}

/** One runtime: a block, or one line for a reminder in a small group. */
function transitionLines(ctx: DigestContext, t: Transition, brief: boolean): string[] {
  const f = t.finding;
  if (f.edge) return edgeLines(ctx, t, f.edge, brief);
  const since = `since ${shortTime(t.since)} (${humanDuration(Date.parse(ctx.at) - Date.parse(t.since))})`;
  if (t.kind === "resolved") {
    const ending = t.ending ? `now ${oneLine(t.ending, 60)}` : "how it ended is unknown (KEB lookup failed)";
    return [
      `- resolved after ${humanDuration(Date.parse(ctx.at) - Date.parse(t.since))}: ${placement(f)}, was ${oneLine(f.state, 40)}${reasonText(f)}, ${ending}`,
      `    instance ${oneLine(f.instanceID, 60)}`,
    ];
  }
  if (brief)
    return [`- [${t.severity}] still ${oneLine(f.state, 40)}${reasonText(f)} ${since}: ${placement(f)}`];
  const state =
    t.kind === "changed" && t.previousState && t.previousState !== t.state
      ? `${oneLine(t.previousState, 40)} -> ${oneLine(t.state, 40)}`
      : oneLine(t.state, 40);
  const lines = [`- [${t.severity}] ${state}: ${placement(f)}, ${since}`];
  lines.push(
    `    instance ${oneLine(f.instanceID, 60)}${f.runtimeID ? `, runtime ${oneLine(f.runtimeID, 60)}` : ""}`,
  );
  lines.push(
    `    global account ${oneLine(f.globalAccountID, 60) || "-"}, subaccount ${oneLine(f.subAccountID, 60) || "-"}`,
  );
  if (f.expiredAt) lines.push(`    expired at ${oneLine(f.expiredAt, 40)}`);
  if (t.kind === "changed" && t.previous) lines.push(`    was: ${operationText(t.previous)}`);
  if (f.operation) {
    lines.push(`    ${t.kind === "changed" ? "now" : "last operation"}: ${operationText(f)}`);
    if (f.operation.description) lines.push(`    description: ${oneLine(f.operation.description)}`);
    const steps = f.operation.notCompletedSteps;
    if (steps?.length) lines.push(`    steps not completed: ${oneLine(steps.join(", "), 300)}`);
  }
  const console = fillTemplate(ctx.links?.runtime, findingValues(f));
  const runbook = fillTemplate(ctx.links?.runbook, findingValues(f));
  if (console) lines.push(`    console: ${console}`);
  if (runbook) lines.push(`    runbook: ${runbook}`);
  return [...lines, ...inspectLine(f)];
}

/** `inspect: …`, or nothing when the finding's ID or node cannot be pasted safely. */
function inspectLine(f: Finding): string[] {
  const command = inspectCommand(f);
  return command ? [`    inspect: ${command}`] : [];
}

function operationText(f: Finding): string {
  const op = f.operation;
  if (!op) return `state ${oneLine(f.state, 40)}`;
  const where = [
    op.errorStep && `step ${oneLine(op.errorStep, 80)}`,
    op.errorComponent && `component ${oneLine(op.errorComponent, 80)}`,
    op.errorReason && `reason ${oneLine(op.errorReason, 80)}`,
  ]
    .filter(Boolean)
    .join(", ");
  return `${op.kind} ${oneLine(op.state, 40)}${op.updatedAt ? ` at ${oneLine(op.updatedAt, 40)}` : ""}${where ? ` (${where})` : ""}`;
}

function reasonText(f: Finding): string {
  const reason = f.operation?.errorReason || f.operation?.errorStep;
  return reason ? ` (${oneLine(reason, 80)})` : "";
}

/** One edge finding (the applications audit): where on the edge, what, since when, how to look. */
function edgeLines(ctx: DigestContext, t: Transition, e: EdgeDetail, brief: boolean): string[] {
  const f = t.finding;
  const age = humanDuration(Date.parse(ctx.at) - Date.parse(t.since));
  if (t.kind === "resolved") {
    const how = {
      stuck: "it completed, was answered or aged out",
      refused: "the node's refusals fell below the threshold",
      quarantined: "no more messages quarantined in the window",
    }[e.what];
    return [`- resolved after ${age}: ${placement(f)}, was ${oneLine(f.state, 40)}; ${how}`];
  }
  const since = `since ${shortTime(t.since)} (${age})`;
  if (brief) return [`- [${t.severity}] still ${oneLine(f.state, 40)} ${since}: ${placement(f)}`];
  const lines = [`- [${t.severity}] ${oneLine(f.state, 40)}: ${placement(f)}, ${since}`];
  if (e.what === "stuck") {
    lines.push(
      `    Application ${oneLine(f.instanceID.replace(/^app:/, ""), 80)}: ${oneLine(e.status ?? "", 40)} since ${shortTime(e.since ?? t.since)}, resource ${oneLine(e.resource, 60) || "-"}`,
    );
  }
  if (e.what === "refused") {
    lines.push(`    requests: ${oneLine((e.requests ?? []).join(", "), 200)}; e.g. ${oneLine(e.key, 120)}`);
  }
  const runbook = fillTemplate(ctx.links?.runbook, findingValues(f));
  if (runbook) lines.push(`    runbook: ${runbook}`);
  return [...lines, ...inspectLine(f)];
}

/** `aws eu-central-1 shoot c-1a2b3c4` with the blanks KEB leaves on early failures shown as `-`. */
export function placement(f: Finding): string {
  if (f.edge) {
    return f.edge.node
      ? `node ${oneLine(f.edge.node, 60)}: ${oneLine(f.shootName, 160)}`
      : oneLine(f.shootName, 160);
  }
  return `${oneLine(f.plan, 40) || "-"} ${oneLine(f.region, 40) || "-"} shoot ${oneLine(f.shootName, 40) || "-"}`;
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
