import { SNSClient } from "@aws-sdk/client-sns";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { MessageTopic } from "@fleet-auditor/audit";
import { type AuditFunctionEnv, kebAudits, kebClientFrom, kebTransportFrom } from "@fleet-auditor/keb-audits";
import { type ApplicationsAuditEnv, kubeedgeAudit, thresholdsFrom } from "@fleet-auditor/kubeedge-audit";
import { snsAlertPublisher } from "@fleet-auditor/notify";
import {
  DynamoAuditStore,
  DynamoIncidentHistory,
  DynamoReportStore,
  DynamoSilenceStore,
  DynamoStatusStore,
  documentClient,
} from "@fleet-auditor/store";
import {
  type AuditPlugin,
  AuditRegistry,
  type AuditRunDeps,
  messagingFrom,
  policyFrom,
  type RunLogger,
  type SecretReader,
} from "@fleet-auditor/use-cases";

type Common = Omit<
  ApplicationsAuditEnv,
  "STATUS_TABLE" | "STUCK_AFTER_MINUTES" | "REJECTED_BURST" | "REJECTED_WINDOW_MINUTES"
>;

/**
 * An audit function's dependencies; `reports` is always there, for `{ "show": RUN_ID }`,
 * `history`, the incident records, for `{ "report": … }`, and `topics`, the topics its publisher
 * routes to, for `{ "notifyTest": … }`.
 */
export type AuditFunctionDeps = AuditRunDeps & {
  ports: { reports: DynamoReportStore; history: DynamoIncidentHistory };
  topics: readonly MessageTopic[];
};

/** The SDK clients an audit function sends with: the default ones, or a benchmark's that count. */
export interface AuditClients {
  dynamo: DynamoDBDocumentClient;
  sns: SNSClient;
}

const defaultClients = (): AuditClients => ({ dynamo: documentClient(), sns: new SNSClient({}) });

/**
 * What every audit run needs from its parsed environment: the audit table, the topics, the
 * policy and message settings. Called once per cold start, so the SDK clients are built once.
 */
function runDeps(
  env: Common,
  plugins: readonly AuditPlugin[],
  log: RunLogger,
  clients: AuditClients,
): AuditFunctionDeps {
  const table = { client: clients.dynamo, tableName: env.AUDIT_TABLE };
  return {
    ports: {
      audits: new AuditRegistry(plugins, env),
      store: new DynamoAuditStore(table),
      silences: new DynamoSilenceStore(table),
      reports: new DynamoReportStore(table),
      history: new DynamoIncidentHistory(table),
      publisher: snsAlertPublisher(clients.sns, {
        alerts: env.ALERT_TOPIC_ARN,
        ...(env.CRITICAL_TOPIC_ARN ? { critical: env.CRITICAL_TOPIC_ARN } : {}),
        ...(env.INCIDENT_TOPIC_ARN ? { incidents: env.INCIDENT_TOPIC_ARN } : {}),
      }),
    },
    settings: {
      policy: policyFrom(env),
      leaseMs: env.LEASE_MINUTES * 60_000,
      ledgerRetentionDays: env.LEDGER_RETENTION_DAYS,
      incidentRetentionDays: env.INCIDENT_RETENTION_DAYS,
      // Every command a message suggests acts on this stage's tables, wherever it is pasted.
      commandStore: { ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}), table: env.AUDIT_TABLE },
      ...messagingFrom(env),
      ...(env.INCIDENT_TOPIC_ARN ? { incidentMessages: { maxNew: env.MAX_NEW_INCIDENT_MESSAGES } } : {}),
      ...(env.CRITICAL_TOPIC_ARN ? { pagerMessages: true } : {}),
      ...(env.ROUTES ? { routes: env.ROUTES } : {}),
      maxClockSkewMs: env.MAX_CLOCK_SKEW_HOURS * 3_600_000,
      firstRun: env.FIRST_RUN,
    },
    hooks: { log },
    topics: [
      "alerts",
      ...(env.INCIDENT_TOPIC_ARN ? (["incidents"] as const) : []),
      ...(env.CRITICAL_TOPIC_ARN ? (["critical"] as const) : []),
    ],
  };
}

// Each function registers every audit, reading only its own: the other's is there for
// `{ "show": RUN_ID }` (a run of any audit) and so that asking for it fails naming the variable
// it would need (KEB_URL, STATUS_TABLE).

/**
 * The KEB audit function's adapters: the run's, and KEB with its transport (the process's one
 * undici agent, through the proxy the environment names, a socket per page in flight); `secrets`
 * reads what is kept in Secrets Manager (the client secret or password, a proxy with credentials); `clients`, SDK clients other than the default
 * (`npm run bench -- cost` counts what they send).
 */
export function auditDeps(
  env: AuditFunctionEnv,
  log: RunLogger,
  secrets?: SecretReader,
  clients: AuditClients = defaultClients(),
): AuditFunctionDeps {
  const transport = kebTransportFrom(env, { connections: env.KEB_CONCURRENCY }, secrets);
  const client = kebClientFrom(env, transport, secrets);
  const plugins = [...kebAudits({ client, concurrency: env.KEB_CONCURRENCY, log }), kubeedgeAudit({ log })];
  return runDeps(env, plugins, log, clients);
}

/** The applications audit function's adapters: the run's, and the Application status table. */
export function applicationsAuditDeps(
  env: ApplicationsAuditEnv,
  log: RunLogger,
  clients: AuditClients = defaultClients(),
): AuditFunctionDeps {
  const statusStore = new DynamoStatusStore({ client: clients.dynamo, tableName: env.STATUS_TABLE });
  const plugins = [
    ...kebAudits({ log }),
    kubeedgeAudit({ statusStore, thresholds: thresholdsFrom(env), log }),
  ];
  const deps = runDeps(env, plugins, log, clients);
  const commandStore = { ...deps.settings?.commandStore, statusTable: env.STATUS_TABLE };
  return { ...deps, settings: { ...deps.settings, commandStore } };
}
