import type { TransitionSummary } from "@fleet-auditor/audit";
import { describe, expect, it } from "vitest";
import { renderSummary } from "../../../packages/cli/src/summary-table.ts";
import { runSummary } from "../../helpers/summaries.ts";

// The run summary as `fleet-auditor run` prints it for a person: an inhibited transition says
// what held it back, and the head counts them.

const firing = (instanceID: string, over: Partial<TransitionSummary> = {}): TransitionSummary => ({
  kind: "firing",
  instanceID,
  state: "stuck",
  previousState: null,
  severity: "warning",
  ...over,
});

describe("the run summary table", () => {
  it("shows what held each inhibited transition back, and counts them in its head", () => {
    const text = renderSummary(
      runSummary({
        audit: "applications",
        transitions: [
          firing("refusals:edge-1:403:Forbidden", { state: "refused" }),
          firing("app:a", { inhibitedBy: "refusals:edge-1:403:Forbidden" }),
        ],
        notified: { messages: 1, transitions: 1, failed: 0, suppressed: 0, inhibited: 1 },
      }),
    );
    expect(text).toContain("1 message(s) sent, 1 inhibited,");
    const lines = text.split("\n");
    expect(lines.find((l) => l.startsWith("KIND"))).toMatch(/SILENCED BY\s+INHIBITED BY$/);
    expect(lines.find((l) => l.includes("app:a"))).toMatch(/-\s+refusals:edge-1:403:Forbidden$/);
  });

  it("keeps its columns as they were in a run nothing was inhibited in", () => {
    const text = renderSummary(runSummary({ transitions: [firing("app:a")] }));
    expect(text).not.toContain("INHIBITED");
    expect(text).not.toContain("inhibited");
    expect(text.split("\n").find((l) => l.startsWith("KIND"))).toMatch(/SILENCED BY$/);
  });
});
