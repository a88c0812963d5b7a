import { join } from "node:path";
import { SNSClient } from "@aws-sdk/client-sns";
import type { AlertPublisher, MessageTopic } from "@fleet-auditor/audit";
import { OutboxPublisher, snsAlertPublisher } from "@fleet-auditor/notify";
import { ConfigError } from "@fleet-auditor/use-cases";
import type { CliEnv } from "./env.ts";

// Where a command's messages go, in one place: `run` publishes its digests here and `notify test`
// its test messages, so that a test proves the very route a run takes.

/** Where messages go: the stage's SNS topics, or the embedded outbox. */
export interface MessageBackend {
  publisher: AlertPublisher;
  /**
   * The topics that take messages: on AWS, `alerts` and those the variables name; the embedded
   * outbox takes every one (each line says where it would go).
   */
  topics: readonly MessageTopic[];
  /** One line for humans: where messages go. */
  description: string;
  /** The outbox file, when messages are appended there instead of published. */
  outbox?: string;
  close(): void;
}

/**
 * Refuses the AWS variables that cannot work together: `AUDIT_TABLE` and `ALERT_TOPIC_ARN` go
 * together (both for AWS, neither for the embedded store), and the other topics need them.
 */
export function checkMessageVariables(env: CliEnv): void {
  if ((env.AUDIT_TABLE === undefined) !== (env.ALERT_TOPIC_ARN === undefined)) {
    const missing = env.ALERT_TOPIC_ARN === undefined ? "ALERT_TOPIC_ARN" : "AUDIT_TABLE";
    throw new ConfigError([
      {
        path: missing,
        message: "set both AUDIT_TABLE and ALERT_TOPIC_ARN to use AWS, or neither to use the embedded store",
      },
    ]);
  }
  for (const path of ["CRITICAL_TOPIC_ARN", "INCIDENT_TOPIC_ARN"] as const) {
    if (env[path] && !env.ALERT_TOPIC_ARN) {
      throw new ConfigError([
        { path, message: "needs AUDIT_TABLE and ALERT_TOPIC_ARN (the embedded store has one outbox)" },
      ]);
    }
  }
}

/**
 * SNS when `ALERT_TOPIC_ARN` is set (with `CRITICAL_TOPIC_ARN` and `INCIDENT_TOPIC_ARN` when they
 * are: notify's `snsAlertPublisher`, as the audit function has it); otherwise
 * `<stateDir>/outbox.jsonl`. Opens no table.
 */
export function openPublisher(stateDir: string, env: CliEnv): MessageBackend {
  checkMessageVariables(env);
  const alerts = env.ALERT_TOPIC_ARN;
  if (alerts) {
    const client = new SNSClient({});
    return {
      publisher: snsAlertPublisher(client, {
        alerts,
        ...(env.CRITICAL_TOPIC_ARN ? { critical: env.CRITICAL_TOPIC_ARN } : {}),
        ...(env.INCIDENT_TOPIC_ARN ? { incidents: env.INCIDENT_TOPIC_ARN } : {}),
      }),
      topics: [
        "alerts",
        ...(env.INCIDENT_TOPIC_ARN ? (["incidents"] as const) : []),
        ...(env.CRITICAL_TOPIC_ARN ? (["critical"] as const) : []),
      ],
      description: `SNS topic ${alerts}`,
      close: () => client.destroy(),
    };
  }
  const outbox = join(stateDir, "outbox.jsonl");
  return {
    publisher: new OutboxPublisher(outbox),
    topics: ["alerts", "incidents", "critical"],
    description: `messages appended to ${outbox}`,
    outbox,
    close: () => undefined,
  };
}
