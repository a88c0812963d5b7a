import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunReport, Transition } from "@fleet-auditor/audit";
import { refusedFinding } from "@fleet-auditor/kubeedge-audit";
import { DynamoReportStore, startEmbeddedDynamo } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { spawnCli } from "../helpers/cli.ts";
import { runSummary } from "../helpers/summaries.ts";
import { t } from "../helpers/transitions.ts";

// The runs CSV keeps today's columns in today's order for the KEB audits (spreadsheets and
// scripts read them by position), then the columns added since (`inhibitedBy`), and appends a
// column for each label those columns do not hold.

const TODAY =
  "kind,severity,state,previousState,instanceID,runtimeID,shootName,globalAccountID,subAccountID,plan,region,provider,reason,since,ending,silencedBy,expiredAt,operationKind,operationID,operationState,operationDescription,inhibitedBy";

async function csvOf(audit: string, rows: RunReport["transitions"]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "fa-csv-"));
  const { transitions: _, ...summary } = runSummary({ runId: "run-csv", audit, transitions: [] });
  const db = await startEmbeddedDynamo({ dir: join(dir, "dynamodb"), tables: ["fleet-auditor"] });
  try {
    await new DynamoReportStore({ client: db.client, tableName: "fleet-auditor" }).saveReport(
      {
        runId: "run-csv",
        audit,
        runKey: "adhoc:run-csv",
        scheduledTime: null,
        startedAt: summary.startedAt,
        summary,
        transitions: rows,
      },
      2e9,
    );
  } finally {
    await db.close();
  }
  const out = await spawnCli(["runs", "show", "run-csv", "--state-dir", dir, "--output", "csv"]);
  expect(out.code, out.stderr).toBe(0);
  return out.stdout.trim().split("\r\n");
}

describe("runs show --output csv", () => {
  it("keeps today's columns, in today's order, for a KEB audit", async () => {
    const csv = await csvOf("failing", [t(1), { ...t(2), inhibitedBy: "instance-00001" }]);
    expect(csv[0]).toBe(TODAY);
    expect(csv[1]).toMatch(/^firing,critical,failed,,instance-00001,rt-instance-00001,c-0000001,/);
    expect(csv[1]?.endsWith(",")).toBe(true);
    expect(csv[2]?.endsWith(",instance-00001")).toBe(true);
  });

  it("appends the labels those columns do not hold, for an edge finding", async () => {
    const f = refusedFinding({
      node: "edge-7",
      reason: "Forbidden",
      code: 403,
      count: 6,
      requests: ["list pods"],
      keys: ["/core/v1/pods/ns-1/null"],
      firstAt: "2026-11-30T05:00:00.000Z",
      lastAt: "2026-11-30T05:10:00.000Z",
    });
    const refused: Transition = {
      kind: "firing",
      key: f.key,
      state: "refused",
      previousState: null,
      severity: f.severity,
      finding: f,
      since: "2026-11-30T05:00:00.000Z",
    };
    const csv = await csvOf("applications", [refused]);
    expect(csv[0]).toBe(`${TODAY},node,verb,resource,namespace,name,status,code`);
    expect(csv[1]?.endsWith(",edge-7,list,pods,ns-1,,,403")).toBe(true);
  });
});
