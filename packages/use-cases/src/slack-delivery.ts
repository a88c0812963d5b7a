import { slackText } from "@fleet-auditor/audit";
import {
  healthSlackMessage,
  type SlackMessage,
  slackMessage,
  summarySlackMessage,
  testSlackMessage,
} from "@fleet-auditor/render";
import { inOrder } from "./in-order.ts";
import { type MessagePlace, placeOf } from "./message-place.ts";
import type { MessageOrder, RunLogger, SlackPoster, SlackThreads } from "./ports.ts";
import { type Placement, postInThread, type TellsIncident } from "./slack-thread.ts";
import { structuredMessage } from "./structured-message.ts";

// Where the rest of Slack lives: render's `slack/render-slack.ts` builds the Block Kit, notify's
// `SlackWebhook` or `SlackBot` is the `SlackPoster` that posts it, `slack-thread.ts` keeps an
// incident in one thread (store's `DynamoSlackThreads`), `functions/slack.ts` wires them to the
// incidents topic, and `fleet-auditor slack preview` (the CLI's `commands/slack.ts`) prints what
// `slackMessageFor` gives.

/** One message SNS delivered to the Slack function: its text, and SNS's ID for it (for logs). */
export interface DeliveredMessage {
  id: string;
  text: string;
}

/**
 * The Slack message for what SNS delivered to a Lambda subscriber: a structured digest
 * (`fleet-auditor.digest/v1`, the publish's `default`, which Lambda receives) as Block Kit, by
 * `slackMessage` of `@fleet-auditor/render`; a structured health notice (`fleet-auditor.health/v1`)
 * by `healthSlackMessage`; a test notice (`fleet-auditor.test/v1`, `notify test`) by
 * `testSlackMessage`, posted on its own (it has no incident); an incident summary
 * (`fleet-auditor.summary/v1`) by `summarySlackMessage`, on its own too; anything else (a message from another
 * publisher) as escaped text. A message that says it is a `fleet-auditor.digest/v1` but that the
 * schema refuses (a time that is no time, a link that is not a plain `https:` URL) is refused:
 * `RunInputError` names each field (`Message.transitions.0.links.runtime`), never its value. Posted
 * as text it would read as a digest, and rendered as one it would print what stands where a time or
 * a link should.
 */
export function slackMessageFor(delivered: string): {
  message: SlackMessage;
  runId?: string;
  /** An incident message's incident: what its thread is kept by. */
  incident?: TellsIncident;
  /** An incident message's or health notice's place among its key's (`placeOf`). */
  place?: MessagePlace;
} {
  const read = structuredMessage(delivered);
  const place = placeOf(read);
  const placed = place ? { place } : {};
  if (read.kind === "digest") {
    const { runId, incident } = read.digest;
    return {
      message: slackMessage(read.digest),
      runId,
      ...(incident
        ? {
            incident: {
              key: incident.key,
              status: incident.status,
              ...(incident.thread ? { thread: incident.thread } : {}),
            },
          }
        : {}),
      ...placed,
    };
  }
  if (read.kind === "health")
    return { message: healthSlackMessage(read.notice), runId: read.notice.runId, ...placed };
  if (read.kind === "test") return { message: testSlackMessage(read.notice) };
  if (read.kind === "summary") return { message: summarySlackMessage(read.summary) };
  const text = slackText(delivered, 2_900);
  return {
    message: {
      text: slackText(delivered, 300),
      blocks: [{ type: "section", text: { type: "mrkdwn", text } }],
    },
  };
}

/**
 * SNS → Slack: posts each delivered message (unwrapped from the event by the function), in
 * order. With a poster that threads (a bot) and `threads`, an incident message goes to its
 * incident's thread (`postInThread`); a message without an incident (a roll-up of new
 * incidents, a health notice), or any message through an incoming webhook, is a post of its
 * own. A post that fails throws, so that Lambda retries the invocation (SNS invokes
 * asynchronously) and the failure ends in the function's failure destination, never dropped in
 * silence.
 *
 * With `order`, an incident message or a health notice is posted in its key's order (`inOrder`).
 * One older than the last posted under its key (Lambda retried it after the next run's message
 * went through) is dropped, logged and counted, not posted marked as late: a thread is read from
 * the bottom as the incident's story so far, and its old news there (an opening below the end,
 * with the notification its `text` sends) reads as the incident's present, whatever a marker
 * says; what it told is in the run report (`fleet-auditor runs show RUN_ID`, its run ID in the
 * log line). A retry of one already posted is dropped too, and posts nothing twice.
 */
export async function deliverToSlack(
  deps: { poster: SlackPoster; threads?: SlackThreads; order?: MessageOrder; log?: RunLogger },
  delivered: readonly DeliveredMessage[],
  deadline: number,
): Promise<{ posted: number; dropped: number }> {
  const counts = { posted: 0, dropped: 0 };
  for (const one of delivered) {
    const { message, runId, incident, place } = messageOf(one, deps.log);
    const keys = {
      snsMessageId: one.id,
      ...(runId ? { runId } : {}),
      ...(incident ? { incidentKey: incident.key } : place ? { key: place.key } : {}),
    };
    const posting = () => postLogged(deps, message, incident, deadline, keys);
    if (!place || !deps.order) {
      await posting();
      counts.posted++;
      continue;
    }
    const done = await inOrder({ order: deps.order, log: deps.log }, place, deadline, posting, keys);
    counts[done.applied ? "posted" : "dropped"]++;
  }
  return counts;
}

/** One post, logged where it went; a post that fails is logged and thrown. */
async function postLogged(
  deps: { poster: SlackPoster; threads?: SlackThreads; log?: RunLogger },
  message: SlackMessage,
  incident: TellsIncident | undefined,
  deadline: number,
  keys: Record<string, unknown>,
): Promise<void> {
  let placement: Placement;
  try {
    placement = await post(deps, message, incident, deadline, keys);
  } catch (err) {
    deps.log?.warn("Slack post failed; the invocation fails so that Lambda retries it", {
      ...keys,
      error: (err as Error).message,
    });
    throw err;
  }
  deps.log?.info("posted to Slack", { ...keys, blocks: message.blocks.length, placement });
}

/** One message: in its incident's thread where the poster can thread, else on its own. */
async function post(
  deps: { poster: SlackPoster; threads?: SlackThreads; log?: RunLogger },
  message: SlackMessage,
  incident: TellsIncident | undefined,
  deadline: number,
  keys: Record<string, unknown>,
): Promise<Placement> {
  if (incident && deps.threads && deps.poster.threads)
    return postInThread({ ...deps, threads: deps.threads }, message, incident, deadline, keys);
  await deps.poster.post(message, deadline);
  return "alone";
}

/** The record's Slack message; a digest the schema refuses is logged (fields only) and thrown. */
function messageOf(
  delivered: DeliveredMessage,
  log: RunLogger | undefined,
): ReturnType<typeof slackMessageFor> {
  try {
    return slackMessageFor(delivered.text);
  } catch (err) {
    log?.warn("a digest its schema refuses is not posted; the invocation fails", {
      snsMessageId: delivered.id,
      error: (err as Error).message,
    });
    throw err;
  }
}
