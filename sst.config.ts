/// <reference path="./.sst/platform/config.d.ts" />

// Infrastructure of fleet-auditor (SST v4), one concern per module under infra/; what differs
// between stages (subscriptions, Slack and pager, schedules, region, landscape, links) is in the
// committed stages.json (infra/stage-schema.ts), not in the deployer's shell.
// Types: `npm run typecheck` (docs/deploy.md); `test/unit/sst-wiring.test.ts` runs `run()` against stand-ins.
//
// SST refuses a config with top-level imports (its loader runs `app()` before anything is
// installed), so the infra modules are loaded inside `app()` and `run()`.

export default $config({
  async app(input) {
    const { stageProtected, stageRegion } = await import("./infra/stage-config.ts");
    const stage = input?.stage ?? "";
    // A stage whose data outlives a mistaken `sst remove`: its `protected` in stages.json.
    const protectedStage = stageProtected(stage);
    return {
      name: "fleet-auditor",
      removal: protectedStage ? "retain" : "remove",
      protect: protectedStage,
      home: "aws",
      providers: {
        aws: {
          region: stageRegion(stage) as "eu-central-1",
          defaultTags: { tags: { app: "fleet-auditor", stage } },
        },
      },
    };
  },
  async run() {
    // Before anything is declared: a deploy that would not be what the file says fails here.
    const { refuseRetiredVariables } = await import("./infra/retired-variables.ts");
    refuseRetiredVariables(process.env);
    const { stageSettings } = await import("./infra/stage-config.ts");
    const settings = stageSettings($app.stage);
    // Retained, protected, deletion-protected, point-in-time recovery, secrets kept 30 days.
    const protectedStage = settings.protected === true;

    const { alarmTo } = await import("./infra/alarms.ts");
    const { applications } = await import("./infra/applications.ts");
    const { operationsDashboard } = await import("./infra/dashboard.ts");
    const { auditFunction, auditTable, landscapeOf } = await import("./infra/audit.ts");
    const { failuresQueue } = await import("./infra/failures.ts");
    const { incidentSummaryScheduling } = await import("./infra/incident-summary.ts");
    const { pagerFunction } = await import("./infra/pager.ts");
    const { pagerDutyWebhookFunction } = await import("./infra/pagerduty-webhook.ts");
    const { auditScheduling } = await import("./infra/scheduling.ts");
    const { kebSecrets } = await import("./infra/secrets.ts");
    const { slackFunction } = await import("./infra/slack.ts");
    const { slackActionsFunction } = await import("./infra/slack-actions.ts");
    const { topics } = await import("./infra/topics.ts");

    // What every function shares, set once.
    $transform(sst.aws.Function, (args: sst.aws.FunctionArgs) => {
      args.runtime ??= "nodejs22.x";
      args.architecture ??= "arm64";
      args.logging ??= { format: "json", retention: "1 month" };
      // The functions' environments are plain objects here, never outputs.
      args.environment = {
        POWERTOOLS_SERVICE_NAME: "fleet-auditor",
        POWERTOOLS_LOG_LEVEL: "INFO",
        ...(args.environment as Record<string, $util.Input<string>> | undefined),
      };
    });

    const keb = kebSecrets(protectedStage, settings.keb);
    const table = auditTable(protectedStage);
    const t = topics(settings);
    // Alarms to Ops, each linking to its runbook entry (docs/operate.md#alarms-and-their-runbooks).
    const alarm = alarmTo(t.ops.arn, settings.docsUrl);
    const failures = failuresQueue(alarm);
    const audit = auditFunction({ table, topics: t, keb, failures, settings, alarm });
    const app = applications({ protectedStage, auditTable: table, topics: t, failures, settings, alarm });
    if (settings.slack)
      slackFunction({
        slack: settings.slack,
        incidents: t.incidents,
        auditTable: table,
        failures,
        protectedStage,
        reserveConcurrency: settings.reservedConcurrency !== false,
        alarm,
      });
    // What people do where the messages land reaches the auditor through URLs of their own.
    const inbound = {
      auditTable: table,
      landscape: landscapeOf(settings),
      incidentRetentionDays: settings.incidentRetentionDays,
      incidents: t.incidents,
      critical: t.critical,
      protectedStage,
      reserveConcurrency: settings.reservedConcurrency !== false,
      alarm,
    };
    // The bot's buttons (docs/deploy.md#slack-buttons).
    const slackActions =
      settings.slack?.way === "bot" && settings.slack.interactivity
        ? slackActionsFunction(
            { channel: settings.slack.channel, teamId: settings.slack.interactivity.teamId },
            inbound,
          )
        : undefined;
    if (settings.pagerDuty)
      pagerFunction({ critical: t.critical, auditTable: table, failures, protectedStage, alarm });
    const webhook = typeof settings.pagerDuty === "object" ? settings.pagerDuty.webhook : undefined;
    // Where PagerDuty's webhook subscription delivers (docs/deploy.md#pagerduty-webhook).
    const pagerDutyWebhookUrl = webhook ? pagerDutyWebhookFunction(webhook, inbound) : undefined;
    const schedules = auditScheduling({
      settings,
      functions: { audit, applicationsAudit: app.audit },
      alarm,
    });
    // The weekly incident summary, where the stage's incidentSummary asks for it.
    incidentSummaryScheduling({ settings, audit, dlq: schedules.dlq });

    operationsDashboard({
      region: settings.region ?? "eu-central-1",
      audits: schedules.schedules,
      applicationsQueue: app.queue.nodes.queue.name,
    });

    return {
      auditTable: table.name,
      alertTopic: t.alerts.arn,
      criticalTopic: t.critical.arn,
      incidentTopic: t.incidents.arn,
      opsTopic: t.ops.arn,
      auditFunction: audit.name,
      applicationsAuditFunction: app.audit.name,
      failuresQueue: failures.queue.url,
      scheduleDlq: schedules.dlq.url,
      statusTable: app.statusTable.name,
      applicationsQueue: app.queue.url,
      applicationsDlq: app.dlq.url,
      applicationStatusFunction: app.statusQuery.name,
      // Where each KEB secret is to be set (docs/deploy.md#secrets).
      ...(keb.managed.KEB_CLIENT_SECRET ? { kebClientSecret: keb.managed.KEB_CLIENT_SECRET.arn } : {}),
      ...(keb.managed.KEB_PASSWORD ? { kebPassword: keb.managed.KEB_PASSWORD.arn } : {}),
      ...(keb.managed.HTTPS_PROXY ? { kebHttpsProxy: keb.managed.HTTPS_PROXY.arn } : {}),
      // The Slack app's interactivity Request URL, and where its signing secret is to be set.
      ...(slackActions
        ? { slackActionsUrl: slackActions.url, slackSigningSecret: slackActions.signingSecret.arn }
        : {}),
      ...(pagerDutyWebhookUrl ? { pagerDutyWebhookUrl } : {}),
    };
  },
});
