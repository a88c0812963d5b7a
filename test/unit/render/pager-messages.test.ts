import {
  DEFAULT_POLICY,
  type DigestContext,
  diffSnapshot,
  type Finding,
  KEB_GROUP_BY,
  kebPresenter,
  type Silence,
  type SnapshotEntry,
} from "@fleet-auditor/audit";
import { renderPagerMessages } from "@fleet-auditor/render";
import { expect, it } from "vitest";
import { edited, finding } from "../../helpers/findings.ts";

// The pager and silences where they meet (docs/notifications.md, "The pager"): a silence that
// began after a member's news was told does not hold back the pager's start when it turns
// critical. The end of a silenced incident is the use cases' test (run-audit.test.ts).

const T0 = Date.parse("2026-12-01T08:00:00.000Z");
const at = (m: number) => new Date(T0 + m * 60_000);

function run(
  snapshot: Map<string, SnapshotEntry>,
  findings: Finding[],
  minute: number,
  silences: Silence[] = [],
) {
  const result = diffSnapshot({
    silences,
    audit: "failing",
    previous: snapshot,
    findings,
    problemKey: kebPresenter.problemKey,
    incidents: { landscape: "prod", groupBy: KEB_GROUP_BY },
    complete: true,
    now: at(minute),
    policy: DEFAULT_POLICY,
  });
  const next = new Map(snapshot);
  for (const c of result.changes) c.op === "put" ? next.set(c.entry.key, c.entry) : next.delete(c.key);
  return { result, next };
}

it("pages a member told as a warning before its silence that turns critical while silenced", () => {
  const opened = run(new Map(), [{ ...finding("a"), severity: "warning" }], 0);
  const silence: Silence = {
    id: "s",
    match: [{ name: "instance", op: "=", value: "a" }],
    matchers: {},
    startsAt: at(1).toISOString(),
    endsAt: at(100).toISOString(),
    createdBy: "ops",
    comment: "maintenance on a",
  };
  const worse = edited(finding("a"), (_, op) => ({ operation: { ...op, operationID: "op-2" } }));
  const r = run(opened.next, [worse], 10, [silence]);
  expect(r.result.transitions).toMatchObject([
    { kind: "changed", silencedBy: "s", incident: { pager: "trigger" } },
  ]);
  const ctx = {
    audit: "failing",
    groupBy: KEB_GROUP_BY,
    presenter: kebPresenter,
    runId: "r",
    at: at(10).toISOString(),
    complete: true,
    incompleteReason: null,
    listed: 1,
    flagged: 1,
    report: { stored: true, command: "x" },
  } as unknown as DigestContext;
  const paged = renderPagerMessages(ctx, r.result.transitions).map(
    (m) => (JSON.parse(JSON.parse(m.message).default) as { incident?: { status: string } }).incident?.status,
  );
  expect(paged).toEqual(["firing"]);
});
