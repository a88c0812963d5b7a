import { type AlertPublisher, MESSAGE_TOPICS, type MessageTopic } from "@fleet-auditor/audit";
import { messagingFrom, type NotifyTestResult, notifyTest, type TopicTest } from "@fleet-auditor/use-cases";
import { byWhom, oneOf, stateDirOption, subcommand } from "../args.ts";
import { explainAwsError } from "../aws-errors.ts";
import type { Command, CommandContext } from "../command.ts";
import { parseCommandLine } from "../command-line.ts";
import { UsageError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import { openPublisher } from "../message-backend.ts";
import { outputOption, parseOutput, printData } from "../output.ts";
import { escapeControl, renderTable } from "../table.ts";

const USAGE = `usage: fleet-auditor notify test [--topic ${MESSAGE_TOPICS.join("|")}] [--by NAME] [-o json|yaml|table]

Sends one test message through each topic (or the one --topic names), in each channel's format:
marked [TEST], saying that nothing is wrong, who sent it and when, and where it should show.
alerts: the e-mail text; incidents: Slack, through AWS Chatbot and the Slack function; critical:
the pager function opens a PagerDuty alert (severity info, "[TEST] ...") and resolves it at once.
Check that each channel subscribed to a topic shows its message. Nothing else changes: no run,
snapshot, ledger, lease or silence is read or written.

options:
  --topic TOPIC                 test one topic (default: every topic of the stage)
  --by NAME                     who sends it, named in the message (default: $USER, else the
                                account's name)
  --state-dir DIR               the embedded outbox (default .fleet-auditor/)
  -o, --output json|yaml|table  json and yaml print exactly the result: each topic published
                                (with SNS's message ID), not-configured or refused (with the error)

With ALERT_TOPIC_ARN and AUDIT_TABLE (and INCIDENT_TOPIC_ARN, CRITICAL_TOPIC_ARN), or inside
sst shell, it publishes to the stage's topics as a run does; a topic the stage lacks is reported
as not configured. Without them, each message is appended to <state-dir>/outbox.jsonl, as a
run's are, and nothing leaves this machine.
exit codes: 0 every chosen topic took its message; 1 bad input or configuration (a --topic the
stage lacks, AWS without a region, credentials or the topic); 2 a topic refused its message for
another reason (throttled, unreachable, 5xx: the error says why).
`;

/** The variable that gives the stage each topic, for an operator told that one is missing. */
const VARIABLE: Record<MessageTopic, string> = {
  alerts: "ALERT_TOPIC_ARN",
  incidents: "INCIDENT_TOPIC_ARN",
  critical: "CRITICAL_TOPIC_ARN",
};

const SUBCOMMANDS = ["test"] as const;
const OPTIONS = {
  ...stateDirOption,
  ...outputOption,
  topic: { type: "string" },
  by: { type: "string" },
} as const;

/** `fleet-auditor notify test`: a harmless, clearly marked message through each route. */
export const notifyCommand: Command = {
  name: "notify",
  summary: "send a test message through each topic to check its subscriptions: test",
  usage: USAGE,
  subcommands: SUBCOMMANDS,
  options: OPTIONS,
  async run(argv, { env, vars, io }) {
    const [given, ...rest] = argv;
    subcommand("notify", given, SUBCOMMANDS);
    const { values } = parseCommandLine(rest, OPTIONS);
    const output = parseOutput(values.output);
    const topic = values.topic === undefined ? undefined : oneOf(values.topic, MESSAGE_TOPICS, "--topic");
    const sender = byWhom(values.by, vars);
    if (sender === undefined)
      throw new UsageError(
        "--by is required when neither $USER nor the account's name is known: who sends the test",
      );
    const messages = openPublisher(values["state-dir"], env);
    const explained = explaining(messages.publisher, vars);
    try {
      const { landscape } = messagingFrom(env);
      const result = await notifyTest(
        {
          publisher: explained.publisher,
          topics: messages.topics,
          ...(landscape ? { landscape } : {}),
        },
        { ...(topic ? { topic } : {}), sender },
      );
      printData(io, output, result, () => resultTable(result, messages));
      // A topic asked for by name that the stage lacks is configuration: nothing was tested.
      if (topic && result.topics.some((t) => t.status === "not-configured")) {
        io.stderr.write(
          `fleet-auditor: the ${topic} topic is not configured: set ${VARIABLE[topic]} (or use sst shell on a stage that has it)\n`,
        );
        return EXIT.failed;
      }
      // AWS refusing for want of a region, credentials or a topic is configuration, as for every command.
      if (explained.misconfigured()) return EXIT.failed;
      return result.topics.some((t) => t.status === "refused") ? EXIT.partial : EXIT.done;
    } finally {
      messages.close();
    }
  },
};

/**
 * The publisher, its errors said in the CLI's words where AWS lacks what it needs (a region,
 * credentials, the topic: `explainAwsError`), and whether any was such a one.
 */
function explaining(
  publisher: AlertPublisher,
  vars: CommandContext["vars"],
): { publisher: AlertPublisher; misconfigured: () => boolean } {
  let misconfigured = false;
  return {
    publisher: {
      publish: async (message) => {
        try {
          return await publisher.publish(message);
        } catch (err) {
          // Which variables sst shell filled is runCli's to know: every one set is named as set.
          const aws = explainAwsError(err, { vars, linked: [] });
          if (!aws) throw err;
          misconfigured = true;
          throw new Error(aws, { cause: err });
        }
      },
    },
    misconfigured: () => misconfigured,
  };
}

/** The result for people: where the messages went, then a row per topic. */
function resultTable(result: NotifyTestResult, messages: { description: string; outbox?: string }): string {
  const head = escapeControl(
    `test ${result.testId} by ${result.sender} at ${result.at}: ${messages.description}`,
  );
  const rows = renderTable(["TOPIC", "RESULT", "DETAIL"], result.topics.map(row));
  const tail = messages.outbox
    ? "\n\nThe embedded store has no subscribers: nothing left this machine. See each message in the\noutbox, or the Slack one with fleet-auditor slack preview --from-outbox."
    : "";
  return `${head}\n\n${rows}${tail}`;
}

function row(t: TopicTest): string[] {
  if (t.status === "published")
    return [t.topic, "published", `message ${t.messageId}; should show in ${t.channels}`];
  if (t.status === "refused") return [t.topic, "REFUSED", t.error];
  return [t.topic, "not configured", `${VARIABLE[t.topic]} is not set`];
}
