import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

/** Read and write units charged, as DynamoDB reports them with `ReturnConsumedCapacity: INDEXES`. */
export interface Units {
  read: number;
  write: number;
}

interface Consumed {
  TableName?: string;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
  LocalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

const READS = /^(Get|BatchGet|Query|Scan|TransactGet)/;

/**
 * The units a client's requests were charged, by table and by `table/index`, from now on: an SDK
 * middleware asks every request for `ReturnConsumedCapacity: "INDEXES"` and adds up what the
 * answer reports. DynamoDB Local reports the table's and each index's units (an index key change
 * two: a delete and a put), but nothing for a write its condition refused, which DynamoDB
 * charges (one unit per KB of the item); those are counted as one write unit each, in
 * `refused`. `clear()` starts again.
 */
export class ConsumedCapacity {
  readonly units = new Map<string, Units>();
  refused = 0;
  /** Requests sent. */
  requests = 0;

  constructor(client: DynamoDBDocumentClient) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const name = context.commandName ?? "";
        const input = args.input as { ReturnConsumedCapacity?: string; TableName?: string };
        input.ReturnConsumedCapacity = "INDEXES";
        const kind = READS.test(name) ? "read" : "write";
        this.requests++;
        try {
          const result = await next(args);
          const reported = (result.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity;
          for (const c of [reported ?? []].flat()) this.#add(c, kind);
          return result;
        } catch (err) {
          if ((err as Error).name === "ConditionalCheckFailedException") {
            this.refused++;
            this.#count(input.TableName ?? "?", "write", 1);
          }
          throw err;
        }
      },
      { step: "initialize", name: "consumedCapacity" },
    );
  }

  /** Units of one table (without its indexes) or one `table/index`. */
  of(key: string): Units {
    return this.units.get(key) ?? { read: 0, write: 0 };
  }

  /** Units of a table and all its indexes. */
  total(table: string): Units {
    const sum = { read: 0, write: 0 };
    for (const [key, u] of this.units)
      if (key === table || key.startsWith(`${table}/`)) {
        sum.read += u.read;
        sum.write += u.write;
      }
    return sum;
  }

  /** Units of every table and index. */
  all(): Units {
    const sum = { read: 0, write: 0 };
    for (const u of this.units.values()) {
      sum.read += u.read;
      sum.write += u.write;
    }
    return sum;
  }

  clear(): void {
    this.units.clear();
    this.refused = 0;
    this.requests = 0;
  }

  #add(c: Consumed, kind: keyof Units): void {
    const table = c.TableName ?? "?";
    this.#count(table, kind, c.Table?.CapacityUnits ?? 0);
    for (const [index, u] of Object.entries({ ...c.GlobalSecondaryIndexes, ...c.LocalSecondaryIndexes }))
      this.#count(`${table}/${index}`, kind, u.CapacityUnits ?? 0);
  }

  #count(key: string, kind: keyof Units, n: number): void {
    const u = this.units.get(key) ?? { read: 0, write: 0 };
    u[kind] += n;
    this.units.set(key, u);
  }
}
