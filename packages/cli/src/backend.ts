import { join } from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SNSClient } from "@aws-sdk/client-sns";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { AlertPublisher, AuditStateStore } from "@fleet-auditor/audit";
import { OutboxPublisher, SnsAlertPublisher } from "@fleet-auditor/notify";
import { DynamoAuditStore, DynamoSilenceStore, startEmbeddedDynamo } from "@fleet-auditor/store";

/** Where a CLI run keeps its state and sends its messages. */
export interface Backend {
  store: AuditStateStore;
  silences: DynamoSilenceStore;
  publisher: AlertPublisher;
  /** One line for humans: where state and messages go. */
  description: string;
  close(): Promise<void>;
}

const LOCAL_TABLE = "fleet-auditor";

/**
 * AWS when `AUDIT_TABLE` and `ALERT_TOPIC_ARN` are set (credentials and endpoints from the SDK's
 * usual variables, `AWS_ENDPOINT_URL_*` included); otherwise the embedded stack: a DynamoDB-
 * compatible store persisted under `stateDir` and `<stateDir>/outbox.jsonl` for messages.
 */
export async function openBackend(
  stateDir: string,
  env: Record<string, string | undefined>,
): Promise<Backend> {
  if (env.AUDIT_TABLE && env.ALERT_TOPIC_ARN) {
    const raw = new DynamoDBClient({});
    const client = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
    const sns = new SNSClient({});
    return {
      store: new DynamoAuditStore({ client, tableName: env.AUDIT_TABLE }),
      silences: new DynamoSilenceStore({ client, tableName: env.AUDIT_TABLE }),
      publisher: new SnsAlertPublisher({ client: sns, topicArn: env.ALERT_TOPIC_ARN }),
      description: `DynamoDB table ${env.AUDIT_TABLE}, SNS topic ${env.ALERT_TOPIC_ARN}`,
      close: async () => {
        raw.destroy();
        sns.destroy();
      },
    };
  }
  if (env.AUDIT_TABLE || env.ALERT_TOPIC_ARN) {
    throw new Error(
      "set both AUDIT_TABLE and ALERT_TOPIC_ARN to use AWS, or neither to use the embedded store",
    );
  }
  const db = await startEmbeddedDynamo({ dir: join(stateDir, "dynamodb"), tables: [LOCAL_TABLE] });
  const outbox = join(stateDir, "outbox.jsonl");
  return {
    store: new DynamoAuditStore({ client: db.client, tableName: LOCAL_TABLE }),
    silences: new DynamoSilenceStore({ client: db.client, tableName: LOCAL_TABLE }),
    publisher: new OutboxPublisher(outbox),
    description: `embedded store in ${stateDir}, messages appended to ${outbox}`,
    close: () => db.close(),
  };
}

/** The silences of the audit table: DynamoDB with `AUDIT_TABLE`, else the embedded store. */
export async function openSilences(
  stateDir: string,
  env: Record<string, string | undefined>,
): Promise<{ silences: DynamoSilenceStore; description: string; close(): Promise<void> }> {
  if (env.AUDIT_TABLE) {
    const raw = new DynamoDBClient({});
    const client = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
    return {
      silences: new DynamoSilenceStore({ client, tableName: env.AUDIT_TABLE }),
      description: `DynamoDB table ${env.AUDIT_TABLE}`,
      close: async () => raw.destroy(),
    };
  }
  const db = await startEmbeddedDynamo({ dir: join(stateDir, "dynamodb"), tables: [LOCAL_TABLE] });
  return {
    silences: new DynamoSilenceStore({ client: db.client, tableName: LOCAL_TABLE }),
    description: `embedded store in ${stateDir}`,
    close: () => db.close(),
  };
}
