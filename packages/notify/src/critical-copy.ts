import type { SNSClient } from "@aws-sdk/client-sns";
import type { AlertPublisher, DigestMessage, Published, PublishOutcome } from "@fleet-auditor/audit";
import { publishAll } from "./publish-all.ts";
import { RoutedPublisher } from "./routed-publisher.ts";
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

/**
 * The alert topic's publisher, copying critical digests to the critical topic when there is one,
 * and sending incident messages to the incidents topic when there is one (`RoutedPublisher`).
 */
export function snsAlertPublisher(
  client: SNSClient,
  topics: { alerts: string; critical?: string; incidents?: string },
): AlertPublisher {
  const sns = (topicArn: string) => new SnsAlertPublisher({ client, topicArn });
  const alerts = sns(topics.alerts);
  const digests = topics.critical ? new CriticalCopyPublisher(alerts, sns(topics.critical)) : alerts;
  return topics.incidents ? new RoutedPublisher({ digests, incidents: sns(topics.incidents) }) : digests;
}
