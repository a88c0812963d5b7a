import type { SlackMessage } from "@fleet-auditor/render";
import type { RunLogger, SlackPoster, SlackThreads } from "./ports.ts";

/** The incident an incident message tells (its structured digest's `incident`). */
export interface TellsIncident {
  key: string;
  status: "firing" | "resolved";
  /** The key whose thread it is posted in, when not its own (it opened flapping). */
  thread?: string;
}

/** Where a post went: a thread's parent, a reply in one, or a message on its own. */
export type Placement = "parent" | "reply" | "alone";

/**
 * Posts an incident's message in its Slack thread, with a poster that threads:
 * 1. look up the thread's parent by `incidentKey`;
 * 2. found: reply under it; an incident's end is broadcast (`reply_broadcast`), so that the
 *    channel, which saw it begin, sees it end, while changes and reminders stay in the thread;
 * 3. not found: post it as the parent and keep its `ts` at once (a conditional put: if two posts
 *    ever race, the first kept stays the thread).
 *
 * The window: when the post succeeds and keeping its `ts` fails, this throws, and the retry
 * (Lambda's) posts the message again as a new parent; the first stays in the channel as a
 * message without replies. That is the only way one incident gets two parents here, besides a
 * parent's retention running out (the store's, 90 days) and a 2xx answer that broke off before
 * its `ts` (logged; the incident's next message then starts the thread). A failed lookup throws
 * before anything is posted.
 */
export async function postInThread(
  deps: { poster: SlackPoster; threads: SlackThreads; log?: RunLogger },
  message: SlackMessage,
  incident: TellsIncident,
  deadline: number,
  logKeys: Record<string, unknown>,
): Promise<Placement> {
  const threadKey = incident.thread ?? incident.key;
  const parent = await deps.threads.parentOf(threadKey);
  if (parent) {
    const broadcast = incident.status === "resolved";
    await deps.poster.post(message, deadline, { threadTs: parent, ...(broadcast ? { broadcast } : {}) });
    return "reply";
  }
  const { ts } = await deps.poster.post(message, deadline);
  if (!ts) {
    deps.log?.warn(
      "posted, but Slack's answer broke off before its ts: the incident's next message starts its thread",
      logKeys,
    );
    return "alone";
  }
  let stands: string;
  try {
    stands = await deps.threads.keepParent(threadKey, ts);
  } catch (err) {
    deps.log?.warn(
      "posted as the incident's thread parent, but its ts was not kept: the invocation fails, and its retry posts the message again as a new parent (this one stays in the channel without replies)",
      { ...logKeys, ts, error: (err as Error).message },
    );
    throw err;
  }
  if (stands === ts) return "parent";
  deps.log?.warn(
    "another delivery started this incident's thread first: this post stays a message of its own",
    {
      ...logKeys,
      ts,
      parentTs: stands,
    },
  );
  return "alone";
}
