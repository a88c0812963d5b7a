import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import type { RunReport, Transition } from "@fleet-auditor/audit";
import { DynamoReportStore, packParts, ReportIncompleteError } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";
import { edited, finding } from "../../helpers/findings.ts";

const env = useDynamo(["reports"]);
const store = () => new DynamoReportStore({ client: env.db.client, tableName: "reports" });

function row(i: number): Transition {
  const id = `${i.toString(16).padStart(8, "0")}-4b1c-4a7e-9d2f-${i.toString(16).padStart(12, "0")}`;
  const f = edited(finding(id), () => ({
    runtimeID: `rt-${i}`,
    shootName: `c-${i.toString(16).padStart(7, "0")}`,
    globalAccountID: `ga-${i % 400}`,
    plan: i % 5 === 0 ? "trial" : "aws",
    region: ["eu-central-1", "westeurope", "us-east-1"][i % 3] as string,
    operation: {
      kind: "provision",
      operationID: `op-${i}`,
      state: "failed",
      description: `Operation failed: step create_runtime_resource: quota exceeded for runtime ${i}`,
      errorReason: "err_provisioning",
    },
  }));
  return {
    kind: i % 10 === 0 ? "resolved" : "firing",
    key: id,
    state: "failed",
    previousState: null,
    severity: "critical",
    finding: f,
    since: "2026-11-30T05:00:00.000Z",
  };
}

function report(runId: string, n: number): RunReport {
  return {
    runId,
    audit: "failing",
    runKey: "sched:2026-11-30T06:00:00.000Z",
    scheduledTime: "2026-11-30T06:00:00.000Z",
    startedAt: "2026-11-30T06:00:01.000Z",
    landscape: "prod-eu",
    summary: {
      audit: "failing",
      runId,
      scheduledTime: "2026-11-30T06:00:00.000Z",
      dryRun: false,
      status: "completed",
      complete: true,
      incompleteReason: null,
      queries: [],
      flagged: n,
      notified: { messages: 1, transitions: n, failed: 0, suppressed: 0 },
      writes: { snapshot: 0, deleted: 0 },
      startedAt: "2026-11-30T06:00:01.000Z",
      durationMs: 1,
    },
    transitions: Array.from({ length: n }, (_, i) => row(i)),
  };
}

// 40,000 transitions are 20 parts and 1.5 MB, so a report is read back over more than one of
// DynamoDB's 1 MB query pages; `npm run test:soak` packs 100,000 (50 parts, written in two
// BatchWriteItem calls; batchWrite's own split is held by the snapshot store's tests). 100,000
// cost `npm test` about 5 s of CPU a project for nothing the smaller report does not show.
const TRANSITIONS = process.env.FLEET_AUDITOR_SOAK === "1" ? 100_000 : 40_000;

describe("DynamoReportStore on a real DynamoDB API (dynalite, or DynamoDB Local in its project)", () => {
  it(`keeps ${TRANSITIONS.toLocaleString("en")} transitions in parts under 400 KB and reads every one back`, async () => {
    const big = report("run-big", TRANSITIONS);
    const parts = packParts(big.transitions);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p.byteLength).toBeLessThan(350_000);
    // More than one query page to read back (DynamoDB returns at most 1 MB a page).
    expect(parts.reduce((n, p) => n + p.byteLength, 0)).toBeGreaterThan(1_048_576);
    await store().saveReport(big, 2_000_000_000);
    const back = await store().loadReport("run-big");
    expect(back?.transitions).toHaveLength(TRANSITIONS);
    expect(back?.transitions.at(-1)).toEqual(big.transitions.at(-1));
    expect(back?.transitions.map((t) => t.key)).toEqual(big.transitions.map((t) => t.key));
    expect(back?.summary).toEqual(big.summary);
  }, 60_000); // a hang guard: the transitions packed and read back take seconds, more under load

  it("finds nothing for an unknown run, and refuses a report that lost a part", async () => {
    expect(await store().loadReport("nope")).toBeUndefined();
    await store().saveReport(report("run-small", 3), 2_000_000_000);
    expect((await store().loadReport("run-small"))?.transitions).toHaveLength(3);
    await env.db.client.send(
      new DeleteCommand({ TableName: "reports", Key: { pk: "REPORT#run-small", sk: "PART#00001" } }),
    );
    await expect(store().loadReport("run-small")).rejects.toBeInstanceOf(ReportIncompleteError);
  });
});
