import { pathToFileURL } from "node:url";
import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import { ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { PAGERDUTY_WEBHOOK_SECRET, pagerDutyDelivery } from "../helpers/fake-pagerduty.ts";
import { invokeInProcess } from "../helpers/function-process.ts";
import { functionUrlEvent } from "../helpers/function-url-event.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, recentHour } from "../helpers/lambda.ts";
import { useSns } from "../helpers/sns.ts";
import { sqsEvent } from "../helpers/sqs-event.ts";
import { recordSstConfig, TELLS } from "../helpers/sst-stand-ins.ts";

// An alarm on a metric nobody prints never fires: it sits in OK (missing data is "not
// breaching") or, for NotRunning, in ALARM for ever. CloudWatch matches a metric by namespace,
// name and the exact set of dimensions with their values. Here every alarm of the stack on the
// product's own namespace is held to what the bundled handlers print as EMF on a normal run.

const kit = useKebSimulator({ fleet: { size: 120, seed: 17, flagged: 12 } });
const dynamo = useDynamo(["am-audit"]);
beforeAll(() => ensureTable(dynamo.db.client, statusTableDefinition("am-status")));
const sns = useSns();
// The bundles as SST builds them, once per test run (test/setup/function-bundles.ts).
const bundles = Object.fromEntries(
  Object.entries(inject("functionBundles")).map(([n, f]) => [n, pathToFileURL(f).href]),
);

interface Emf {
  _aws: {
    CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string }> }>;
  };
  [key: string]: unknown;
}

/** Every (namespace, metric, dimensions with values) an EMF log line publishes. */
function published(logs: string): string[] {
  const blobs = logs
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("{") && l.includes('"_aws"'))
    .map((l) => JSON.parse(l) as Emf);
  return blobs.flatMap((b) =>
    b._aws.CloudWatchMetrics.flatMap((d) =>
      d.Dimensions.flatMap((set) =>
        d.Metrics.map((m) =>
          signature(d.Namespace, m.Name, Object.fromEntries(set.map((k) => [k, String(b[k])]))),
        ),
      ),
    ),
  );
}

const signature = (namespace: string, metric: string, dimensions: Record<string, unknown>): string =>
  `${namespace} ${metric} {${Object.entries(dimensions)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(", ")}}`;

describe("the stack's alarms and the metrics the handlers print", () => {
  it("every FleetAuditor alarm watches a metric, with its exact dimensions, that a bundled handler prints", async () => {
    const prod = await recordSstConfig("prod");
    // And the alarms of a stage with PagerDuty's webhook back (not in the landscape's stages).
    const webhook = await recordSstConfig("prod", {
      stages: {
        stages: { prod: { protected: true, ...TELLS, pagerDuty: { webhook: { serviceId: "PAMTEST" } } } },
      },
    });
    const alarms = [...prod.of("aws.cloudwatch.MetricAlarm"), ...webhook.of("aws.cloudwatch.MetricAlarm")]
      .filter((a) => a.args.namespace === "FleetAuditor")
      .map((a) => ({
        name: a.name,
        watches: signature(
          "FleetAuditor",
          String(a.args.metricName),
          (a.args.dimensions ?? {}) as Record<string, unknown>,
        ),
      }));
    // The audits' NotRunning, IncompleteScans and PublishFailures, the ingest's Failed, the webhook's Refused.
    expect(alarms.length).toBeGreaterThanOrEqual(10);

    const aws = {
      ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` }),
      POWERTOOLS_METRICS_DISABLED: "false",
    };
    const audits = { ...aws, AUDIT_TABLE: "am-audit", ALERT_TOPIC_ARN: sns.topicArn };
    const keb = { KEB_URL: kit.sim.url, KEB_TOKEN: "am-token" };
    const runs = await Promise.all([
      invokeInProcess(
        bundles.audit as string,
        { audit: "failing", scheduledTime: recentHour(0) },
        { ...audits, ...keb },
      ),
      invokeInProcess(
        bundles.audit as string,
        { audit: "expired", scheduledTime: recentHour(0) },
        { ...audits, ...keb },
      ),
      invokeInProcess(
        bundles["applications-audit"] as string,
        { audit: "applications", scheduledTime: recentHour(0) },
        { ...audits, STATUS_TABLE: "am-status" },
      ),
      invokeInProcess(
        bundles.applications as string,
        sqsEvent(applicationTraffic({ applications: 3, seed: 5 })),
        { ...aws, STATUS_TABLE: "am-status" },
      ),
    ]);
    // A forged PagerDuty delivery, refused (it exits 0: a 401 is an answer, not a failure).
    const forged = pagerDutyDelivery({ secrets: ["forger"] });
    runs.push(
      await invokeInProcess(bundles["pagerduty-webhook"] as string, functionUrlEvent(forged), {
        ...aws,
        PAGERDUTY_WEBHOOK_SECRET,
        PAGERDUTY_SERVICE_ID: "PAMTEST",
        AUDIT_TABLE: "am-audit",
      }),
    );
    for (const run of runs) expect(run.code, run.logs).toBe(0);
    const printed = new Set(runs.flatMap((r) => published(r.logs)));
    expect(printed.size).toBeGreaterThan(0);
    const unwatched = alarms.filter((a) => !printed.has(a.watches)).map((a) => `${a.name}: ${a.watches}`);
    expect(unwatched).toEqual([]);
  });

  it("can fail: an alarm on a dimension the handlers do not print is found", () => {
    const printed = new Set(
      published(
        JSON.stringify({
          _aws: {
            Timestamp: 0,
            CloudWatchMetrics: [
              { Namespace: "FleetAuditor", Dimensions: [["service"]], Metrics: [{ Name: "Runs" }] },
            ],
          },
          service: "audit",
          audit: "failing",
          Runs: 1,
        }),
      ),
    );
    // The alarm names {service, audit}; this line publishes Runs under {service} alone.
    expect(printed.has(signature("FleetAuditor", "Runs", { service: "audit", audit: "failing" }))).toBe(
      false,
    );
    expect(printed.has(signature("FleetAuditor", "Runs", { service: "audit" }))).toBe(true);
  });
});
