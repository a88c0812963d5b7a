import { type AuditDefinition, slackText } from "@fleet-auditor/audit";
import { healthSlackMessage, type SlackMessage, slackMessage, testSlackMessage } from "@fleet-auditor/render";
import type { RunLogger, SlackPoster, SlackThreads } from "./ports.ts";
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
 * `testSlackMessage`, posted on its own (it has no incident); anything else (a message from another
 * publisher) as escaped text. A message that says it is a `fleet-auditor.digest/v1` but that the
 * schema refuses (a time that is no time, a link that is not a plain `https:` URL) is refused:
 * `RunInputError` names each field (`Message.transitions.0.links.runtime`), never its value. Posted
 * as text it would read as a digest, and rendered as one it would print what stands where a time or
 * a link should. `audits` are the audits the process knows: their presenters read a digest's rows.
 */
export function slackMessageFor(
  delivered: string,
  audits: readonly AuditDefinition[],
): {
  message: SlackMessage;
  runId?: string;
  /** An incident message's incident: what its thread is kept by. */
  incident?: TellsIncident;
} {
  const read = structuredMessage(delivered);
  if (read.kind === "digest") {
    const { runId, incident } = read.digest;
    return {
      message: slackMessage(read.digest, audits),
      runId,
      ...(incident ? { incident: { key: incident.key, status: incident.status } } : {}),
    };
  }
  if (read.kind === "health") return { message: healthSlackMessage(read.notice), runId: read.notice.runId };
  if (read.kind === "test") return { message: testSlackMessage(read.notice) };
  const text = slackText(delivered, 2_900);
  return {
    message: {
      text: slackText(delivered, 300),
      blocks: [{ type: "section", text: { type: "mrkdwn", text } }],
    },
  };
}

/** What `deliverToSlack` takes: the poster, the threads' store, and the audits whose digests it renders. */
interface SlackDeps {
  poster: SlackPoster;
  threads?: SlackThreads;
  /** The audits whose digests arrive (their definitions: `KEB_AUDITS`, `applicationsAudit`). */
  audits: readonly AuditDefinition[];
  log?: RunLogger;
}

/**
 * SNS → Slack: posts each delivered message (unwrapped from the event by the function), in
 * order. With a poster that threads (a bot) and `threads`, an incident message goes to its
 * incident's thread (`postInThread`); a message without an incident (a roll-up of new
 * incidents, a health notice), or any message through an incoming webhook, is a post of its
 * own. A post that fails throws, so that Lambda retries the invocation (SNS invokes
 * asynchronously) and the failure ends in the function's failure destination, never dropped in
 * silence.
 */
export async function deliverToSlack(
  deps: SlackDeps,
  delivered: readonly DeliveredMessage[],
  deadline: number,
): Promise<{ posted: number }> {
  let posted = 0;
  for (const one of delivered) {
    const { message, runId, incident } = messageOf(one, deps);
    const keys = {
      snsMessageId: one.id,
      ...(runId ? { runId } : {}),
      ...(incident ? { incidentKey: incident.key } : {}),
    };
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
    posted++;
    deps.log?.info("posted to Slack", { ...keys, blocks: message.blocks.length, placement });
  }
  return { posted };
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
function messageOf(delivered: DeliveredMessage, deps: SlackDeps): ReturnType<typeof slackMessageFor> {
  try {
    return slackMessageFor(delivered.text, deps.audits);
  } catch (err) {
    deps.log?.warn("a digest its schema refuses is not posted; the invocation fails", {
      snsMessageId: delivered.id,
      error: (err as Error).message,
    });
    throw err;
  }
}
