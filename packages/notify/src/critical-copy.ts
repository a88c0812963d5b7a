import type { SNSClient } from "@aws-sdk/client-sns";
import type { AlertPublisher, DigestMessage } from "@fleet-auditor/audit";
import { SnsAlertPublisher } from "./sns-publisher.ts";

/**
 * Publishes every message to the alert topic, and a `critical` one also to a topic of its own
 * (a pager's, subscribed without a filter), so that the route that matters most does not rest on
 * SNS applying filter policies to a `MessageStructure=json` publish. A message counts as
 * published only when both took it: a refused copy is sent again next run, to both (a
 * duplicate on the alert topic is the price of a pager that must not miss one).
 */
export class CriticalCopyPublisher implements AlertPublisher {
  readonly #alerts: AlertPublisher;
  readonly #critical: AlertPublisher;
  constructor(alerts: AlertPublisher, critical: AlertPublisher) {
    this.#alerts = alerts;
    this.#critical = critical;
  }

  async publish(message: DigestMessage): Promise<{ messageId: string }> {
    const out = await this.#alerts.publish(message);
    if (message.attributes.severity === "critical") await this.#critical.publish(message);
    return out;
  }
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
