/// <reference path="./.sst/platform/config.d.ts" />

// Infrastructure of fleet-auditor (SST v4). Declarative: tables, topics, queues, functions, a
// schedule per audit and the alarms an operator needs. Types: `npx tsc -p tsconfig.sst.json` after
// `sst install` (README); `test/e2e/sst-wiring.test.ts` runs `run()` against stand-ins.

/** Stages whose data outlives a mistaken `sst remove`: retained, protected, deletion-protected. */
const PROTECTED_STAGES = ["prod", "production"];

export default $config({
  app(input) {
    const protectedStage = PROTECTED_STAGES.includes(input?.stage ?? "");
    return {
      name: "fleet-auditor",
      removal: protectedStage ? "retain" : "remove",
      protect: protectedStage,
      home: "aws",
    };
  },
  async run() {
    const protectedStage = PROTECTED_STAGES.includes($app.stage);
    // Function settings every function shares.
    const runtime = { runtime: "nodejs22.x", architecture: "arm64" } as const;
    const logging = { format: "json", retention: "1 month" } as const;

    // KEB connection; set with `npx sst secret set KebClientSecret … --stage NAME`. Linked: SST
    // puts the values, encrypted, into the function bundle (anyone who can read the function's
    // code and its SST key can read them).
    const kebUrl = new sst.Secret("KebUrl");
    const kebTokenUrl = new sst.Secret("KebTokenUrl");
    const kebClientId = new sst.Secret("KebClientId");
    const kebClientSecret = new sst.Secret("KebClientSecret");

    // Snapshots (one item per flagged runtime per audit), the run ledger and reports, leases,
    // health and silences.
    const auditTable = new sst.aws.Dynamo("AuditTable", {
      fields: { pk: "string", sk: "string" },
      primaryIndex: { hashKey: "pk", rangeKey: "sk" },
      ttl: "ttl",
      deletionProtection: protectedStage,
      transform: { table: { pointInTimeRecovery: { enabled: protectedStage } } },
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
    // The alarms' topic: alarm messages carry no audit or severity attribute, so a filtered
    // subscription on Alerts would drop them.
    const ops = new sst.aws.SnsTopic("Ops");
    const opsEmail = process.env.FLEET_AUDITOR_OPS_EMAIL;
    if (opsEmail) {
      new aws.sns.TopicSubscription("OpsEmail", { topic: ops.arn, protocol: "email", endpoint: opsEmail });
    }

    // Failed asynchronous invocations (a scheduled run or a Slack post that threw after Lambda's
    // retries) land here instead of vanishing; an alarm watches it.
    const failures = new sst.aws.Queue("Failures", {
      transform: { queue: { messageRetentionSeconds: 14 * 86_400 } },
    });
    const failureDestination = {
      eventInvokeConfig: {
        // An event older than an hour is stale: the next scheduled run has covered it.
        maximumEventAgeInSeconds: 3_600,
        destinationConfig: { onFailure: { destination: failures.arn } },
      },
    };

    const audit = new sst.aws.Function("Audit", {
      handler: "functions/audit.handler",
      ...runtime,
      timeout: "5 minutes",
      memory: "512 MB",
      // A run that throws (e.g. DynamoDB unreachable) is redone by the next schedule; the lease and
      // the ledger would absorb retries, but they would only add load on KEB. It goes to Failures.
      retries: 0,
      transform: failureDestination,
      // One run per audit at a time is the lease's job; this caps what a burst of console runs costs.
      concurrency: { reserved: 4 },
      link: [kebUrl, kebTokenUrl, kebClientId, kebClientSecret],
      // Exactly what the function sends (test/e2e/iam-contract.test.ts records it).
      permissions: [
        {
          actions: [
            "dynamodb:GetItem",
            "dynamodb:PutItem",
            "dynamodb:DeleteItem",
            "dynamodb:Query",
            "dynamodb:BatchWriteItem",
          ],
          resources: [auditTable.arn],
        },
        { actions: ["sns:Publish"], resources: [alerts.arn, critical.arn] },
        { actions: ["sqs:SendMessage"], resources: [failures.arn] },
      ],
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
      logging,
    });

    // Slack without Chatbot: Block Kit to an incoming webhook, deployed only on a stage whose
    // secret is set (`npx sst secret set SlackWebhookUrl … --stage NAME`; SST hands set secrets to
    // this program as SST_SECRET_<name>, see its components/secret.ts). It needs no AWS
    // permission but its failure destination, only its secret.
    const slackFunctionNames: $util.Output<string>[] = [];
    if (process.env.SST_SECRET_SlackWebhookUrl) {
      const slackWebhookUrl = new sst.Secret("SlackWebhookUrl");
      const slack = alerts.subscribe("Slack", {
        handler: "functions/slack.handler",
        ...runtime,
        // Room for a 429's Retry-After and a few backoffs; a post that still fails throws, Lambda
        // retries twice, then the event goes to Failures.
        timeout: "1 minute",
        memory: "256 MB",
        retries: 2,
        transform: failureDestination,
        link: [slackWebhookUrl],
        permissions: [{ actions: ["sqs:SendMessage"], resources: [failures.arn] }],
        environment: { POWERTOOLS_SERVICE_NAME: "fleet-auditor", POWERTOOLS_LOG_LEVEL: "INFO" },
        logging,
      });
      slackFunctionNames.push(slack.nodes.function.name);
    }

    // Scheduler deliveries it could not make (the function throttled or missing) land here.
    const scheduleDlq = new sst.aws.Queue("ScheduleDlq", {
      transform: { queue: { messageRetentionSeconds: 14 * 86_400 } },
    });
    // One schedule per audit; the scheduled time keys idempotency of retried deliveries.
    const schedules = {
      failing: { schedule: "rate(15 minutes)", periodSeconds: 900 },
      expired: { schedule: "cron(0 * * * ? *)", periodSeconds: 3_600 },
    } as const;
    for (const [name, { schedule }] of Object.entries(schedules)) {
      new sst.aws.CronV2(`Audit${name[0]?.toUpperCase()}${name.slice(1)}`, {
        schedule,
        function: audit,
        retries: 2,
        dlq: scheduleDlq.arn,
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
      deletionProtection: protectedStage,
    });
    const applicationsEnv = { STATUS_TABLE: statusTable.name, POWERTOOLS_SERVICE_NAME: "fleet-auditor" };

    // Messages that failed 5 receives (transient failures only; unparseable ones are quarantined).
    // Kept 14 days: SQS counts a message's age from its first enqueue, not from its move here.
    const applicationsDlq = new sst.aws.Queue("ApplicationsDlq", {
      visibilityTimeout: "5 minutes",
      transform: { queue: { messageRetentionSeconds: 14 * 86_400 } },
    });
    // At least 6x the function timeout (30 s), so a batch is never redelivered while it runs.
    const applicationsQueue = new sst.aws.Queue("Applications", {
      visibilityTimeout: "3 minutes",
      dlq: { queue: applicationsDlq.arn, retry: 5 },
    });
    const applications = applicationsQueue.subscribe(
      {
        handler: "functions/applications.handler",
        ...runtime,
        timeout: "30 seconds",
        memory: "512 MB",
        permissions: [{ actions: ["dynamodb:UpdateItem", "dynamodb:PutItem"], resources: [statusTable.arn] }],
        environment: applicationsEnv,
        logging,
      },
      { batch: { size: 100, window: "5 seconds", partialResponses: true } },
    );

    // Console queries of the status table: { "node": …, "status": …, "since": … } or { "quarantine": true }.
    const applicationStatus = new sst.aws.Function("ApplicationStatusQuery", {
      handler: "functions/application-status.handler",
      ...runtime,
      timeout: "30 seconds",
      permissions: [{ actions: ["dynamodb:Query"], resources: [$interpolate`${statusTable.arn}/index/*`] }],
      environment: applicationsEnv,
      logging,
    });

    // Alarms, each with a runbook entry in the README ("Operations").
    const alarm = (name: string, args: Omit<aws.cloudwatch.MetricAlarmArgs, "alarmActions" | "okActions">) =>
      new aws.cloudwatch.MetricAlarm(name, {
        ...args,
        alarmDescription: `fleet-auditor ${$app.stage}: ${args.alarmDescription} (README, Operations: ${name})`,
        alarmActions: [ops.arn],
        okActions: [ops.arn],
      });
    const errorsOf = (name: string, functionName: $util.Input<string>) =>
      alarm(name, {
        alarmDescription: `${name.replace(/Errors$/, "")} function errors`,
        namespace: "AWS/Lambda",
        metricName: "Errors",
        dimensions: { FunctionName: functionName },
        statistic: "Sum",
        period: 300,
        evaluationPeriods: 1,
        threshold: 0,
        comparisonOperator: "GreaterThanThreshold",
        treatMissingData: "notBreaching",
      });
    errorsOf("AuditErrors", audit.name);
    errorsOf("ApplicationsErrors", applications.nodes.function.name);
    errorsOf("ApplicationStatusQueryErrors", applicationStatus.name);
    for (const name of slackFunctionNames) errorsOf("SlackErrors", name);
    const queueNotEmpty = (name: string, queueName: $util.Input<string>, what: string) =>
      alarm(name, {
        alarmDescription: what,
        namespace: "AWS/SQS",
        metricName: "ApproximateNumberOfMessagesVisible",
        dimensions: { QueueName: queueName },
        statistic: "Maximum",
        period: 300,
        evaluationPeriods: 1,
        threshold: 0,
        comparisonOperator: "GreaterThanThreshold",
        treatMissingData: "notBreaching",
      });
    queueNotEmpty(
      "ApplicationsDlqNotEmpty",
      applicationsDlq.nodes.queue.name,
      "Application messages in the DLQ",
    );
    queueNotEmpty("FailuresNotEmpty", failures.nodes.queue.name, "failed asynchronous invocations");
    queueNotEmpty("ScheduleDlqNotEmpty", scheduleDlq.nodes.queue.name, "schedule deliveries that failed");
    for (const [name, { periodSeconds }] of Object.entries(schedules)) {
      const auditMetric = (metricName: string) => ({
        namespace: "FleetAuditor",
        metricName,
        dimensions: { service: "audit", audit: name },
        statistic: "Sum",
        period: periodSeconds,
        evaluationPeriods: 2,
      });
      const Name = `${name[0]?.toUpperCase()}${name.slice(1)}`;
      alarm(`${Name}NotRunning`, {
        alarmDescription: `no ${name} audit run for two periods of its schedule`,
        ...auditMetric("Runs"),
        threshold: 1,
        comparisonOperator: "LessThanThreshold",
        treatMissingData: "breaching",
      });
      for (const metricName of ["IncompleteScans", "PublishFailures"]) {
        alarm(`${Name}${metricName}`, {
          alarmDescription: `${metricName} in the ${name} audit for two periods`,
          ...auditMetric(metricName),
          datapointsToAlarm: 2,
          threshold: 0,
          comparisonOperator: "GreaterThanThreshold",
          treatMissingData: "notBreaching",
        });
      }
    }
    alarm("ApplicationsFailed", {
      alarmDescription: "Application status writes that failed (retried, then the DLQ)",
      namespace: "FleetAuditor",
      metricName: "Failed",
      dimensions: { service: "applications" },
      statistic: "Sum",
      period: 300,
      evaluationPeriods: 1,
      threshold: 0,
      comparisonOperator: "GreaterThanThreshold",
      treatMissingData: "notBreaching",
    });

    return {
      auditTable: auditTable.name,
      alertTopic: alerts.arn,
      criticalTopic: critical.arn,
      opsTopic: ops.arn,
      auditFunction: audit.name,
      failuresQueue: failures.url,
      scheduleDlq: scheduleDlq.url,
      statusTable: statusTable.name,
      applicationsQueue: applicationsQueue.url,
      applicationsDlq: applicationsDlq.url,
      applicationStatusFunction: applicationStatus.name,
    };
  },
});
