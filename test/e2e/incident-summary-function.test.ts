import { pathToFileURL } from "node:url";
import { SUMMARY_V1, SummaryV1Schema } from "@fleet-auditor/render";
import { DynamoIncidentHistory, documentClient } from "@fleet-auditor/store";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { invokeInProcess } from "../helpers/function-process.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv } from "../helpers/lambda.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";

// The incident summary through the Audit function as it is deployed (bundled as SST bundles it,
// each invocation a process of its own): the console event returns the window's statistics of
// what a real run wrote, and the weekly schedule's event publishes them to the alerts topic
// (fauxqs behind SNS's rules), whose subscriber gets the e-mail, Chatbot and structured variants.

const kit = useKebSimulator({ fleet: { size: 120, seed: 41, flagged: 12 } });
const dynamo = useDynamo(["summary-fn"]);
const sns = useSns();
const audit = pathToFileURL(inject("functionBundles").audit as string).href;
let alerts: () => Promise<Delivered[]>;

const env = () => ({
  ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` }),
  KEB_URL: kit.sim.url,
  KEB_TOKEN: "summary-token",
  AUDIT_TABLE: "summary-fn",
  ALERT_TOPIC_ARN: sns.topicArn,
  LANDSCAPE: "e2e",
});
const invoke = (event: unknown) => invokeInProcess(audit, event, env());

beforeAll(async () => {
  alerts = await sns.subscriber("summary-fn-alerts");
  // A run from the console: its incidents' history is written with its commit.
  const run = await invoke({ audit: "failing" });
  expect(run.result).toMatchObject({ audit: "failing", complete: true });
  await alerts();
}, 60_000);

/** The incidents the run opened, as the history keeps them: what a hand count of the summary gives. */
async function recorded(): Promise<number> {
  const history = new DynamoIncidentHistory({
    client: documentClient(dynamo.db.client),
    tableName: "summary-fn",
  });
  return (await history.listIncidents(["failing"], { open: true })).length;
}

describe("the Audit function's incident summary", () => {
  it("answers the console event with the window's statistics, publishing nothing", async () => {
    const opened = await recorded();
    expect(opened).toBeGreaterThan(0);
    const { result } = await invoke({ report: { since: "7d" } });
    expect(result).toMatchObject({
      window: "7d",
      audits: ["failing", "expired", "applications"],
      opened,
      ended: 0,
      open: opened,
      timeToResolve: { count: 0 },
      byAudit: [{ value: "failing", opened, ended: 0 }],
    });
    expect((result as { published?: unknown }).published).toBeUndefined();
    expect(await alerts()).toEqual([]);
  }, 60_000);

  it("publishes the scheduled summary to the alerts topic, in every variant, for the week ending at the schedule's time", async () => {
    const opened = await recorded();
    const until = new Date(Date.now() + 60_000).toISOString();
    const { result } = await invoke({ report: { since: "7d", publish: true, until } });
    const subject = `${opened} incidents opened, ${opened} still open | e2e | summary of 7d [fleet-auditor]`;
    expect(result).toMatchObject({ until, opened, published: { subject, messageId: expect.any(String) } });
    const [delivered, ...more] = await alerts();
    expect(more).toEqual([]);
    expect(delivered?.Subject).toBe(subject);
    expect(delivered?.MessageAttributes?.format?.Value).toBe("summary");
    const bodies = JSON.parse(delivered?.Message ?? "{}") as {
      default: string;
      email: string;
      https: string;
    };
    expect(SummaryV1Schema.parse(JSON.parse(bodies.default))).toMatchObject({
      schema: SUMMARY_V1,
      landscape: "e2e",
      until,
      opened,
      open: opened,
    });
    expect(bodies.email.split("\n")[0]).toBe(
      `fleet-auditor [e2e] incidents of the last 7d: ${opened} incidents opened, ${opened} still open.`,
    );
    expect(bodies.email).toContain(
      "As a page: AWS_REGION=us-east-1 AUDIT_TABLE=summary-fn fleet-auditor incidents report --since 7d -o html > report.html",
    );
    expect(JSON.parse(bodies.https)).toMatchObject({ version: "1.0", source: "custom" });
  }, 60_000);

  it("refuses a window it cannot count, naming the field, and publishes nothing", async () => {
    for (const [since, problem] of [
      ["7 days", 'report.since: expected a duration such as "7d", "24h" or "90m"'],
      ["365d", "report.since: 365d is longer than the 90 days incident records are kept"],
    ]) {
      const { result, code } = await invoke({ report: { since, publish: true } });
      expect(code).toBe(1);
      expect((result as { error: string }).error).toContain(problem);
    }
    expect(await alerts()).toEqual([]);
  }, 60_000);
});
