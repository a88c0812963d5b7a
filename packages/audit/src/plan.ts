import { type AlertRow, alertRow, type GroupWords, groupWords } from "./alert-row.ts";
import { silenceCommand } from "./commands.ts";
import { reasonOf, stateOf } from "./finding.ts";
import { type Grouping, groupTransitions, type TransitionGroup } from "./groups.ts";
import { fillTemplate, linkValues } from "./links.ts";
import type { DigestContext } from "./message.ts";
import type { DigestV1Row } from "./presenter.ts";
import type { Transition, TransitionRef } from "./snapshot.ts";
import { formatCount } from "./text.ts";

// What a run tells, decided once: its incidents (groups) in the order they are told, each with
// its members, their links and inspect commands, and how to silence it. Every channel renders
// this plan (`@fleet-auditor/render`); none of them groups, fills a link or builds a command of
// its own, so all say the same.

/** One transition as the channels tell it. */
export interface PlannedMember {
  ref: TransitionRef;
  transition: Transition;
  /** How it reads in every channel: its presenter asked once, when first read (`alert-row.ts`). */
  readonly row: AlertRow;
  /**
   * Its fields in the structured digest v1, which programs read, and its failing operation before
   * a change (`previousOperation`): the presenter's `digestV1`.
   */
  readonly digestV1: { row: DigestV1Row; previousOperation?: unknown };
  /** The finding's console page and runbook, from the link templates (absent: no link). */
  links: { runtime?: string; runbook?: string };
  /** The command that shows what the finding is about (its presenter's), if one can be pasted. */
  inspect?: string;
}

/** One incident with news: its group, members as told, and how to silence it. */
export interface PlannedGroup extends TransitionGroup {
  /** The members in `members` order, as told. */
  told: PlannedMember[];
  /** The words it is told with ("runtimes", "plans", "in"). */
  words: GroupWords;
  /** What its structured digest v1 group carries besides its counts (`edge: true`). */
  digestV1: { readonly edge?: true };
  /** `fleet-auditor silences add …` for the group (none for resolutions, or when it cannot be pasted). */
  silence?: string;
  /**
   * A `changed` group: what its members were before, most first ("error (err_x)", 120), so that
   * a group told as one line still says from what to what.
   */
  from?: Array<[was: string, count: number]>;
}

/** A run's notification plan. */
export interface NotificationPlan {
  groups: PlannedGroup[];
  /**
   * Every member, taken round-robin over the groups (each group's first, then each one's
   * second, …): the order the structured digest names them in, so that a message with room for
   * some names every incident's first runtimes, not the largest one's all.
   */
  order: TransitionRef[];
}

/** Plans what the run's messages tell of `refs` (silenced transitions are left out before). */
export function planNotification(
  ctx: Pick<DigestContext, "audit" | "groupBy" | "presenter" | "links" | "store" | "at">,
  transitions: readonly Transition[],
  refs: readonly TransitionRef[],
): NotificationPlan {
  const grouping: Grouping = { groupBy: ctx.groupBy, tally: ctx.presenter.tally.label };
  const groups = groupTransitions(transitions, refs, grouping).map((g): PlannedGroup => {
    const silence =
      g.kind === "resolved"
        ? undefined
        : silenceCommand({ audit: ctx.audit, labels: Object.entries(g.labels) }, ctx.store);
    const from = g.kind === "changed" ? previously(transitions, g.members) : undefined;
    return {
      ...g,
      told: g.members.map((ref) => member(ctx, transitions, ref)),
      words: groupWords(ctx.presenter, g.state),
      digestV1: ctx.presenter.digestV1.group,
      ...(silence ? { silence } : {}),
      ...(from ? { from } : {}),
    };
  });
  return { groups, order: roundRobin(groups.map((g) => g.members)) };
}

/** Each list's first, then each one's second, …: every list is named before any is named twice. */
function roundRobin<T>(lists: ReadonlyArray<readonly T[]>): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.length) out.push(list[i] as T);
  return out;
}

/** What changed members were before: "state (reason)", most first. */
function previously(
  transitions: readonly Transition[],
  refs: readonly TransitionRef[],
): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const ref of refs) {
    const t = transitions[ref] as Transition;
    const state = t.previous ? stateOf(t.previous) : (t.previousState ?? "");
    const reason = t.previous ? reasonOf(t.previous) : "";
    const was = `${state || "unknown"}${reason ? ` (${reason})` : ""}`;
    counts.set(was, (counts.get(was) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function member(
  ctx: Pick<DigestContext, "presenter" | "links" | "store" | "at">,
  transitions: readonly Transition[],
  ref: TransitionRef,
): PlannedMember {
  const transition = transitions[ref] as Transition;
  const values = linkValues(transition.finding, ctx.presenter);
  const runtime = fillTemplate(ctx.links?.runtime, values);
  const runbook = fillTemplate(ctx.links?.runbook, values);
  const inspect = ctx.presenter.inspect(transition.finding, ctx.store ?? {});
  const links = [
    ...(runtime ? [{ name: "console", url: runtime }] : []),
    ...(runbook ? [{ name: "runbook", url: runbook }] : []),
  ];
  // A row and v1's fields are built when a channel first reads them: a run of 20,000 transitions
  // names a few hundred, and building every row would hold their e-mail lines and details at once.
  let row: AlertRow | undefined;
  let digestV1: PlannedMember["digestV1"] | undefined;
  return {
    ref,
    transition,
    get digestV1() {
      if (!digestV1) {
        const previousOperation = transition.previous
          ? ctx.presenter.digestV1.row(transition.previous).operation
          : undefined;
        digestV1 = {
          row: ctx.presenter.digestV1.row(transition.finding),
          ...(previousOperation !== undefined ? { previousOperation } : {}),
        };
      }
      return digestV1;
    },
    get row() {
      row ??= alertRow(transition, ctx.presenter, ctx.at, { links, ...(inspect ? { inspect } : {}) });
      return row;
    },
    links: { ...(runtime ? { runtime } : {}), ...(runbook ? { runbook } : {}) },
    ...(inspect ? { inspect } : {}),
  };
}

// What a changed group's line names of what its members were; the rest are "…".
const FROM_SHOWN = 4;

/**
 * "was error (err_x) 120, was failed (err_y) 81": a changed group's `from` as every channel
 * words it, each value through the channel's `text` (one line, escaped as it needs).
 */
export function fromText(
  from: ReadonlyArray<readonly [was: string, count: number]>,
  text: (was: string) => string,
): string {
  const shown = from.slice(0, FROM_SHOWN).map(([was, n]) => `was ${text(was)} ${formatCount(n)}`);
  return `${shown.join(", ")}${from.length > FROM_SHOWN ? ", …" : ""}`;
}
