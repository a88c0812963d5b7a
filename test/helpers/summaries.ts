import type { RunSummary } from "@fleet-auditor/audit";

/** A plain completed run summary for store tests; fields as given override it. */
export function runSummary(over: Partial<RunSummary> = {}): RunSummary {
  return {
    audit: "failing",
    runId: "r1",
    scheduledTime: "2026-11-01T00:00:00Z",
    dryRun: false,
    status: "completed",
    complete: true,
    incompleteReason: null,
    queries: [],
    flagged: 0,
    transitions: [],
    notified: { messages: 0, transitions: 0, failed: 0, suppressed: 0 },
    writes: { snapshot: 0, deleted: 0 },
    startedAt: "2026-11-01T00:00:00Z",
    durationMs: 1,
    ...over,
  };
}
