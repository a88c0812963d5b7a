import type { AlertPublisher, DigestMessage, Published, PublishOutcome } from "@fleet-auditor/audit";
import { publishAll } from "./publish-all.ts";

// Routes by what a message is, never by SNS filter policies on a `MessageStructure=json`
// publish: the run's digests stay on the alert topic (e-mail subscriptions as they are), each
// incident's messages go to the incidents topic (Chatbot, the Slack function), and a notice
// about the auditor's health goes to both, since both audiences must hear it.

/** Sends digests to one publisher and incident messages to another; health notices to both. */
export class RoutedPublisher implements AlertPublisher {
  readonly #digests: AlertPublisher;
  readonly #incidents: AlertPublisher;
  constructor(routes: { digests: AlertPublisher; incidents: AlertPublisher }) {
    this.#digests = routes.digests;
    this.#incidents = routes.incidents;
  }

  async publish(message: DigestMessage): Promise<Published> {
    const [outcome] = await this.publishBatch([message]);
    if (!outcome?.ok) throw new Error(outcome?.error ?? "no outcome for this message");
    const { ok: _ok, ...published } = outcome;
    return published;
  }

  /** Each route in batches; a message sent to both counts as published only when both took it. */
  async publishBatch(messages: readonly DigestMessage[]): Promise<PublishOutcome[]> {
    const toDigests = messages.flatMap((m, i) => (m.attributes.format !== "incident" ? [i] : []));
    const toIncidents = messages.flatMap((m, i) =>
      m.attributes.format === "incident" || m.attributes.format === "health" ? [i] : [],
    );
    const outcomes: Array<PublishOutcome | undefined> = messages.map(() => undefined);
    const send = async (publisher: AlertPublisher, indexes: number[]): Promise<void> => {
      if (indexes.length === 0) return;
      const sent = await publishAll(
        publisher,
        indexes.map((i) => messages[i] as DigestMessage),
      );
      for (const [k, i] of indexes.entries()) {
        const got = sent[k] ?? { ok: false as const, error: "no outcome for this message" };
        const before = outcomes[i];
        // Sent to both: refused by either is refused; shortened by either is shortened.
        if (!before || !got.ok) outcomes[i] = before && !before.ok ? before : got;
        else if (before.ok && got.shortened) outcomes[i] = { ...before, shortened: true };
      }
    };
    await send(this.#digests, toDigests);
    await send(this.#incidents, toIncidents);
    return outcomes.map((o) => o ?? { ok: false, error: "no outcome for this message" });
  }
}
