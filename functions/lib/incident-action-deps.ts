import { SNSClient } from "@aws-sdk/client-sns";
import { KEB_AUDITS } from "@fleet-auditor/keb-audits";
import { applicationsAudit } from "@fleet-auditor/kubeedge-audit";
import { snsAlertPublisher } from "@fleet-auditor/notify";
import {
  DynamoAuditStore,
  DynamoIncidentHistory,
  DynamoSilenceStore,
  documentClient,
} from "@fleet-auditor/store";
import {
  actOnIncident,
  type IncidentAction,
  type IncidentActionResult,
  type RunLogger,
} from "@fleet-auditor/use-cases";

/** Where the incident actions core acts: the audit table, and the topics it tells what it did on. */
export interface IncidentActionConfig {
  auditTable: string;
  incidentTopicArn?: string;
  criticalTopicArn?: string;
  landscape?: string;
  /** How long an acknowledgement and an action's events are kept (`INCIDENT_RETENTION_DAYS`). */
  incidentRetentionDays?: number;
}

// The audits whose incidents an action may name: those the audit functions register.
const AUDITS = [...KEB_AUDITS.map((a) => a.name), applicationsAudit.name];

/**
 * The incident actions core (`actOnIncident`) with its adapters, built once per cold start: the
 * audit table's incident records, snapshot and silences, and the Incidents and Critical topics
 * (an action is never published to Alerts: the routed publisher's `alerts` is the Incidents topic).
 */
export function incidentActor(
  config: IncidentActionConfig,
  log: RunLogger,
  clients = { dynamo: documentClient(), sns: new SNSClient({}) },
): (action: IncidentAction) => Promise<IncidentActionResult> {
  const tables = { client: clients.dynamo, tableName: config.auditTable };
  const incidents = config.incidentTopicArn ?? config.criticalTopicArn ?? "";
  const deps = {
    ports: {
      actions: new DynamoIncidentHistory(tables),
      store: new DynamoAuditStore(tables),
      silences: new DynamoSilenceStore(tables),
      publisher: snsAlertPublisher(clients.sns, {
        alerts: incidents,
        ...(config.incidentTopicArn ? { incidents: config.incidentTopicArn } : {}),
        ...(config.criticalTopicArn ? { critical: config.criticalTopicArn } : {}),
      }),
    },
    audits: AUDITS,
    settings: {
      ...(config.landscape ? { landscape: config.landscape } : {}),
      ...(config.incidentRetentionDays ? { incidentRetentionDays: config.incidentRetentionDays } : {}),
    },
    hooks: { log },
  };
  return (action) => actOnIncident(deps, action);
}
