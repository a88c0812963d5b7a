import { silenceCommand } from "./commands.ts";
import { type Grouping, groupTransitions, type TransitionGroup } from "./groups.ts";
import { fillTemplate, linkValues } from "./links.ts";
import type { DigestContext } from "./message.ts";
import type { Transition, TransitionRef } from "./snapshot.ts";

// What a run tells, decided once: its incidents (groups) in the order they are told, each with
// its members, their links and inspect commands, and how to silence it. Every channel renders
// this plan (`@fleet-auditor/render`); none of them groups, fills a link or builds a command of
// its own, so all say the same.

/** One transition as the channels tell it. */
export interface PlannedMember {
  ref: TransitionRef;
  transition: Transition;
  /** The finding's console page and runbook, from the link templates (absent: no link). */
  links: { runtime?: string; runbook?: string };
  /** The command that shows what the finding is about (its presenter's), if one can be pasted. */
  inspect?: string;
}

/** One incident with news: its group, members as told, and how to silence it. */
export interface PlannedGroup extends TransitionGroup {
  /** The members in `members` order, as told. */
  told: PlannedMember[];
  /** `fleet-auditor silences add …` for the group (none for resolutions, or when it cannot be pasted). */
  silence?: string;
}

/** A run's notification plan. */
export interface NotificationPlan {
  groups: PlannedGroup[];
  /** Every member, group by group: the order the structured digest names them in. */
  order: TransitionRef[];
}

/** Plans what the run's messages tell of `refs` (silenced transitions are left out before). */
export function planNotification(
  ctx: Pick<DigestContext, "audit" | "groupBy" | "presenter" | "links" | "store">,
  transitions: readonly Transition[],
  refs: readonly TransitionRef[],
): NotificationPlan {
  const grouping: Grouping = { groupBy: ctx.groupBy, tally: ctx.presenter.tally.label };
  const groups = groupTransitions(transitions, refs, grouping).map((g): PlannedGroup => {
    const silence =
      g.kind === "resolved"
        ? undefined
        : silenceCommand({ audit: ctx.audit, labels: Object.entries(g.labels) }, ctx.store);
    return {
      ...g,
      told: g.members.map((ref) => member(ctx, transitions, ref)),
      ...(silence ? { silence } : {}),
    };
  });
  return { groups, order: groups.flatMap((g) => g.members) };
}

function member(
  ctx: Pick<DigestContext, "presenter" | "links" | "store">,
  transitions: readonly Transition[],
  ref: TransitionRef,
): PlannedMember {
  const transition = transitions[ref] as Transition;
  const values = linkValues(transition.finding, ctx.presenter);
  const runtime = fillTemplate(ctx.links?.runtime, values);
  const runbook = fillTemplate(ctx.links?.runbook, values);
  const inspect = ctx.presenter.inspect(transition.finding, ctx.store ?? {});
  return {
    ref,
    transition,
    links: { ...(runtime ? { runtime } : {}), ...(runbook ? { runbook } : {}) },
    ...(inspect ? { inspect } : {}),
  };
}
