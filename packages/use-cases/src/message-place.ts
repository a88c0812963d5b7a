import type { StructuredMessage } from "./structured-message.ts";

/**
 * Where a message stands among the messages of its key, as the Slack and pager functions order
 * them: `key` (an incident's `incident.key`, a health episode's `key`), `at` (the time of the run
 * that sent it), and `place`, a number that grows with them.
 */
export interface MessagePlace {
  key: string;
  at: string;
  place: number;
}

/**
 * The place of an incident message or a health notice; undefined for what has no key that later
 * messages supersede (a roll-up or digest without `incident`, a test notice, text).
 *
 * A run sends at most one message per key to a topic (one per incident with news, one health
 * notice), so the run's time orders a key's messages: runs of one audit hold its lease one at a
 * time, and each judges by its own time. Within one time, an ending (`resolved`, `recovered`)
 * comes after an opening: it cannot precede what it ends. `place` is that pair as one number,
 * the milliseconds doubled plus one for an ending: exact within JavaScript's safe integers for
 * any four-digit year, and compared by DynamoDB as a number.
 */
export function placeOf(message: StructuredMessage): MessagePlace | undefined {
  if (message.kind === "digest" && message.digest.incident) {
    const { at, incident } = message.digest;
    return placed(incident.key, at, incident.status === "resolved");
  }
  if (message.kind === "health") {
    const { key, at, status } = message.notice;
    return placed(key, at, status === "recovered");
  }
  return undefined;
}

function placed(key: string, at: string, ends: boolean): MessagePlace | undefined {
  // `at` is a date-time the schema took (`iso.datetime`); one Date cannot hold is not ordered.
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? undefined : { key, at, place: ms * 2 + (ends ? 1 : 0) };
}

/** The run time a place stands for, for logs (`lastAppliedAt`). */
export function placeTime(place: number): string {
  return new Date(Math.floor(place / 2)).toISOString();
}
