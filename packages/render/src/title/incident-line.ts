import { type DigestContext, formatCount, humanDuration, shortTime } from "@fleet-auditor/audit";
import { incidentEnded } from "./plan-title.ts";

/** An incident as the line under a message's title tells it. */
export interface IncidentFacts {
  key: string;
  startsAt: string;
  /** Members still firing after the run, when known. */
  firing?: number | undefined;
  ended: boolean;
  /** It opened flapping: the episodes with its values in the window, it included. */
  flapping?: number | undefined;
}

/**
 * The line every incident message carries, in every channel: its key (so that a page, a thread
 * and a mail can be matched, and `--incident KEY` copied), since when, and whether it ended:
 * `Incident inc-Xa3…, since 2026-11-30 04:00 UTC (2h): 6 failing now.` or `Incident inc-Xa3…
 * ended: lasted 3h 12m (since 2026-11-30 04:00 UTC).`, and `Flapping (3 times in the window).` for
 * one that opened flapping. `code` shows the key as the channel shows a value.
 */
export function incidentLine(
  i: IncidentFacts,
  at: string,
  code: (value: string) => string = (v) => v,
): string {
  const age = humanDuration(Date.parse(at) - Date.parse(i.startsAt));
  const flapping = i.flapping ? ` Flapping (${i.flapping} times in the window).` : "";
  if (i.ended)
    return `Incident ${code(i.key)} ended: lasted ${age} (since ${shortTime(i.startsAt)}).${flapping}`;
  const firing = i.firing === undefined ? "" : `: ${formatCount(i.firing)} failing now`;
  return `Incident ${code(i.key)}, since ${shortTime(i.startsAt)} (${age})${firing}.${flapping}`;
}

/** The facts of a message's incident, from its digest context or its structured digest alike. */
export function incidentOf(
  i: Pick<NonNullable<DigestContext["incident"]>, "key" | "startsAt" | "status" | "firing" | "flapping">,
): IncidentFacts {
  return {
    key: i.key,
    startsAt: i.startsAt,
    firing: i.firing,
    ended: incidentEnded(i),
    flapping: i.flapping,
  };
}
