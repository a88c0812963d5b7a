import type { SNSClient } from "@aws-sdk/client-sns";
import type { AlertPublisher, DigestMessage, Published, PublishOutcome } from "@fleet-auditor/audit";
import { SnsAlertPublisher } from "./sns-publisher.ts";

/**
 * Publishes every message to the alert topic, and a `critical` one also to a topic of its own
 * (a pager's, subscribed without a filter), so that the route that matters most does not rest on
 * SNS applying filter policies to a `MessageStructure=json` publish. A message counts as
 * published only when both took it: a refused copy is sent again next run, to both (a
 * duplicate on the alert topic is the price of a pager that must not miss one). Either topic may
 * take only the message's short form (refused as too long): then it is `shortened`, and the run
 * counts as told only what the short form tells, since that is all one of them received.
 */
export class CriticalCopyPublisher implements AlertPublisher {
  readonly #alerts: AlertPublisher;
  readonly #critical: AlertPublisher;
  constructor(alerts: AlertPublisher, critical: AlertPublisher) {
    this.#alerts = alerts;
    this.#critical = critical;
  }

  async publish(message: DigestMessage): Promise<Published> {
    const out = await this.#alerts.publish(message);
    if (message.attributes.severity !== "critical") return out;
    const copy = await this.#critical.publish(message);
    return copy.shortened ? { ...out, shortened: true } : out;
  }

  async publishBatch(messages: readonly DigestMessage[]): Promise<PublishOutcome[]> {
    const outcomes = await publishAll(this.#alerts, messages);
    const copies = messages.flatMap((m, i) =>
      outcomes[i]?.ok && m.attributes.severity === "critical" ? [i] : [],
    );
    if (copies.length === 0) return outcomes;
    const copied = await publishAll(
      this.#critical,
      copies.map((i) => messages[i] as DigestMessage),
    );
    for (const [k, i] of copies.entries()) {
      const copy = copied[k];
      const own = outcomes[i];
      if (copy && !copy.ok) outcomes[i] = copy;
      else if (copy?.shortened && own?.ok) outcomes[i] = { ...own, shortened: true };
    }
    return outcomes;
  }
}

/** Every message through a publisher: in batches where it can, else one by one. */
export async function publishAll(
  publisher: AlertPublisher,
  messages: readonly DigestMessage[],
): Promise<PublishOutcome[]> {
  if (publisher.publishBatch) return publisher.publishBatch(messages);
  const outcomes: PublishOutcome[] = [];
  for (const m of messages) {
    try {
      outcomes.push({ ok: true, ...(await publisher.publish(m)) });
    } catch (err) {
      outcomes.push({ ok: false, error: (err as Error).message });
    }
  }
  return outcomes;
}

/** The alert topic's publisher, copying critical digests to the critical topic when there is one. */
export function snsAlertPublisher(
  client: SNSClient,
  topics: { alerts: string; critical?: string },
): AlertPublisher {
  const alerts = new SnsAlertPublisher({ client, topicArn: topics.alerts });
  if (!topics.critical) return alerts;
  return new CriticalCopyPublisher(alerts, new SnsAlertPublisher({ client, topicArn: topics.critical }));
}
