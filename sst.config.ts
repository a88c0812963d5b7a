/// <reference path="./.sst/platform/config.d.ts" />

// Infrastructure of fleet-auditor (SST v4). Declarative: one table, one topic, the audit function
// and a schedule per audit. Types: `npx tsc -p tsconfig.sst.json` after `sst install` (README).
export default $config({
  app(input) {
    return {
      name: "fleet-auditor",
      // Audit state must survive a mistaken `sst remove` in production.
      removal: input?.stage === "production" ? "retain" : "remove",
      protect: input?.stage === "production",
      home: "aws",
    };
  },
  async run() {
    // KEB connection; set with `npx sst secret set KebClientSecret … --stage NAME`.
    const kebUrl = new sst.Secret("KebUrl");
    const kebTokenUrl = new sst.Secret("KebTokenUrl");
    const kebClientId = new sst.Secret("KebClientId");
    const kebClientSecret = new sst.Secret("KebClientSecret");

    // Snapshots (one item per flagged runtime per audit), the run ledger, leases and silences.
    const auditTable = new sst.aws.Dynamo("AuditTable", {
      fields: { pk: "string", sk: "string" },
      primaryIndex: { hashKey: "pk", rangeKey: "sk" },
      ttl: "ttl",
    });

    // Email and Slack (AWS Chatbot) subscribe here; subscriptions can filter on audit, severity, kinds.
    const alerts = new sst.aws.SnsTopic("Alerts");
    // Critical digests are published here too: a pager subscribes without a filter, so this route
    // does not rest on SNS applying filter policies to a MessageStructure=json publish.
    const critical = new sst.aws.SnsTopic("Critical");
    const pagerEmail = process.env.FLEET_AUDITOR_PAGER_EMAIL;
    if (pagerEmail) {
      new aws.sns.TopicSubscription("PagerEmail", {
        topic: critical.arn,
        protocol: "email",
        endpoint: pagerEmail,
      });
    }

    const audit = new sst.aws.Function("Audit", {
      handler: "functions/audit.handler",
      runtime: "nodejs22.x",
      architecture: "arm64",
      timeout: "5 minutes",
      memory: "512 MB",
      // A run that throws (e.g. DynamoDB unreachable) is redone by the next schedule; the lease and
      // the ledger would absorb retries, but they would only add load on KEB.
      retries: 0,
      link: [auditTable, alerts, critical, kebUrl, kebTokenUrl, kebClientId, kebClientSecret],
      environment: {
        AUDIT_TABLE: auditTable.name,
        ALERT_TOPIC_ARN: alerts.arn,
        CRITICAL_TOPIC_ARN: critical.arn,
        // Longer than the function timeout: a crashed run's lease expires before the next schedule.
        LEASE_MINUTES: "6",
        // In every subject and title; set RUNTIME_URL_TEMPLATE, RUNBOOK_URL_TEMPLATE and
        // REPORT_URL_TEMPLATE here too to get links in messages.
        LANDSCAPE: $app.stage,
        POWERTOOLS_SERVICE_NAME: "fleet-auditor",
        POWERTOOLS_LOG_LEVEL: "INFO",
      },
      logging: { format: "json", retention: "1 month" },
    });

    // Slack without Chatbot: Block Kit to an incoming webhook, deployed only on a stage whose
    // secret is set (`npx sst secret set SlackWebhookUrl … --stage NAME`; SST hands set secrets to
    // this program as SST_SECRET_<name>, see its components/secret.ts). It needs no AWS
    // permission, only its secret.
    if (process.env.SST_SECRET_SlackWebhookUrl) {
      const slackWebhookUrl = new sst.Secret("SlackWebhookUrl");
      alerts.subscribe("Slack", {
        handler: "functions/slack.handler",
        runtime: "nodejs22.x",
        architecture: "arm64",
        // Room for a 429's Retry-After and a few backoffs; a post that still fails throws, Lambda
        // retries twice.
        timeout: "1 minute",
        memory: "256 MB",
        link: [slackWebhookUrl],
        environment: { POWERTOOLS_SERVICE_NAME: "fleet-auditor", POWERTOOLS_LOG_LEVEL: "INFO" },
        logging: { format: "json", retention: "1 month" },
      });
    }

    // One schedule per audit; the scheduled time keys idempotency of retried deliveries.
    const schedules = {
      failing: "rate(15 minutes)",
      expired: "cron(0 * * * ? *)",
    } as const;
    for (const [name, schedule] of Object.entries(schedules)) {
      new sst.aws.CronV2(`Audit${name[0]?.toUpperCase()}${name.slice(1)}`, {
        schedule,
        function: audit,
        retries: 2,
        event: { audit: name, scheduledTime: "<aws.scheduler.scheduled-time>" },
      });
    }

    // KubeEdge Application status: one row per Application, sparse indexes by node and by status,
    // quarantined bodies under their own index.
    const statusTable = new sst.aws.Dynamo("ApplicationStatus", {
      fields: {
        id: "string",
        node: "string",
        status: "string",
        ts: "number",
        qk: "string",
        receivedAt: "string",
      },
      primaryIndex: { hashKey: "id" },
      globalIndexes: {
        byNode: { hashKey: "node", rangeKey: "ts" },
        byStatus: { hashKey: "status", rangeKey: "ts" },
        byQuarantine: { hashKey: "qk", rangeKey: "receivedAt" },
      },
      ttl: "ttl",
    });
    const applicationsEnv = { STATUS_TABLE: statusTable.name, POWERTOOLS_SERVICE_NAME: "fleet-auditor" };

    // Messages that failed 5 receives (transient failures only; unparseable ones are quarantined).
    const applicationsDlq = new sst.aws.Queue("ApplicationsDlq", { visibilityTimeout: "5 minutes" });
    // At least 6x the function timeout (30 s), so a batch is never redelivered while it runs.
    const applicationsQueue = new sst.aws.Queue("Applications", {
      visibilityTimeout: "3 minutes",
      dlq: { queue: applicationsDlq.arn, retry: 5 },
    });
    applicationsQueue.subscribe(
      {
        handler: "functions/applications.handler",
        runtime: "nodejs22.x",
        architecture: "arm64",
        timeout: "30 seconds",
        memory: "512 MB",
        link: [statusTable],
        environment: applicationsEnv,
        logging: { format: "json", retention: "1 month" },
      },
      { batch: { size: 100, window: "5 seconds", partialResponses: true } },
    );

    // Console queries of the status table: { "node": …, "status": …, "since": … } or { "quarantine": true }.
    const applicationStatus = new sst.aws.Function("ApplicationStatusQuery", {
      handler: "functions/application-status.handler",
      runtime: "nodejs22.x",
      architecture: "arm64",
      timeout: "30 seconds",
      link: [statusTable],
      environment: applicationsEnv,
      logging: { format: "json", retention: "1 month" },
    });

    return {
      auditTable: auditTable.name,
      alertTopic: alerts.arn,
      criticalTopic: critical.arn,
      auditFunction: audit.name,
      statusTable: statusTable.name,
      applicationsQueue: applicationsQueue.url,
      applicationsDlq: applicationsDlq.url,
      applicationStatusFunction: applicationStatus.name,
    };
  },
});
