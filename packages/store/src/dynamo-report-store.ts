import { gunzipSync, gzipSync } from "node:zlib";
import { type DynamoDBDocumentClient, PutCommand, paginateQuery } from "@aws-sdk/lib-dynamodb";
import type { RunReport, RunReportStore, Transition } from "@fleet-auditor/audit";
import { itemKey } from "./audit-table.ts";
import { batchWrite } from "./batch-write.ts";
import { ReportIncompleteError } from "./errors.ts";
import { transitionOf } from "./legacy/report-row.ts";

// Items are capped at 400 KB: parts are gzipped JSON of at most this many bytes.
const PART_LIMIT = 350_000;
// Raw JSON per part before compression; halved until the compressed part fits.
const RAW_PER_PART = 1_500_000;

/**
 * Run reports in the audit table: a head item (`REPORT#<runId>`, `HEAD`) with the summary, and
 * the transitions as gzipped JSON parts (`PART#00001`…) of under 350 KB each, so a report of any
 * size fits (100,000 transitions are about 50 parts). Parts are written first and the head last:
 * a report without its head, or with parts missing, is not found. All items share the ledger's TTL.
 */
export class DynamoReportStore implements RunReportStore {
  readonly #client: DynamoDBDocumentClient;
  readonly #table: string;

  constructor(options: { client: DynamoDBDocumentClient; tableName: string }) {
    this.#client = options.client;
    this.#table = options.tableName;
  }

  async saveReport(report: RunReport, expiresAt: number): Promise<void> {
    const parts = packParts(report.transitions);
    await batchWrite(
      this.#client,
      this.#table,
      parts.map((data, i) => ({
        PutRequest: { Item: { ...itemKey.reportPart(report.runId, i + 1), data, ttl: expiresAt } },
      })),
    );
    const { transitions, ...head } = report;
    await this.#client.send(
      new PutCommand({
        TableName: this.#table,
        Item: {
          ...itemKey.reportHead(report.runId),
          head,
          parts: parts.length,
          count: transitions.length,
          ttl: expiresAt,
        },
      }),
    );
  }

  async loadReport(runId: string): Promise<RunReport | undefined> {
    let head: (Omit<RunReport, "transitions"> & { parts?: number; count?: number }) | undefined;
    let parts = 0;
    let count = 0;
    const transitions: Transition[] = [];
    const pages = paginateQuery(
      { client: this.#client },
      {
        TableName: this.#table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": itemKey.reportHead(runId).pk },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        if (item.sk === "HEAD") {
          head = item.head as Omit<RunReport, "transitions">;
          parts = Number(item.parts);
          count = Number(item.count);
          continue;
        }
        const rows = JSON.parse(gunzipSync(item.data as Uint8Array).toString("utf8")) as Transition[];
        for (const row of rows) transitions.push(transitionOf(row));
      }
    }
    if (!head) return undefined;
    if (transitions.length !== count)
      throw new ReportIncompleteError(runId, count, transitions.length, parts);
    return { ...head, transitions };
  }
}

/** Gzipped JSON arrays of transitions, each under `PART_LIMIT` bytes; at least one part. */
export function packParts(transitions: readonly Transition[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  const pack = (rows: readonly Transition[]): void => {
    const data = gzipSync(JSON.stringify(rows));
    if (data.length <= PART_LIMIT || rows.length <= 1) {
      out.push(new Uint8Array(data));
      return;
    }
    const half = Math.ceil(rows.length / 2);
    pack(rows.slice(0, half));
    pack(rows.slice(half));
  };
  let start = 0;
  let raw = 0;
  for (let i = 0; i < transitions.length; i++) {
    raw += JSON.stringify(transitions[i]).length + 1;
    if (raw >= RAW_PER_PART) {
      pack(transitions.slice(start, i + 1));
      start = i + 1;
      raw = 0;
    }
  }
  if (start < transitions.length || out.length === 0) pack(transitions.slice(start));
  return out;
}
