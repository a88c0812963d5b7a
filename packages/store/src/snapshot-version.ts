import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { itemKey } from "./audit-table.ts";
import { UNMARKED, WRITING } from "./snapshot-cache.ts";

/** The version item as read: its version, and the fingerprint settled with it, if any. */
export interface VersionRead {
  version: string;
  /** Gzipped (`fingerprint-codec.ts`); only when asked for, and only on a settled version. */
  fingerprint?: Uint8Array;
}

/**
 * The snapshot's version item (`AUDIT#<audit>` / `SNAPSHOT`): a token that every commit changes,
 * marked `writing:<token>` from before its first item to after its last. A store that kept the
 * snapshot at the version it finds need not read it again (see `SnapshotCache`). The settled
 * version carries the fingerprint of the snapshot it names, in the same item: one write puts
 * both, so they cannot disagree, and marking a commit (a whole new item) drops it.
 */
export class SnapshotVersions {
  readonly #client: DynamoDBDocumentClient;
  readonly #table: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.#client = client;
    this.#table = tableName;
  }

  /** The version now (consistent read); `UNMARKED` when no commit has marked one. */
  async read(audit: string): Promise<string> {
    return (await this.readWith(audit, false)).version;
  }

  /**
   * The version now (consistent read) and, when `fingerprint`, the fingerprint beside it; without
   * it only the version is transferred (a warm store that kept the fingerprint needs no more).
   */
  async readWith(audit: string, fingerprint: boolean): Promise<VersionRead> {
    const out = await this.#client.send(
      new GetCommand({
        TableName: this.#table,
        Key: itemKey.snapshotVersion(audit),
        ConsistentRead: true,
        ...(fingerprint
          ? {}
          : { ProjectionExpression: "#version", ExpressionAttributeNames: { "#version": "version" } }),
      }),
    );
    if (!out.Item) return { version: UNMARKED };
    const version = String(out.Item.version);
    const bytes = out.Item.fingerprint;
    return fingerprint && bytes instanceof Uint8Array && !version.startsWith(WRITING)
      ? { version, fingerprint: bytes }
      : { version };
  }

  /** Marks the snapshot as being written by the commit `token`; returns the version it had. */
  async markWriting(audit: string, token: string): Promise<string> {
    const out = await this.#client.send(
      new PutCommand({
        TableName: this.#table,
        Item: { ...itemKey.snapshotVersion(audit), version: `${WRITING}${token}` },
        ReturnValues: "ALL_OLD",
      }),
    );
    return out?.Attributes ? String(out.Attributes.version) : UNMARKED;
  }

  /**
   * Gives the snapshot the version `token`, with its `fingerprint` when given, if the commit's mark
   * is still there, and says so. Else another commit ran meanwhile (this one outlived its lease):
   * the snapshot is marked anew, so that no store keeps it until a commit ends cleanly.
   */
  async settle(audit: string, token: string, fingerprint?: Uint8Array): Promise<boolean> {
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#table,
          Item: {
            ...itemKey.snapshotVersion(audit),
            version: token,
            ...(fingerprint ? { fingerprint } : {}),
          },
          ConditionExpression: "#version = :mark",
          ExpressionAttributeNames: { "#version": "version" },
          ExpressionAttributeValues: { ":mark": `${WRITING}${token}` },
        }),
      );
      return true;
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      await this.markWriting(audit, crypto.randomUUID());
      return false;
    }
  }
}
