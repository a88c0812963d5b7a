import { DigestV1Schema, type SlackMessage, slackMessage, slackText } from "@fleet-auditor/audit";
import { array, looseObject, string } from "zod";
import { parseInput } from "./errors.ts";
import type { RunLogger, SlackPoster } from "./ports.ts";

/** What an SNS event must be: records, each with the message SNS delivered. */
export const SnsEventSchema = looseObject({
  Records: array(
    looseObject({
      Sns: looseObject({ MessageId: string(), Message: string() }),
    }),
  ).min(1),
});

/**
 * The Slack message for what SNS delivered to a Lambda subscriber: a structured digest
 * (`fleet-auditor.digest/v1`, the publish's `lambda` key) as Block Kit; anything else (a health
 * notice's `default` text, a message from another publisher) as escaped text.
 */
export function slackMessageFor(delivered: string): { message: SlackMessage; runId?: string } {
  let json: unknown;
  try {
    json = JSON.parse(delivered);
  } catch {
    json = undefined;
  }
  const digest = DigestV1Schema.safeParse(json);
  if (digest.success) return { message: slackMessage(digest.data), runId: digest.data.runId };
  const text = slackText(delivered, 2_900);
  return {
    message: {
      text: slackText(delivered, 300),
      blocks: [{ type: "section", text: { type: "mrkdwn", text } }],
    },
  };
}

/**
 * SNS → Slack: posts each delivered message, in order. A post that fails throws, so that Lambda
 * retries the invocation (SNS invokes asynchronously) and the failure ends in the function's
 * failure destination, never dropped in silence.
 */
export async function deliverToSlack(
  deps: { poster: SlackPoster; log?: RunLogger },
  event: unknown,
  deadline: number,
): Promise<{ posted: number }> {
  const { Records } = parseInput(SnsEventSchema, event);
  let posted = 0;
  for (const record of Records) {
    const { message, runId } = slackMessageFor(record.Sns.Message);
    try {
      await deps.poster.post(message, deadline);
    } catch (err) {
      deps.log?.warn("Slack post failed; the invocation fails so that Lambda retries it", {
        snsMessageId: record.Sns.MessageId,
        ...(runId ? { runId } : {}),
        error: (err as Error).message,
      });
      throw err;
    }
    posted++;
    deps.log?.info("posted to Slack", {
      snsMessageId: record.Sns.MessageId,
      ...(runId ? { runId } : {}),
      blocks: message.blocks.length,
    });
  }
  return { posted };
}
