import type { SNSClient } from "@aws-sdk/client-sns";
import {
  type AlertPublisher,
  type DigestMessage,
  type MessageTopic,
  type Published,
  type PublishOutcome,
  topicsOf,
} from "@fleet-auditor/audit";
import { publishAll } from "./publish-all.ts";
import { SnsAlertPublisher } from "./sns-publisher.ts";

// Routes by what a message is, never by SNS filter policies on a `MessageStructure=json`
// publish: the run's digests stay on the alert topic (e-mail subscriptions as they are), each
// incident's messages go to the incidents topic (Chatbot, the Slack function), critical incidents'
// openings and ends to the critical topic (the pager), and a notice about the auditor's health to
// every topic, since every audience must hear it.

// A message whose every topic is missing was rendered for a stage that has them.
const NO_TOPIC = "no topic of this stage takes this message";

/** A publisher per topic; `alerts` always, the others when the stage has them. */
type Routes = { alerts: AlertPublisher } & Partial<Record<Exclude<MessageTopic, "alerts">, AlertPublisher>>;

/**
 * Sends each message to the topics it goes to (`topicsOf`: by format, or its own `topics`), those
 * of them that exist; a message that goes to several counts as published only when every one
 * took it, and as shortened when any took only its short form.
 */
class RoutedPublisher implements AlertPublisher {
  readonly #routes: Routes;
  constructor(routes: Routes) {
    this.#routes = routes;
  }

  /** One message to each of its topics at once; it throws when any refused it. */
  async publish(message: DigestMessage): Promise<Published> {
    const publishers = this.#publishersOf(message);
    if (publishers.length === 0) throw new Error(NO_TOPIC);
    const sent = await Promise.all(publishers.map((p) => p.publish(message)));
    const first = sent[0] as Published;
    return sent.some((p) => p.shortened) ? { ...first, shortened: true } : first;
  }

  #publishersOf(message: DigestMessage): AlertPublisher[] {
    return topicsOf(message).flatMap((topic) => this.#routes[topic] ?? []);
  }

  /** Each topic in batches, the topics at once; a message sent to several counts only when all took it. */
  async publishBatch(messages: readonly DigestMessage[]): Promise<PublishOutcome[]> {
    const outcomes: Array<PublishOutcome | undefined> = messages.map(() => undefined);
    const routed = (["alerts", "incidents", "critical"] as const).flatMap((topic) => {
      const publisher = this.#routes[topic];
      const indexes = messages.flatMap((m, i) => (topicsOf(m).includes(topic) ? [i] : []));
      return publisher && indexes.length ? [{ publisher, indexes }] : [];
    });
    const sent = await Promise.all(
      routed.map(({ publisher, indexes }) =>
        publishAll(
          publisher,
          indexes.map((i) => messages[i] as DigestMessage),
        ),
      ),
    );
    for (const [r, { indexes }] of routed.entries()) {
      for (const [k, i] of indexes.entries()) {
        const got = sent[r]?.[k] ?? { ok: false as const, error: "no outcome for this message" };
        const before = outcomes[i];
        // Refused by any is refused; shortened by any is shortened.
        if (!before || !got.ok) outcomes[i] = before && !before.ok ? before : got;
        else if (before.ok && got.shortened) outcomes[i] = { ...before, shortened: true };
      }
    }
    return outcomes.map((o) => o ?? { ok: false, error: NO_TOPIC });
  }
}

/**
 * The run's publisher on SNS: digests to the alert topic, incident messages to the incidents
 * topic, the pager's messages to the critical topic, health notices to each (`RoutedPublisher`).
 */
export function snsAlertPublisher(
  client: SNSClient,
  topics: { alerts: string; critical?: string; incidents?: string },
): AlertPublisher {
  const sns = (topicArn: string) => new SnsAlertPublisher({ client, topicArn });
  return new RoutedPublisher({
    alerts: sns(topics.alerts),
    ...(topics.incidents ? { incidents: sns(topics.incidents) } : {}),
    ...(topics.critical ? { critical: sns(topics.critical) } : {}),
  });
}
