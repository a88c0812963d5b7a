import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";

/** Attribute names of the audit table: a generic single-table layout. */
const KEYS = { pk: "pk", sk: "sk", ttl: "ttl" } as const;

/** Partition and sort keys of every item kind in the audit table. */
export const itemKey = {
  snapshot: (audit: string, key: string) => ({ pk: `AUDIT#${audit}`, sk: `RT#${key}` }),
  lease: (audit: string) => ({ pk: `AUDIT#${audit}`, sk: "LEASE" }),
  /** The snapshot's version: a token each commit changes (see `snapshot-cache.ts`). */
  snapshotVersion: (audit: string) => ({ pk: `AUDIT#${audit}`, sk: "SNAPSHOT" }),
  run: (audit: string, runKey: string) => ({ pk: `RUN#${audit}`, sk: runKey }),
  health: (audit: string) => ({ pk: `AUDIT#${audit}`, sk: "HEALTH" }),
  publishing: (audit: string) => ({ pk: `AUDIT#${audit}`, sk: "PUBLISHING" }),
  reportHead: (runId: string) => ({ pk: `REPORT#${runId}`, sk: "HEAD" }),
  reportPart: (runId: string, part: number) => ({
    pk: `REPORT#${runId}`,
    sk: `PART#${String(part).padStart(5, "0")}`,
  }),
  /** The audit's incidents that ended lately (`EndedEpisode`): what tells that one is flapping. */
  episodes: (audit: string) => ({ pk: `AUDIT#${audit}`, sk: "EPISODES" }),
  /** An incident's record, in its audit's partition: `incidents list` reads the partition. */
  incident: (audit: string, key: string) => ({ pk: `INCIDENTS#${audit}`, sk: key }),
  /**
   * An incident's acknowledgement, beside its record (which runs rewrite whole): written and
   * removed by actions alone, conditionally, so that two at once apply once and no run undoes one.
   */
  incidentAck: (audit: string, key: string) => ({ pk: `INCIDENTS#${audit}`, sk: `${key}#ACK` }),
  /** PagerDuty resolved the incident's page while it still failed: written by an action, cleared by a run. */
  incidentPagerResolved: (audit: string, key: string) => ({
    pk: `INCIDENTS#${audit}`,
    sk: `${key}#PAGER_RESOLVED`,
  }),
  /** One event of an incident's timeline: `incidents show` reads the partition, oldest first. */
  incidentEvent: (key: string, at: string, id: string) => ({ pk: `INCIDENT#${key}`, sk: `EV#${at}#${id}` }),
  silence: (id: string) => ({ pk: "SILENCE", sk: id }),
  /**
   * The Slack thread of an incident in a channel: its parent message's `ts`. The partition key's
   * `SLACK#` prefix is what the Slack function's IAM grant (`dynamodb:LeadingKeys`) allows.
   */
  slackThread: (incidentKey: string, channel: string) => ({
    pk: `SLACK#${incidentKey}`,
    sk: `THREAD#${channel}`,
  }),
  /**
   * The place of the last message a receiver applied under a key (an incident's, a health
   * episode's), and the hold of the one it is applying. The prefix is the receiver's, what its IAM
   * grant allows (`dynamodb:LeadingKeys`): `SLACK#` the Slack function's, `PAGER#` the pager's.
   */
  messageOrder: (receiver: "slack" | "pager", key: string) => ({
    pk: `${receiver === "slack" ? "SLACK" : "PAGER"}#${key}`,
    sk: "ORDER",
  }),
};

/** The table as CreateTable wants it (on-demand); SST declares the same in sst.config.ts. */
export function auditTableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [
      { AttributeName: KEYS.pk, AttributeType: "S" },
      { AttributeName: KEYS.sk, AttributeType: "S" },
    ],
    KeySchema: [
      { AttributeName: KEYS.pk, KeyType: "HASH" },
      { AttributeName: KEYS.sk, KeyType: "RANGE" },
    ],
  };
}
