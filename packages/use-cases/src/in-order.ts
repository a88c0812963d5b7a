import { OrderBusyError } from "./errors.ts";
import { type MessagePlace, placeTime } from "./message-place.ts";
import type { MessageOrder, RunLogger } from "./ports.ts";

// Why a receiver orders its messages: SNS invokes the Slack and pager functions asynchronously,
// and Lambda retries a failed invocation a minute or more later, so a trigger whose first try
// failed can arrive after the next run's resolve of the same incident. Sent then, it would reopen
// the alert. Each message of a key carries its place (`message-place.ts`); the receiver keeps the
// last place it applied per key and sends nothing older.

/** How often a message whose key another delivery holds asks again, in ms. */
const BUSY_POLL_MS = 200;

/** What became of a message: applied, or dropped, and why. */
type InOrder =
  | { applied: true }
  | {
      applied: false;
      /** `older`: a later message of its key was applied; `repeat`: this very message was. */
      why: "older" | "repeat";
      /** The run time of the last message applied under its key. */
      lastAt: string;
    };

/**
 * Applies one message in its key's order, under a hold of its key (the `MessageOrder` port):
 * 1. hold the key until `deadline`;
 * 2. a message at or after this one was applied: drop it, applying nothing, and log it (`older`;
 *    `repeat` for a retry or duplicate of one already applied, so that it is not sent twice);
 * 3. another delivery holds the key (a message of the same key, at once): ask again until it lets
 *    go, then go back to 2; still held at the deadline: `OrderBusyError`, so that Lambda retries;
 * 4. `apply` (the send); when it throws, let go without recording anything, so that the retry of
 *    this message, or the next message of its key, sends, and throw;
 * 5. record this place as the key's last applied, and let go.
 *
 * The hold makes two messages of one key go one after the other: without it, a trigger and the
 * resolve after it, delivered at once, could reach PagerDuty in either order. A hold ends at its
 * holder's deadline, so that one whose function was killed keeps the key no longer than that.
 */
export async function inOrder(
  deps: { order: MessageOrder; log?: RunLogger },
  message: MessagePlace,
  deadline: number,
  apply: () => Promise<void>,
  logKeys: Record<string, unknown>,
): Promise<InOrder> {
  const held = await holdKey(deps, message, deadline, logKeys);
  if (held.kind === "applied") return dropped(deps.log, message, held.last, logKeys);
  const { token } = held;
  try {
    await apply();
  } catch (err) {
    await deps.order.release(message.key, token).catch((releaseError: unknown) =>
      deps.log?.warn("the key's hold was not let go: it ends at this invocation's deadline", {
        ...logKeys,
        error: (releaseError as Error).message,
      }),
    );
    throw err;
  }
  await record(deps, message, token, logKeys);
  return { applied: true };
}

/** Steps 1 and 3: the key held for the message, or the place applied at or after it. */
async function holdKey(
  deps: { order: MessageOrder; log?: RunLogger },
  { key, place }: MessagePlace,
  deadline: number,
  logKeys: Record<string, unknown>,
): Promise<{ kind: "held"; token: string } | { kind: "applied"; last: number }> {
  for (let waited = false; ; waited = true) {
    const hold = await deps.order.hold(key, place, deadline);
    if (hold.kind !== "busy") return hold;
    if (Date.now() + BUSY_POLL_MS > deadline) throw new OrderBusyError(key);
    if (!waited) deps.log?.info("another delivery holds this message's key: waiting for it", logKeys);
    await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
  }
}

/** Step 2: a message at or before the key's last applied, logged as dropped: older, or a repeat. */
function dropped(
  log: RunLogger | undefined,
  message: MessagePlace,
  last: number,
  logKeys: Record<string, unknown>,
): InOrder {
  const why = last === message.place ? "repeat" : "older";
  const lastAt = placeTime(last);
  const fields = { ...logKeys, at: message.at, lastAppliedAt: lastAt };
  if (why === "older")
    log?.warn(
      "older than the last message applied under its key: dropped, so that it cannot undo what came after it",
      fields,
    );
  else log?.info("already applied under its key: dropped, so that it is not sent twice", fields);
  return { applied: false, why, lastAt };
}

/**
 * Records the message as its key's last applied. It was sent: a failure here is logged, not
 * thrown, since a retry would send it a second time (a second post, a second trigger), while
 * the order it leaves unrecorded matters only if an older message of the key is still to come.
 */
async function record(
  deps: { order: MessageOrder; log?: RunLogger },
  message: MessagePlace,
  token: string,
  logKeys: Record<string, unknown>,
): Promise<void> {
  try {
    if (await deps.order.applied(message.key, message.place, token)) return;
    deps.log?.warn(
      "sent, but its key's hold ran out before it was recorded: a message older than it may still be sent",
      logKeys,
    );
  } catch (err) {
    deps.log?.warn("sent, but not recorded as its key's last applied: an older message may still be sent", {
      ...logKeys,
      error: (err as Error).message,
    });
  }
}
