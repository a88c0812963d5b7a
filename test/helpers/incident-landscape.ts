import {
  DEFAULT_POLICY,
  DEFAULT_ROUTE,
  type DigestMessage,
  diffSnapshot,
  type Finding,
  type SnapshotEntry,
} from "@fleet-auditor/audit";
import { KEB_GROUP_BY, kebPresenter } from "@fleet-auditor/keb-audits";
import {
  MAX_NEW_INCIDENT_MESSAGES,
  renderIncidentMessages,
  renderPagerMessages,
} from "@fleet-auditor/render";
import { edited, finding } from "./findings.ts";
import { ctx } from "./transitions.ts";

// A landscape's runs as the engine sees them, without a store: each run diffs its findings
// against the snapshot, commits, and renders the incident messages it would send. What chat
// channels are tested with: one incident's firing, change, reminder and end, beside others.

const T0 = Date.parse("2026-12-01T08:00:00.000Z");

/** A KEB runtime failing in `region` for `reason`, its failing operation `op`. */
export const failing = (id: string, region: string, reason = "err_provisioning", op = "op-1"): Finding =>
  edited(finding(id, "failed", "critical", op), (_, o) => ({
    region,
    operation: { ...o, errorReason: reason },
  }));

export class Landscape {
  snapshot = new Map<string, SnapshotEntry>();
  /** One run `hour` hours after the first: the diff, its writes committed, its incident messages. */
  run(findings: Finding[], hour: number, maxNew = MAX_NEW_INCIDENT_MESSAGES): DigestMessage[] {
    const { now, transitions } = this.#diff(findings, hour, maxNew);
    return renderIncidentMessages({ ...ctx, runId: `run-${hour}`, at: now.toISOString() }, transitions);
  }

  /** One run as `run`, rendering what its pager route sends the Critical topic (the pager's messages). */
  runPager(findings: Finding[], hour: number): DigestMessage[] {
    const { now, transitions } = this.#diff(findings, hour, MAX_NEW_INCIDENT_MESSAGES);
    const onPager = transitions.map((t) => ({ ...t, incident: t.incidents?.pager }));
    return renderPagerMessages({ ...ctx, runId: `run-${hour}`, at: now.toISOString() }, onPager);
  }

  #diff(findings: Finding[], hour: number, maxNew: number) {
    const now = new Date(T0 + hour * 3_600_000);
    const diff = diffSnapshot({
      audit: "failing",
      previous: this.snapshot,
      findings,
      problemKey: kebPresenter.problemKey,
      incidents: {
        landscape: "prod-eu",
        routes: [
          {
            name: DEFAULT_ROUTE,
            receiver: "incidents",
            matchers: [],
            groupBy: KEB_GROUP_BY,
            continue: true,
            maxNew,
          },
          // A pager route by the audit's own incidents: each of them paged, as titles are tested.
          {
            name: "pager",
            receiver: "critical",
            matchers: [],
            groupBy: KEB_GROUP_BY,
            continue: true,
            maxNew,
          },
        ],
      },
      complete: true,
      now,
      policy: DEFAULT_POLICY,
    });
    for (const c of diff.changes)
      c.op === "put" ? this.snapshot.set(c.entry.key, c.entry) : this.snapshot.delete(c.key);
    return { now, transitions: diff.transitions };
  }
}
