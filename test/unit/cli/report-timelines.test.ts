import type { IncidentEvent, IncidentHistory, IncidentRecord } from "@fleet-auditor/audit";
import { describe, expect, it } from "vitest";
import { REPORT_TIMELINES, reportTimelines } from "../../../packages/cli/src/report-timelines.ts";
import { manyIncidentRecords } from "../../helpers/incident-records.ts";

/** A history of the fixture's records and timelines that counts its reads and how many overlap. */
function historyOf(records: readonly IncidentRecord[], timelines: ReadonlyMap<string, IncidentEvent[]>) {
  const reads = { total: 0, inFlight: 0, mostAtOnce: 0, audits: new Set<string>() };
  const history: IncidentHistory = {
    listIncidents: async () => [...records],
    async incidentTimeline(audits, key) {
      reads.total++;
      reads.inFlight++;
      reads.mostAtOnce = Math.max(reads.mostAtOnce, reads.inFlight);
      for (const a of audits) reads.audits.add(a);
      await new Promise((resolve) => setTimeout(resolve, 1));
      reads.inFlight--;
      const record = records.find((r) => r.key === key);
      return record ? { record, events: timelines.get(key) ?? [] } : undefined;
    },
  };
  return { history, reads };
}

describe("the timelines incidents report reads for its page", () => {
  it("are those of the most recently opened incidents, at most the page's bound, a few reads at a time", async () => {
    const week = manyIncidentRecords(260, 4);
    // Oldest first: the reader sorts them itself.
    const records = [...week.records].reverse();
    const { history, reads } = historyOf(records, week.timelines);
    const read = await reportTimelines(history, records);
    expect(read.size).toBe(REPORT_TIMELINES);
    expect(reads.total).toBe(REPORT_TIMELINES);
    expect(reads.mostAtOnce).toBeGreaterThan(1);
    expect(reads.mostAtOnce).toBeLessThanOrEqual(8);
    const newest = week.records.slice(0, REPORT_TIMELINES).map((r) => r.key);
    expect([...read.keys()].sort()).toEqual([...newest].sort());
    for (const key of newest) expect(read.get(key)).toEqual(week.timelines.get(key));
  });

  it("reads every timeline of a short list, each from its own audit's records, and none of an empty one", async () => {
    const week = manyIncidentRecords(12, 2);
    const { history, reads } = historyOf(week.records, week.timelines);
    expect((await reportTimelines(history, week.records)).size).toBe(12);
    expect(reads.audits).toEqual(new Set(week.records.map((r) => r.audit)));
    expect((await reportTimelines(history, [])).size).toBe(0);
  });
});
