import { oneLine, type PlannedMember } from "@fleet-auditor/audit";
import type { DigestV1Transition } from "./digest-v1-schema.ts";

// A row's `alert`: what a channel out of process (the Slack and pager functions) renders of it,
// carried in incident and pager messages. Every byte of it is a byte less for naming runtimes
// within SNS's 256 KiB, so a row carries only what a channel shows of it and nothing its v1 fields
// already say: a large incident's Slack message names nearly as many runtimes as the run's digest.

/** Where a row stands among its group's rows in one message: what of its `alert` is shown. */
export interface RowPlace {
  /** It is its group's first row in the message: the one a chat takes the inspect command of. */
  first: boolean;
  /** It is its group's only member: a chat may show its fields (`details`) rather than a list. */
  alone: boolean;
  /** It is the message's first row: a page's summary says its description (`details`). */
  lead?: boolean;
  /**
   * Past its group's first row: the note that row carries (`null`: none). A row whose note is the
   * same leaves it out, as most of a large incident's rows do.
   */
  groupNote?: string | null;
}

type DigestV1Alert = NonNullable<DigestV1Transition["alert"]>;

/**
 * The row as a channel renders it: its key and summary (each left out when the row's `instanceID`
 * or `shootName` says the same), its note (cut to what Slack shows; past its group's first row only
 * when it differs from that row's), its inspect command on its unresolved group's first row only
 * (Slack's `inspect:` line is the group's first member's), and its subject and details only when
 * it is its group's one member (what a chat can show of one finding), its details on the message's
 * first row too (what a page's summary quotes of KEB's description). Measured at 3,000 KEB
 * transitions: a row past its group's first carries no `alert` at all, and an incident message
 * names 249 rows where the run's digest names 251 (docs/contracts.md).
 */
export function channelAlert(
  m: PlannedMember,
  v1: { instanceID: string; shootName: string },
  place: RowPlace,
): DigestV1Alert {
  const r = m.row;
  return {
    ...(r.key !== v1.instanceID ? { key: r.key } : {}),
    ...(r.summary !== v1.shootName ? { summary: r.summary } : {}),
    ...noteOf(r.note, place),
    // A chat suggests no command for what recovered.
    ...(place.first && r.inspect !== undefined && m.transition.kind !== "resolved"
      ? { inspect: r.inspect }
      : {}),
    // A message that tells one row alone titles it by its subject (state and reason first).
    ...(place.alone ? { subject: oneLine(r.subject, ALERT_SUBJECT) } : {}),
    ...(place.alone || place.lead
      ? {
          details: r.details.map((d) => ({
            name: oneLine(d.name, 60),
            value: oneLine(d.value, ALERT_DETAIL),
          })),
        }
      : {}),
  };
}

/**
 * A row's `note`: left out past its group's first row when it is that row's (a reader takes the
 * first row's), and `""` there when it has none while the first row has one.
 */
function noteOf(given: string | undefined, place: RowPlace): { note?: string } {
  const note = given === undefined ? undefined : oneLine(given, ALERT_NOTE);
  if (place.groupNote === undefined) return note === undefined ? {} : { note };
  if (note === (place.groupNote ?? undefined)) return {};
  return { note: note ?? "" };
}

// What a channel shows of a note, of a title's name of one row and of a detail's value.
const ALERT_NOTE = 160;
const ALERT_SUBJECT = 300;
const ALERT_DETAIL = 300;
