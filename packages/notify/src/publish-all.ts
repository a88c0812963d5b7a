import type { AlertPublisher, DigestMessage, PublishOutcome } from "@fleet-auditor/audit";

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
