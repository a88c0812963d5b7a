import { readFile } from "node:fs/promises";
import type { QuarantineItem, StatusRow } from "@fleet-auditor/metaserver";
import { type IngestCounts, ingestBatch, lineMessageId } from "@fleet-auditor/use-cases";
import { parseLimit, parseSince, stateDirOption, subcommand } from "../args.ts";
import { openStatusBackend } from "../backend.ts";
import type { Command, Io } from "../command.ts";
import { parseCommandLine } from "../command-line.ts";
import { UsageError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import { listRows } from "../list-rows.ts";
import { listTable, noHeadersOption, outputOption, parseOutput, printData } from "../output.ts";

const USAGE = `usage:
  fleet-auditor apps ingest FILE|- [-o json|yaml|table]   each line: one SQS message body
  fleet-auditor apps status [--node N] [--status S] [--since ISO-TIME|90s|30m|1h|2d] [--limit N] [-o json|yaml|table] [--no-headers]
  fleet-auditor apps quarantine [--limit N] [-o json|yaml|table] [--no-headers]
  fleet-auditor apps reindex [-o json|yaml|table]   give rows written before the byWatch index their key

options: --state-dir DIR (default .fleet-auditor/); STATUS_TABLE=<table> (or sst shell) uses DynamoDB.
exit codes: 0 done; 1 bad input; 2 ingest wrote only part (a write failed for a transient
reason: the counts say how many; ingest the file again), or DynamoDB throttled or unreachable.
`;

/** SQS delivers at most 10 messages per batch by default; the CLI feeds the handler the same way. */
const SQS_BATCH = 10;

const SUBCOMMANDS = ["ingest", "status", "quarantine", "reindex"] as const;
const OPTIONS = {
  ...stateDirOption,
  ...outputOption,
  ...noHeadersOption,
  node: { type: "string" },
  status: { type: "string" },
  since: { type: "string" },
  limit: { type: "string" },
} as const;
const TAKEN_BY = {
  node: ["status"],
  status: ["status"],
  since: ["status"],
  limit: ["status", "quarantine"],
  "no-headers": ["status", "quarantine"],
};

/** `fleet-auditor apps …`: feed and read the Application status table. */
export const appsCommand: Command = {
  name: "apps",
  summary: "KubeEdge Application status: ingest, status, quarantine, reindex",
  usage: USAGE,
  subcommands: SUBCOMMANDS,
  options: OPTIONS,
  takenBy: TAKEN_BY,
  async run(argv, { env, io, now }) {
    const [given, ...rest] = argv;
    const sub = subcommand("apps", given, SUBCOMMANDS);
    const { values, positionals } = parseCommandLine(rest, OPTIONS, sub === "ingest" ? 1 : 0, {
      command: "apps",
      sub,
      takenBy: TAKEN_BY,
    });
    const noHeaders = values["no-headers"];
    const output = parseOutput(values.output);
    const limit = parseLimit(values.limit);
    const since = values.since === undefined ? undefined : parseSince(values.since, now());
    const input = sub === "ingest" ? await readInput(positionals[0], io) : "";
    if (sub === "status" || sub === "quarantine") {
      const open = () => openStatusBackend(values["state-dir"], env, "read");
      if (sub === "status") {
        const rows = await listRows(output, open, (backend) =>
          backend.store.query({ node: values.node, status: values.status, since, limit }, now()),
        );
        printData(io, output, rows, () => statusTable(rows, noHeaders));
      } else {
        const items = await listRows(output, open, (backend) => backend.store.quarantined(limit ?? 100));
        printData(io, output, items, () => quarantineTable(items, noHeaders));
      }
      return EXIT.done;
    }
    // Ingesting may start a store; reindexing one needs it there.
    const backend = await openStatusBackend(values["state-dir"], env, sub === "ingest" ? "write" : "update");
    try {
      if (sub === "ingest") {
        const counts = await ingestLines(input, backend.store);
        printData(
          io,
          output,
          counts,
          () =>
            `${counts.records} message(s): ${counts.applied} applied, ${counts.stale} stale, ${counts.duplicate} duplicate, ${counts.quarantined} quarantined, ${counts.failed} failed (${backend.description})`,
        );
        // A transient write failure: the run was partial, like an audit's, and ingesting again mends it.
        return counts.failed > 0 || counts.deferred > 0 ? EXIT.partial : EXIT.done;
      }
      const done = await backend.store.reindex();
      printData(
        io,
        output,
        done,
        () => `${done.scanned} item(s) read, ${done.updated} watch key(s) written (${backend.description})`,
      );
      return EXIT.done;
    } finally {
      await backend.close();
    }
  },
};

/** Feeds lines through the Lambda handler's core in SQS-sized batches; sums the counts. */
async function ingestLines(
  text: string,
  store: Parameters<typeof ingestBatch>[0]["store"],
): Promise<IngestCounts & { batches: number }> {
  const lines = text
    .split("\n")
    // A file saved with a byte order mark starts with U+FEFF: not part of the first message.
    .map((line, i) => ({ line: (i === 0 ? line.replace(/^\uFEFF/, "") : line).replace(/\r$/, ""), n: i + 1 }))
    .filter(({ line }) => line.trim() !== "");
  const total = {
    records: 0,
    applied: 0,
    stale: 0,
    duplicate: 0,
    quarantined: 0,
    failed: 0,
    deferred: 0,
    batches: 0,
  };
  for (let i = 0; i < lines.length; i += SQS_BATCH) {
    const batch = lines
      .slice(i, i + SQS_BATCH)
      .map(({ line, n }) => ({ messageId: lineMessageId(n, line), body: line }));
    const { counts } = await ingestBatch({ store }, batch);
    for (const k of [
      "records",
      "applied",
      "stale",
      "duplicate",
      "quarantined",
      "failed",
      "deferred",
    ] as const)
      total[k] += counts[k];
    total.batches++;
  }
  return total;
}

async function readInput(path: string | undefined, io: Io): Promise<string> {
  if (!path) throw new UsageError("apps ingest needs a FILE, or - for standard input");
  if (path !== "-") return readFile(path, "utf8");
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

function statusTable(rows: StatusRow[], noHeaders: boolean): string {
  return listTable(
    ["NODE", "STATUS", "VERB", "KEY", "SUBRESOURCE", "MESSAGE TIME", "ERROR"],
    rows.map((r) => [
      r.node || "-",
      r.status,
      r.verb,
      r.key,
      r.subresource || "-",
      r.messageTime.replace("T", " ").slice(0, 19),
      r.error
        ? [r.error.code, r.error.reason, r.error.message].filter((x) => x !== undefined && x !== "").join(" ")
        : "-",
    ]),
    { empty: "no applications", noHeaders },
  );
}

function quarantineTable(items: QuarantineItem[], noHeaders: boolean): string {
  return listTable(
    ["RECEIVED", "CODE", "REASON", "BODY"],
    items.map((q) => [
      q.receivedAt.replace("T", " ").slice(0, 19),
      q.code,
      q.reason.slice(0, 80),
      `${JSON.stringify(q.body.slice(0, 40))}${q.truncated || q.body.length > 40 ? "…" : ""}`,
    ]),
    { empty: "quarantine is empty", noHeaders },
  );
}
