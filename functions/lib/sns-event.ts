import { type DeliveredMessage, parseInput } from "@fleet-auditor/use-cases";
import { array, looseObject, string } from "zod";

// The Lambda side of the SNS subscribers (the Slack and pager functions): the use cases'
// deliverToSlack and deliverToPager take the delivered messages and know nothing of SNS's event.

/** What an SNS event must be: records, each with the message SNS delivered. */
const SnsEventSchema = looseObject({
  Records: array(
    looseObject({
      Sns: looseObject({ MessageId: string(), Message: string() }),
    }),
  ).min(1),
});

/**
 * The messages of an SNS event as Lambda receives it from a subscription, in order. An event that
 * is not one (no records, a record without `Sns.Message`) throws `RunInputError` naming the field:
 * the invocation fails, and SNS's retries end in the function's failure destination.
 */
export function snsMessages(event: unknown): DeliveredMessage[] {
  const { Records } = parseInput(SnsEventSchema, event);
  return Records.map(({ Sns }) => ({ id: Sns.MessageId, text: Sns.Message }));
}
