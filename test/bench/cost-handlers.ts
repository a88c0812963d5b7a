import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import { auditTableDefinition, ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import type { Context } from "aws-lambda";
import { fakeContext, withEnv } from "../helpers/lambda.ts";
import { forLambda, snsEvent } from "../helpers/sns-event.ts";
import { sqsEvent } from "../helpers/sqs-event.ts";
import type { CostStack } from "./cost-measure.ts";

/** What one invocation printed: its bytes and lines (CloudWatch Logs bills both) and its EMF. */
interface Printed {
  bytes: number;
  lines: number;
  /** Every custom metric it published: `namespace metric {dimension=value, …}`. */
  metrics: string[];
}

/** What each handler printed per invocation, by name. */
export type HandlerOutput = Record<string, Printed>;

type Handler = (event: unknown, context: Context) => Promise<unknown>;

/** Every (namespace, metric, dimension set with values) an EMF line publishes: one custom metric each. */
function emfMetrics(line: string): string[] {
  if (!line.startsWith("{") || !line.includes('"_aws"')) return [];
  const emf = JSON.parse(line) as {
    _aws: {
      CloudWatchMetrics: Array<{
        Namespace: string;
        Dimensions: string[][];
        Metrics: Array<{ Name: string }>;
      }>;
    };
    [key: string]: unknown;
  };
  return emf._aws.CloudWatchMetrics.flatMap((d) =>
    d.Dimensions.flatMap((set) =>
      d.Metrics.map(
        (m) =>
          `${d.Namespace} ${m.Name} {${[...set]
            .sort()
            .map((k) => `${k}=${String(emf[k])}`)
            .join(", ")}}`,
      ),
    ),
  );
}

/** Runs `invoke` with stdout and stderr captured; what it printed. */
async function printedBy(invoke: () => Promise<unknown>): Promise<Printed> {
  const chunks: string[] = [];
  const [out, err] = [process.stdout.write, process.stderr.write];
  const keep = ((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = keep;
  process.stderr.write = keep;
  try {
    await invoke();
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  const lines = chunks
    .join("")
    .split("\n")
    .filter((l) => l.trim() !== "");
  return {
    bytes: lines.reduce((n, l) => n + Buffer.byteLength(l), 0),
    lines: lines.length,
    metrics: lines.flatMap((l) => emfMetrics(l.trim())),
  };
}

/** A loopback server that answers every request as Slack's webhook and PagerDuty's Events API do. */
async function acceptingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const pager = req.url?.includes("enqueue");
      res.writeHead(pager ? 202 : 200, { "content-type": pager ? "application/json" : "text/plain" });
      res.end(
        pager ? JSON.stringify({ status: "success", message: "Event processed", dedup_key: "k" }) : "ok",
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/**
 * The functions as deployed (`functions/*.ts`, imported in this process with a stage's
 * variables, Powertools logging at INFO and metrics on), each invoked as its trigger would:
 * the audit function's first and steady runs of both KEB audits, the applications audit, a
 * batch of `batch` Application messages, and the Slack and pager functions with a message of the
 * topics they subscribe to (taken from `samples`, what the audits published). Returns what each
 * invocation printed.
 */
export async function runHandlers(
  stack: CostStack,
  p: { batch: number; scheduledTime: () => string; samples: Record<string, string> },
): Promise<HandlerOutput> {
  const accessKeyId = `${stack.accessKeyId}fn`;
  const raw = new DynamoDBClient({
    endpoint: stack.dynamoEndpoint,
    region: "us-east-1",
    credentials: { accessKeyId, secretAccessKey: "cost" },
  });
  await ensureTable(raw, auditTableDefinition("cost-fn-audit"));
  await ensureTable(raw, statusTableDefinition("cost-fn-status"));
  raw.destroy();
  const outside = await acceptingServer();
  const restore = withEnv({
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: "cost",
    AWS_ENDPOINT_URL_DYNAMODB: stack.dynamoEndpoint,
    AWS_ENDPOINT_URL_SNS: stack.snsEndpoint,
    AUDIT_TABLE: "cost-fn-audit",
    STATUS_TABLE: "cost-fn-status",
    ALERT_TOPIC_ARN: stack.topics.alerts,
    CRITICAL_TOPIC_ARN: stack.topics.critical,
    INCIDENT_TOPIC_ARN: stack.topics.incidents,
    LEASE_MINUTES: "6",
    LANDSCAPE: "cost",
    KEB_URL: stack.kebUrl,
    KEB_TOKEN: "cost",
    SLACK_WEBHOOK_URL: `${outside.url}/services/T0/B0/x`,
    PAGERDUTY_ROUTING_KEY: "R0123456789abcdef0123456789abcde",
    PAGERDUTY_EVENTS_URL: `${outside.url}/v2/enqueue`,
    POWERTOOLS_SERVICE_NAME: "fleet-auditor",
    POWERTOOLS_LOG_LEVEL: "INFO",
    POWERTOOLS_METRICS_DISABLED: "false",
  });
  try {
    const load = async (name: string): Promise<Handler> =>
      ((await import(`../../functions/${name}.ts`)) as { handler: Handler }).handler;
    const [audit, appsAudit, apps, slack, pager] = (await Promise.all(
      ["audit", "applications-audit", "applications", "slack", "pager"].map(load),
    )) as [Handler, Handler, Handler, Handler, Handler];
    const out: HandlerOutput = {};
    const call = (h: Handler, event: unknown, fn: string) => printedBy(() => h(event, fakeContext(fn)));
    for (const a of ["failing", "expired"]) {
      out[`${a} first run`] = await call(audit, { audit: a, scheduledTime: p.scheduledTime() }, "audit");
      out[`${a} steady run`] = await call(audit, { audit: a, scheduledTime: p.scheduledTime() }, "audit");
    }
    await call(appsAudit, { audit: "applications", scheduledTime: p.scheduledTime() }, "applications-audit");
    out["applications steady run"] = await call(
      appsAudit,
      { audit: "applications", scheduledTime: p.scheduledTime() },
      "applications-audit",
    );
    const messages = applicationTraffic({
      applications: p.batch / 2,
      seed: 23,
      distinct: true,
      start: Date.now() - 600_000,
    });
    out["Application batch"] = await call(apps, sqsEvent(messages), "applications");
    const incident = p.samples[stack.topics.incidents.split(":").pop() as string];
    const critical = p.samples[stack.topics.critical.split(":").pop() as string];
    if (incident)
      out["Slack delivery"] = await call(slack, snsEvent([forLambda(incident)], "Incidents"), "slack");
    if (critical)
      out["pager delivery"] = await call(pager, snsEvent([forLambda(critical)], "Critical"), "pager");
    return out;
  } finally {
    restore();
    await outside.close();
  }
}
