/// <reference path="./.sst/platform/config.d.ts" />

// Infrastructure of fleet-auditor (SST v4). Declarative: tables, topics, queues, functions, a
// schedule per audit (infra/schedules.ts) and the alarms an operator needs (infra/alarms.ts).
// Types: `npx tsc -p tsconfig.sst.json` after `sst install` (README); `test/unit/sst-wiring.test.ts`
// runs `run()` against stand-ins.

// Types only at the top: SST refuses a config with top-level imports (its loader runs `app()`
// before anything is installed), so the infra modules are loaded inside `run()`.
import type { WatchedFunction } from "./infra/alarms.ts";

/** Stages whose data outlives a mistaken `sst remove`: retained, protected, deletion-protected. */
const PROTECTED_STAGES = ["prod", "production"];

export default $config({
  app(input) {
    const stage = input?.stage ?? "";
    const protectedStage = PROTECTED_STAGES.includes(stage);
    return {
      name: "fleet-auditor",
      removal: protectedStage ? "retain" : "remove",
      protect: protectedStage,
      home: "aws",
      providers: {
        aws: {
          region: (process.env.FLEET_AUDITOR_REGION ?? "eu-central-1") as "eu-central-1",
          defaultTags: { tags: { app: "fleet-auditor", stage } },
        },
      },
    };
  },
  async run() {
    const { alarmTo, auditAlarms, functionAlarms, queueNotEmpty, queueStalled } = await import(
      "./infra/alarms.ts"
    );
    const { durationSeconds } = await import("./infra/duration.ts");
    const { fieldsOf, globalIndexesOf } = await import("./infra/dynamo-indexes.ts");
    const { retiringStatusIndexes, statusTableDefinition } = await import(
      "./packages/store/src/status-table.ts"
    );
    const { auditSchedules, SCHEDULED_STAGES } = await import("./infra/schedules.ts");
    const protectedStage = PROTECTED_STAGES.includes($app.stage);
    // What every function shares, set once.
    $transform(sst.aws.Function, (args: sst.aws.FunctionArgs) => {
      args.runtime ??= "nodejs22.x";
      args.architecture ??= "arm64";
      args.logging ??= { format: "json", retention: "1 month" };
    });
    /** A JSON deploy-time variable, or a deploy that fails naming it. */
    const jsonVariable = <T>(name: string, fallback: T): T => {
      const text = process.env[name];
      if (!text) return fallback;
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new Error(
          `${name} is not JSON, e.g. [{"address":"team@example.com","filter":{"severity":["critical"]}}]`,
        );
      }
    };

    // Where KEB is and who the auditor is: `npx sst secret set KebUrl … --stage NAME`. Linked: SST
    // puts the values, encrypted, into the function bundle with the key beside it in SST_KEY, which
    // anyone who may read the function (lambda:GetFunction, in ReadOnlyAccess) can decrypt. So
    // these three hold nothing secret.
    const kebUrl = new sst.Secret("KebUrl");
    const kebTokenUrl = new sst.Secret("KebTokenUrl");
    const kebClientId = new sst.Secret("KebClientId");
    /**
     * A secret kept in AWS Secrets Manager, which ReadOnlyAccess does not let anyone read: the
     * stack creates it without a value and never writes one, so a value set or rotated there
     * (README, "Secrets") stays, and functions pick it up within 5 minutes, without a redeploy.
     * Each function that reads it is granted GetSecretValue on it alone, its ARN in
     * `<VARIABLE>_ARN`.
     */
    const managedSecret = (name: string, description: string) =>
      new aws.secretsmanager.Secret(name, {
        name: `fleet-auditor/${$app.stage}/${name}`,
        description: `fleet-auditor ${$app.stage}: ${description}`,
        // Removed with a non-protected stage at once, so that the stage can be deployed again.
        recoveryWindowInDays: protectedStage ? 30 : 0,
      });
    const readSecret = (secret: aws.secretsmanager.Secret) => ({
      actions: ["secretsmanager:GetSecretValue"],
      resources: [secret.arn],
    });
    const kebClientSecret = managedSecret("KebClientSecret", "the KEB OAuth2 client secret");
    // Where it is (not what it is), for `sst shell -- npx fleet-auditor run` (KEB_CLIENT_SECRET_ARN).
    new sst.Linkable("KebClientSecretArn", { properties: { arn: kebClientSecret.arn } });

    // Snapshots (one item per flagged runtime per audit), the run ledger and reports, leases,
    // health and silences.
    const auditTable = new sst.aws.Dynamo("AuditTable", {
      fields: { pk: "string", sk: "string" },
      primaryIndex: { hashKey: "pk", rangeKey: "sk" },
      ttl: "ttl",
      deletionProtection: protectedStage,
      transform: { table: { pointInTimeRecovery: { enabled: protectedStage } } },
    });

    // The run digests: e-mail subscribes here; subscriptions can filter on audit, severity, kinds.
    const alerts = new sst.aws.SnsTopic("Alerts");
    // E-mail subscriptions of this stage, each with an optional filter policy:
    // FLEET_AUDITOR_ALERT_EMAILS='[{"address":"team@example.com","filter":{"severity":["critical","warning"]}}]'.
    const alertEmails = jsonVariable<Array<{ address: string; filter?: Record<string, unknown> }>>(
      "FLEET_AUDITOR_ALERT_EMAILS",
      [],
    );
    for (const [i, { address, filter }] of alertEmails.entries()) {
      new aws.sns.TopicSubscription(`AlertEmail${i + 1}`, {
        topic: alerts.arn,
        protocol: "email",
        endpoint: address,
        ...(filter ? { filterPolicy: JSON.stringify(filter) } : {}),
      });
    }
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
    // One message per incident with news, threaded by its incidentKey: what chat follows (AWS
    // Chatbot and the Slack function subscribe here); the e-mail digests stay on Alerts, so their
    // subscriptions stay as they are. Health notices go to both.
    const incidents = new sst.aws.SnsTopic("Incidents");
    // The alarms' topic: alarm messages carry no audit or severity attribute, so a filtered
    // subscription on Alerts would drop them.
    const ops = new sst.aws.SnsTopic("Ops");
    const opsEmail = process.env.FLEET_AUDITOR_OPS_EMAIL;
    if (opsEmail) {
      new aws.sns.TopicSubscription("OpsEmail", { topic: ops.arn, protocol: "email", endpoint: opsEmail });
    }

    // AWS Chatbot in a Slack channel, when this stage names one (the workspace must be authorized
    // in the Chatbot console once): FLEET_AUDITOR_CHATBOT_TEAM_ID and FLEET_AUDITOR_CHATBOT_CHANNEL_ID.
    const chatbotTeam = process.env.FLEET_AUDITOR_CHATBOT_TEAM_ID;
    const chatbotChannel = process.env.FLEET_AUDITOR_CHATBOT_CHANNEL_ID;
    if (chatbotTeam && chatbotChannel) {
      // Chatbot only relays notifications: its role may do nothing, and the guardrail says so.
      const chatbotRole = new aws.iam.Role("ChatbotRole", {
        assumeRolePolicy: JSON.stringify({
          Version: "2012-10-17",
          Statement: [
            { Effect: "Allow", Principal: { Service: "chatbot.amazonaws.com" }, Action: "sts:AssumeRole" },
          ],
        }),
      });
      new aws.chatbot.SlackChannelConfiguration("Chatbot", {
        configurationName: `fleet-auditor-${$app.stage}`,
        iamRoleArn: chatbotRole.arn,
        slackTeamId: chatbotTeam,
        slackChannelId: chatbotChannel,
        snsTopicArns: [incidents.arn, ops.arn],
        guardrailPolicyArns: ["arn:aws:iam::aws:policy/ReadOnlyAccess"],
        loggingLevel: "ERROR",
      });
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

    // What an audit run sends, KEB's or the applications': its state and its messages.
    const auditRunAccess = [
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
      { actions: ["sns:Publish"], resources: [alerts.arn, critical.arn, incidents.arn] },
    ];

    const auditArgs = {
      handler: "functions/audit.handler",
      timeout: "5 minutes",
      memory: "512 MB",
      // A run that throws (e.g. DynamoDB unreachable) is redone by the next schedule; the lease and
      // the ledger would absorb retries, but they would only add load on KEB. It goes to Failures.
      retries: 0,
      transform: failureDestination,
      // One run per audit at a time is the lease's job; this caps what a burst of console runs costs.
      concurrency: { reserved: 4 },
      link: [kebUrl, kebTokenUrl, kebClientId],
      // Exactly what the function sends (test/e2e/iam-contract.test.ts records it).
      permissions: [
        ...auditRunAccess,
        readSecret(kebClientSecret),
        { actions: ["sqs:SendMessage"], resources: [failures.arn] },
      ],
      environment: {
        KEB_CLIENT_SECRET_ARN: kebClientSecret.arn,
        AUDIT_TABLE: auditTable.name,
        ALERT_TOPIC_ARN: alerts.arn,
        CRITICAL_TOPIC_ARN: critical.arn,
        INCIDENT_TOPIC_ARN: incidents.arn,
        // Longer than the function timeout: a crashed run's lease expires before the next schedule.
        LEASE_MINUTES: "6",
        // In every subject and title; set RUNTIME_URL_TEMPLATE, RUNBOOK_URL_TEMPLATE and
        // REPORT_URL_TEMPLATE here too to get links in messages, and GROUP_BY_FAILING or
        // GROUP_BY_EXPIRED to group by other labels (README, Configuration).
        LANDSCAPE: $app.stage,
        POWERTOOLS_SERVICE_NAME: "fleet-auditor",
        POWERTOOLS_LOG_LEVEL: "INFO",
      },
    } satisfies sst.aws.FunctionArgs;
    const audit = new sst.aws.Function("Audit", auditArgs);
    // What the alarms watch: each function with its declared timeout and concurrency, and how long
    // before its timeout it stops by itself (packages/runner/src/deadline.ts; the Slack and
    // PagerDuty functions' 2 s margins).
    const watched: WatchedFunction[] = [];
    const watch = (
      name: string,
      functionName: $util.Input<string>,
      args: { timeout?: unknown; concurrency?: unknown },
      cutsShortSeconds: number,
    ) => {
      const reserved = (args.concurrency as { reserved?: number } | undefined)?.reserved;
      watched.push({
        name,
        functionName,
        timeoutSeconds: durationSeconds(String(args.timeout ?? "20 seconds"), `${name}'s timeout`),
        cutsShortSeconds,
        ...(reserved !== undefined ? { reservedConcurrency: reserved } : {}),
      });
    };
    watch("Audit", audit.name, auditArgs, 30);

    // Slack without Chatbot: Block Kit to an incoming webhook, or through a bot that keeps each
    // incident in one thread; deployed only on a stage that says which (FLEET_AUDITOR_SLACK=webhook
    // or bot), its secret created in Secrets Manager for the operator to set (README, "Secrets").
    const slackWay = process.env.FLEET_AUDITOR_SLACK;
    if (slackWay !== undefined && slackWay !== "" && slackWay !== "webhook" && slackWay !== "bot")
      throw new Error("FLEET_AUDITOR_SLACK must be webhook or bot (or unset: no Slack function)");
    if (slackWay === "webhook" || slackWay === "bot") {
      const slackBotSet = slackWay === "bot";
      const slackChannel = process.env.FLEET_AUDITOR_SLACK_CHANNEL;
      if (slackBotSet && !slackChannel)
        throw new Error(
          "FLEET_AUDITOR_SLACK_CHANNEL is not set: the Slack bot (FLEET_AUDITOR_SLACK=bot) needs the ID of the channel it posts to, e.g. C0123ABCD",
        );
      const slackSecret = slackBotSet
        ? managedSecret("SlackBotToken", "the Slack bot's token (xoxb-…)")
        : managedSecret("SlackWebhookUrl", "the Slack incoming webhook URL");
      // The bot keeps each incident's thread parent in the audit table, and may read and write
      // those items only (partition keys SLACK#<incidentKey>, store's `itemKey.slackThread`).
      const slackBotAccess = slackBotSet
        ? [
            {
              actions: ["dynamodb:GetItem", "dynamodb:PutItem"],
              resources: [auditTable.arn],
              conditions: [
                { test: "ForAllValues:StringLike", variable: "dynamodb:LeadingKeys", values: ["SLACK#*"] },
              ],
            },
          ]
        : [];
      const slackArgs = {
        handler: "functions/slack.handler",
        // Room for a 429's Retry-After and a few backoffs; a post that still fails throws, Lambda
        // retries twice, then the event goes to Failures.
        timeout: "1 minute",
        memory: "256 MB",
        retries: 2,
        transform: failureDestination,
        // One delivery at a time: two deliveries of one incident never race to start two threads,
        // and Slack takes about one message a second per channel anyway. Lambda keeps the events
        // it throttles and retries them, within the hour the failure destination allows.
        concurrency: { reserved: 1 },
        permissions: [
          readSecret(slackSecret),
          { actions: ["sqs:SendMessage"], resources: [failures.arn] },
          ...slackBotAccess,
        ],
        environment: {
          POWERTOOLS_SERVICE_NAME: "fleet-auditor",
          POWERTOOLS_LOG_LEVEL: "INFO",
          ...(slackBotSet && slackChannel
            ? {
                SLACK_BOT_TOKEN_ARN: slackSecret.arn,
                SLACK_CHANNEL: slackChannel,
                AUDIT_TABLE: auditTable.name,
              }
            : { SLACK_WEBHOOK_URL_ARN: slackSecret.arn }),
        },
      } satisfies sst.aws.FunctionArgs;
      const slack = incidents.subscribe("Slack", slackArgs);
      watch("Slack", slack.nodes.function.name, slackArgs, 2);
    }

    // PagerDuty (Events API v2) from the Critical topic: each critical incident's opening and end
    // and the health notices, as trigger and resolve under the incident's key; deployed only on a
    // stage that asks for it (FLEET_AUDITOR_PAGERDUTY=on), its routing key created in Secrets
    // Manager for the operator to set (README, "Secrets"). It may read that secret and fail to its
    // destination, nothing else.
    const pagerDuty = process.env.FLEET_AUDITOR_PAGERDUTY;
    if (pagerDuty !== undefined && pagerDuty !== "" && pagerDuty !== "on" && pagerDuty !== "off")
      throw new Error("FLEET_AUDITOR_PAGERDUTY must be on or off");
    if (pagerDuty === "on") {
      const pagerDutyRoutingKey = managedSecret(
        "PagerDutyRoutingKey",
        "the PagerDuty Events API v2 routing key",
      );
      const pagerArgs = {
        handler: "functions/pager.handler",
        // Room for a few backoffs after a 429 or a 5xx; an event still not taken throws, Lambda
        // retries twice, then the event goes to Failures.
        timeout: "1 minute",
        memory: "256 MB",
        retries: 2,
        transform: failureDestination,
        permissions: [
          readSecret(pagerDutyRoutingKey),
          { actions: ["sqs:SendMessage"], resources: [failures.arn] },
        ],
        environment: {
          PAGERDUTY_ROUTING_KEY_ARN: pagerDutyRoutingKey.arn,
          POWERTOOLS_SERVICE_NAME: "fleet-auditor",
          POWERTOOLS_LOG_LEVEL: "INFO",
        },
      } satisfies sst.aws.FunctionArgs;
      const pager = critical.subscribe("Pager", pagerArgs);
      watch("Pager", pager.nodes.function.name, pagerArgs, 2);
    }

    // Schedule deliveries the scheduler could not make land here: an Invoke call refused (the
    // function missing, its permission gone, the Invoke API's own request rate). A throttled run is
    // not one: Lambda takes the event and retries it (README, ScheduleDlqNotEmpty).
    const scheduleDlq = new sst.aws.Queue("ScheduleDlq", {
      transform: { queue: { messageRetentionSeconds: 14 * 86_400 } },
    });
    // Each audit's schedule and longest gap between runs (for its not-running alarm), per stage.
    const stageSchedule = Object.hasOwn(SCHEDULED_STAGES, $app.stage)
      ? SCHEDULED_STAGES[$app.stage]
      : undefined;
    const scheduled = stageSchedule !== undefined || process.env.FLEET_AUDITOR_SCHEDULES === "on";
    const schedules = auditSchedules($app.stage, stageSchedule);

    // KubeEdge Application status: one row per Application, declared from the definition the
    // store creates tables from (packages/store/src/status-table.ts: its indexes and why), plus
    // the retiring indexes that today's replace, kept until a stage's new ones are ACTIVE; then
    // drop them here (README, "Changing an index"). Capacity model: README, "Capacity".
    const statusDefinition = statusTableDefinition("ApplicationStatus");
    const statusTable = new sst.aws.Dynamo("ApplicationStatus", {
      fields: fieldsOf(statusDefinition),
      primaryIndex: { hashKey: "id" },
      globalIndexes: {
        ...globalIndexesOf(statusDefinition.GlobalSecondaryIndexes ?? []),
        ...globalIndexesOf(retiringStatusIndexes()),
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
    // At least 6x the function timeout (1 minute) plus the batch window (5 s), as AWS advises, so a
    // batch is never redelivered while it runs. Kept 14 days, not SQS's default 4: if nothing
    // consumes it (ApplicationsQueueStalled), messages wait for the fix instead of expiring.
    const applicationsQueue = new sst.aws.Queue("Applications", {
      visibilityTimeout: "7 minutes",
      dlq: { queue: applicationsDlq.arn, retry: 5 },
      transform: { queue: { messageRetentionSeconds: 14 * 86_400 } },
    });
    // A batch of 100 messages is about 100 conditional writes, 8 at a time: about 0.1 s on DynamoDB
    // (1 s on dynalite), under 2 % of the minute. The handler stops writing 5 s before the timeout
    // and hands back what it did not write; each such record spends one of its 5 receives, so a
    // normal batch must never come near the deadline: only a throttled or unreachable table does.
    const applicationsArgs = {
      handler: "functions/applications.handler",
      timeout: "1 minute",
      memory: "512 MB",
      // GetItem: a refused write reads the winner's msg_id (duplicate or stale) when the refusal
      // does not carry the old item (DynamoDB's does; an emulator's may not).
      permissions: [
        {
          actions: ["dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:GetItem"],
          resources: [statusTable.arn],
        },
      ],
      environment: applicationsEnv,
    } satisfies sst.aws.FunctionArgs;
    const applications = applicationsQueue.subscribe(applicationsArgs, {
      batch: { size: 100, window: "5 seconds", partialResponses: true },
      // Without a cap, Lambda scales an SQS source to hundreds of concurrent batches on a backlog or
      // a DLQ redrive, each 8 writes in flight, on 32 byWatch shard keys: throttling, and every
      // throttled record spends one of its 5 receives. 10 batches (80 writes in flight, about 10,000
      // messages a second) is what the shards are sized for (README, "Capacity").
      transform: { eventSourceMapping: { scalingConfig: { maximumConcurrency: 10 } } },
    });
    watch("Applications", applications.nodes.function.name, applicationsArgs, 5);

    // Console queries of the status table: { "node": …, "status": …, "since": … } or { "quarantine": true }.
    const applicationStatusArgs = {
      handler: "functions/application-status.handler",
      timeout: "30 seconds",
      permissions: [
        { actions: ["dynamodb:Query"], resources: [$interpolate`${statusTable.arn}/index/*`] },
        // Rows in no index (Approved, Completed) are scanned up to the limit; byWatch rows read whole.
        { actions: ["dynamodb:Scan", "dynamodb:BatchGetItem"], resources: [statusTable.arn] },
      ],
      environment: applicationsEnv,
    } satisfies sst.aws.FunctionArgs;
    const applicationStatus = new sst.aws.Function("ApplicationStatusQuery", applicationStatusArgs);
    watch("ApplicationStatusQuery", applicationStatus.name, applicationStatusArgs, 0);

    // The applications audit: the same engine as the KEB audits, reading the status table's
    // watched index (never a scan) instead of KEB, so it holds no KEB credential.
    const applicationsAuditArgs = {
      handler: "functions/applications-audit.handler",
      timeout: "2 minutes",
      memory: "512 MB",
      retries: 0,
      transform: failureDestination,
      concurrency: { reserved: 2 },
      permissions: [
        ...auditRunAccess,
        { actions: ["dynamodb:Query"], resources: [$interpolate`${statusTable.arn}/index/*`] },
        { actions: ["sqs:SendMessage"], resources: [failures.arn] },
      ],
      environment: {
        AUDIT_TABLE: auditTable.name,
        ALERT_TOPIC_ARN: alerts.arn,
        CRITICAL_TOPIC_ARN: critical.arn,
        INCIDENT_TOPIC_ARN: incidents.arn,
        STATUS_TABLE: statusTable.name,
        LEASE_MINUTES: "3",
        LANDSCAPE: $app.stage,
        POWERTOOLS_SERVICE_NAME: "fleet-auditor",
        POWERTOOLS_LOG_LEVEL: "INFO",
      },
    } satisfies sst.aws.FunctionArgs;
    const applicationsAudit = new sst.aws.Function("ApplicationsAudit", applicationsAuditArgs);
    watch("ApplicationsAudit", applicationsAudit.name, applicationsAuditArgs, 30);

    // One schedule per audit; the scheduled time keys idempotency of retried deliveries. Declared
    // on every stage, enabled only where the stage is scheduled.
    for (const [name, { schedule }] of Object.entries(schedules)) {
      new sst.aws.CronV2(`Audit${name[0]?.toUpperCase()}${name.slice(1)}`, {
        schedule: schedule as `rate(${string})` | `cron(${string})`,
        timezone: stageSchedule?.timezone ?? "UTC",
        enabled: scheduled,
        function: name === "applications" ? applicationsAudit : audit,
        retries: 2,
        dlq: scheduleDlq.arn,
        event: { audit: name, scheduledTime: "<aws.scheduler.scheduled-time>" },
      });
    }

    // Alarms, each with a runbook entry in the README ("Alarms and their runbooks").
    const alarm = alarmTo(ops.arn);
    for (const f of watched) functionAlarms(alarm, f);
    queueNotEmpty(
      alarm,
      "ApplicationsDlqNotEmpty",
      applicationsDlq.nodes.queue.name,
      "Application messages in the DLQ",
    );
    queueNotEmpty(alarm, "FailuresNotEmpty", failures.nodes.queue.name, "failed asynchronous invocations");
    queueNotEmpty(
      alarm,
      "ScheduleDlqNotEmpty",
      scheduleDlq.nodes.queue.name,
      "schedule deliveries that failed",
    );
    // A message retried 3 times (up to 3 × 7 minutes) leaves the metric; older than that, nothing
    // receives the queue.
    queueStalled(alarm, "ApplicationsQueueStalled", applicationsQueue.nodes.queue.name, 30 * 60);
    // A stage that does not run on schedule has nothing to miss.
    for (const [name, schedule] of scheduled ? Object.entries(schedules) : [])
      auditAlarms(alarm, name, schedule);
    // A malformed feed: every quarantined message is a write of its excerpt (and its index
    // entry) and a row the applications audit reads back, so a steady stream is a bill and a
    // broken edge, not noise. 300 in 5 minutes is one a second, twice in a row.
    alarm("ApplicationsQuarantining", {
      alarmDescription: "Application messages quarantined at more than one a second for 10 minutes",
      namespace: "FleetAuditor",
      metricName: "Quarantined",
      dimensions: { service: "applications" },
      statistic: "Sum",
      period: 300,
      evaluationPeriods: 2,
      datapointsToAlarm: 2,
      threshold: 300,
      comparisonOperator: "GreaterThanThreshold",
      treatMissingData: "notBreaching",
    });
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
      incidentTopic: incidents.arn,
      opsTopic: ops.arn,
      auditFunction: audit.name,
      applicationsAuditFunction: applicationsAudit.name,
      failuresQueue: failures.url,
      scheduleDlq: scheduleDlq.url,
      statusTable: statusTable.name,
      applicationsQueue: applicationsQueue.url,
      applicationsDlq: applicationsDlq.url,
      applicationStatusFunction: applicationStatus.name,
      kebClientSecret: kebClientSecret.arn,
    };
  },
});
