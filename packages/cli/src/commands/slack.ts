import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { OutboxLine } from "@fleet-auditor/notify";
import { reportDigests } from "@fleet-auditor/render";
import { messagingFrom, slackMessageFor } from "@fleet-auditor/use-cases";
import { stateDirOption, subcommand } from "../args.ts";
import { cliAudits } from "../audits.ts";
import { commandStoreOf, openRuns, reportCommandIn } from "../backend.ts";
import type { Command } from "../command.ts";
import { parseCommandLine } from "../command-line.ts";
import { UsageError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import { outputOption, parseOutput, printData } from "../output.ts";
import { escapeControl } from "../table.ts";

const USAGE = `usage:
  fleet-auditor slack preview RUN_ID [-o json|yaml]                 the Slack message of a run, from its report
  fleet-auditor slack preview --from-outbox [RUN_ID] [-o json|yaml] the last message for Slack (an incident's, a health notice) in the outbox

Prints the JSON the Slack function posts ({ "text", "blocks" }): paste it into Slack's Block Kit
Builder (https://app.slack.com/block-kit-builder) to see it. From a report, the message is
rendered with today's LANDSCAPE and *_URL_TEMPLATE settings.
options: --state-dir DIR (default .fleet-auditor/); AUDIT_TABLE=<table> (or sst shell) reads
reports from DynamoDB.
exit codes: 0 printed; 1 bad input, or no such run or message; 2 DynamoDB throttled or unreachable.
`;

const SUBCOMMANDS = ["preview"] as const;
const OPTIONS = {
  ...stateDirOption,
  // The payload is JSON by nature (Block Kit Builder takes JSON): JSON unless asked.
  output: { ...outputOption.output, default: "json" },
  "from-outbox": { type: "boolean", default: false },
} as const;

/**
 * `fleet-auditor slack preview …`: what the Slack function would post for a run, through the same
 * `slackMessageFor` (the use cases' `slack-delivery.ts`) that renders Block Kit with render's
 * `slackMessage`; notify's `SlackWebhook` posts it, wired in `functions/slack.ts`.
 */
export const slackCommand: Command = {
  name: "slack",
  summary: "preview the Block Kit message a run posts to Slack",
  usage: USAGE,
  subcommands: SUBCOMMANDS,
  options: OPTIONS,
  async run(argv, { env, io }) {
    const [given, ...rest] = argv;
    subcommand("slack", given, SUBCOMMANDS);
    const { values, positionals } = parseCommandLine(rest, OPTIONS, 1);
    const output = parseOutput(values.output, ["json", "yaml"]);
    const runId = positionals[0];
    if (!runId && !values["from-outbox"])
      throw new UsageError("slack preview needs a RUN_ID or --from-outbox");
    const delivered = values["from-outbox"]
      ? await fromOutbox(join(values["state-dir"], "outbox.jsonl"), runId)
      : await fromReport(values["state-dir"], env, runId as string);
    if (typeof delivered !== "string") {
      io.stderr.write(`fleet-auditor: ${escapeControl(delivered.missing)}\n`);
      return EXIT.failed;
    }
    printData(io, output, slackMessageFor(delivered).message, () => "");
    return EXIT.done;
  },
};

/** What SNS delivers to the Slack function (a Lambda subscriber) for a publish body. */
function forLambda(body: string): string {
  const doc = JSON.parse(body) as { lambda?: string; default?: string };
  return doc.lambda ?? doc.default ?? body;
}

async function fromOutbox(path: string, runId: string | undefined): Promise<string | { missing: string }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return { missing: `no outbox at ${path} (run an audit on the embedded store first)` };
  }
  const lines = text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as OutboxLine);
  // What the Slack function is sent (the incidents topic: incident messages, health notices);
  // an outbox written before topics, or by a run without them, holds digests only.
  const forSlack = lines.filter((l) => l.topics?.includes("incidents"));
  const bodies = (forSlack.length ? forSlack : lines).map((l) => forLambda(l.message));
  const chosen = runId
    ? bodies.filter((b) => b.includes(`"runId":${JSON.stringify(runId)}`)).at(-1)
    : bodies.at(-1);
  return (
    chosen ?? { missing: runId ? `no message of run ${runId} in ${path}` : `the outbox ${path} is empty` }
  );
}

async function fromReport(
  stateDir: string,
  env: Parameters<Command["run"]>[1]["env"],
  runId: string,
): Promise<string | { missing: string }> {
  const backend = await openRuns(stateDir, env, "read");
  try {
    const report = await backend.reports.loadReport(runId);
    if (!report) return { missing: `no report of run ${runId} in the ${backend.description}` };
    const { landscape, links, collapseAt } = messagingFrom(env);
    const { groupBy, presenter } = cliAudits({ grouping: env }).named(report.audit).audit;
    // As the Slack function gets it: an incident message's digest, which carries its rows.
    const [digest] = reportDigests(report, {
      forChannels: true,
      groupBy,
      presenter,
      ...(landscape ? { landscape } : {}),
      ...(links ? { links } : {}),
      ...(collapseAt !== undefined ? { collapseAt } : {}),
      reportCommand: reportCommandIn(stateDir, env)(runId),
      store: commandStoreOf(stateDir, env),
    });
    if (!digest)
      return { missing: `run ${runId} published nothing (all its transitions were silenced or inhibited)` };
    return forLambda(digest.message);
  } finally {
    await backend.close();
  }
}
