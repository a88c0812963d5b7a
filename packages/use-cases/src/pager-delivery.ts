import {
  DIGEST_V1,
  HEALTH_V1,
  healthPagerEvent,
  incidentPagerEvent,
  PAGER_LIMITS,
  type PagerEvent,
  type PagerResolve,
  runDigestPagerEvent,
  TEST_V1,
  testPagerEvents,
} from "@fleet-auditor/render";
import { RunInputError } from "./errors.ts";
import { inOrder } from "./in-order.ts";
import { type MessagePlace, placeOf } from "./message-place.ts";
import type { MessageOrder, PagerPort, RunLogger } from "./ports.ts";
import type { DeliveredMessage } from "./slack-delivery.ts";
import { structuredMessage } from "./structured-message.ts";

// Where the rest of the pager lives: the events in render's `pager/pagerduty-event.ts`, notify's
// `PagerDutyEvents` (the `PagerPort` that sends them with the routing key), and
// `functions/pager.ts`, which subscribes it to the Critical topic.

/** The event for one delivered message, what it is about, and the run or test that sent it (for logs). */
export interface PagerEventFor {
  event: PagerEvent;
  /** Sent right after `event`, under its key: a test's resolve, so that nobody stays paged. */
  followedBy?: PagerResolve;
  /** `run`: a digest without `incident` (an older release's), which no later message resolves. */
  about: "incident" | "health" | "run" | "test";
  runId?: string;
  /** A test notice's `notify test`. */
  testId?: string;
  /** An incident's or health episode's message: its place among its key's (`placeOf`). */
  place?: MessagePlace;
}

/**
 * The PagerDuty event for what SNS delivered to the pager from the Critical topic: an incident
 * message (`fleet-auditor.digest/v1` with `incident`) triggers while `firing` and resolves once
 * `resolved`, under `incident.key`; a health notice (`fleet-auditor.health/v1`) triggers on
 * `degraded` and resolves on `recovered`, under its episode's `key` (a `baseline` or
 * `not-configured` one, never published to the Critical topic, is refused); a digest without `incident`
 * triggers under its run's key; a test notice (`fleet-auditor.test/v1`, `notify test`) triggers
 * (severity `info`, `[TEST]`), `followedBy` a resolve under its own key at once. Anything else,
 * a document its schema refuses, or a key longer than PagerDuty's 255 characters throws
 * `RunInputError` naming the field, never its value: the invocation fails, and Lambda's retries
 * then the failure destination keep the message.
 */
export function pagerEventFor(delivered: string): PagerEventFor {
  const message = structuredMessage(delivered);
  if (message.kind === "digest") {
    const { digest } = message;
    if (!digest.incident) return { event: runDigestPagerEvent(digest), about: "run", runId: digest.runId };
    checkKey("Message.incident.key", digest.incident.key);
    return {
      event: incidentPagerEvent(digest, digest.incident),
      about: "incident",
      runId: digest.runId,
      ...placed(message),
    };
  }
  if (message.kind === "health") {
    const { status } = message.notice;
    // Informational notices go to the alerts and incidents topics only: the pager never pages for them.
    if (status === "baseline" || status === "not-configured")
      throw new RunInputError([
        {
          path: "Message.status",
          message: `a ${status} notice is not for the pager: it is sent to no Critical topic`,
        },
      ]);
    checkKey("Message.key", message.notice.key);
    return {
      event: healthPagerEvent(message.notice),
      about: "health",
      runId: message.notice.runId,
      ...placed(message),
    };
  }
  if (message.kind === "test") {
    checkKey("Message.key", message.notice.key);
    const [trigger, resolve] = testPagerEvents(message.notice);
    return { event: trigger, followedBy: resolve, about: "test", testId: message.notice.testId };
  }
  if (message.kind === "summary")
    throw new RunInputError([
      {
        path: "Message.schema",
        message: "an incident summary is not for the pager: it is sent to the Alerts topic only",
      },
    ]);
  throw new RunInputError([
    {
      path: message.json === undefined ? "Message" : "Message.schema",
      message: `expected a ${DIGEST_V1}, a ${HEALTH_V1} or a ${TEST_V1}: the Critical topic carries nothing else`,
    },
  ]);
}

function placed(message: Parameters<typeof placeOf>[0]): { place?: MessagePlace } {
  const place = placeOf(message);
  return place ? { place } : {};
}

function checkKey(path: string, key: string): void {
  if (key === "") throw new RunInputError([{ path, message: "is empty: PagerDuty needs a dedup_key" }]);
  if (Array.from(key).length > PAGER_LIMITS.dedupKey)
    throw new RunInputError([{ path, message: "is longer than PagerDuty's 255 characters for a dedup_key" }]);
}

/** What one invocation sent: events, of which triggers and resolves, and messages dropped unsent. */
interface PagerCounts {
  sent: number;
  triggered: number;
  resolved: number;
  /** Messages older than (or the same as) the last applied under their key (`deps.order`). */
  dropped: number;
}

/**
 * SNS → PagerDuty: sends each delivered message's event (unwrapped from the event by the
 * function), and the event that follows it (a test's resolve), in order. A message that cannot
 * be mapped or an event that is not taken throws, so that Lambda retries the invocation (SNS
 * invokes asynchronously) and the failure ends in the function's failure destination, never
 * dropped in silence. Sending again is safe: a trigger under an open alert's key adds to it, and
 * a resolve of a closed one changes nothing; a test whose resolve failed is triggered and
 * resolved again by the retry.
 *
 * With `order`, an incident's or health episode's message is sent in its key's order (`inOrder`):
 * one older than the last applied under its key (a trigger Lambda retried after the incident's
 * resolve went through) is dropped, logged and counted, and not a failure: sent, it would reopen
 * the alert its resolve closed. A retry of one already sent is dropped too, and sends nothing twice.
 */
export async function deliverToPager(
  deps: { pager: PagerPort; order?: MessageOrder; log?: RunLogger },
  delivered: readonly DeliveredMessage[],
  deadline: number,
): Promise<PagerCounts> {
  const counts = { sent: 0, triggered: 0, resolved: 0, dropped: 0 };
  for (const one of delivered) {
    const mapped = eventOf(one, deps.log);
    const { event, about, runId, testId, place } = mapped;
    const fields = {
      snsMessageId: one.id,
      ...(runId ? { runId } : {}),
      ...(testId ? { testId } : {}),
      dedupKey: event.dedup_key,
    };
    const send = () => sendEvents(deps, mapped, fields, deadline, counts);
    if (!place || !deps.order) await send();
    else {
      const done = await inOrder({ order: deps.order, log: deps.log }, place, deadline, send, {
        ...fields,
        action: event.event_action,
      });
      if (!done.applied) {
        counts.dropped++;
        continue;
      }
    }
    if (about === "run")
      deps.log?.warn(
        "a digest without an incident was paged under its run's key: no later message resolves it",
        { snsMessageId: one.id, runId, dedupKey: event.dedup_key },
      );
  }
  return counts;
}

/** The message's event and the one that follows it, in order; counted as each is taken. */
async function sendEvents(
  deps: { pager: PagerPort; log?: RunLogger },
  { event, followedBy, about }: PagerEventFor,
  fields: Record<string, unknown>,
  deadline: number,
  counts: PagerCounts,
): Promise<void> {
  for (const sent of followedBy ? [event, followedBy] : [event]) {
    const these = { ...fields, action: sent.event_action, dedupKey: sent.dedup_key };
    try {
      await deps.pager.send(sent, deadline);
    } catch (err) {
      deps.log?.warn("PagerDuty did not take the event; the invocation fails so that Lambda retries it", {
        ...these,
        error: (err as Error).message,
      });
      throw err;
    }
    counts.sent++;
    if (sent.event_action === "trigger") counts.triggered++;
    else counts.resolved++;
    deps.log?.info("sent to PagerDuty", { ...these, about });
  }
}

/** The message's event; one that cannot be mapped is logged (fields only) and thrown. */
function eventOf(delivered: DeliveredMessage, log: RunLogger | undefined): PagerEventFor {
  try {
    return pagerEventFor(delivered.text);
  } catch (err) {
    log?.warn("a message the pager cannot send is refused; the invocation fails", {
      snsMessageId: delivered.id,
      error: (err as Error).message,
    });
    throw err;
  }
}
