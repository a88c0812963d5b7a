import type { SnapshotEntry } from "@fleet-auditor/audit";
import { describe, expect, it } from "vitest";
import { findingFromFlat } from "../../../packages/store/src/legacy/flat-finding.ts";
import { transitionOf } from "../../../packages/store/src/legacy/report-row.ts";
import { silenceOf } from "../../../packages/store/src/legacy/silence-item.ts";
import { snapshotEntryOf } from "../../../packages/store/src/legacy/snapshot-entry.ts";
import { finding } from "../../helpers/findings.ts";

// Records releases before 2026-12 wrote in the flat form read as today's model: an upgrade tells
// nothing by itself (the whole landscape: test/integration/use-cases/upgrade.test.ts).

const RUNTIME = {
  instanceID: "inst-1",
  runtimeID: "rt-1",
  shootName: "c-1",
  globalAccountID: "ga-1",
  subAccountID: "sa-1",
  plan: "aws",
  region: "eu-central-1",
  provider: "AWS",
  state: "failed",
  severity: "critical" as const,
  operation: {
    kind: "provision",
    operationID: "op-1",
    state: "failed",
    description: "quota exceeded",
    errorReason: "err_provisioning",
  },
};

const EDGE = {
  what: "stuck",
  node: "edge-1",
  key: "/apps/v1/deployments/default/nginx",
  verb: "get",
  resource: "deployments",
  status: "InApplying",
  since: "2026-11-30T11:00:00.000Z",
  reason: "",
};

const SILENCE = {
  id: "s-1",
  startsAt: "2026-12-01T00:00:00.000Z",
  endsAt: "2026-12-02T00:00:00.000Z",
  createdBy: "ops",
  comment: "maintenance",
};

describe("records in the flat form", () => {
  it("read a runtime written before labels with the labels the KEB audits gave it", () => {
    const f = findingFromFlat(RUNTIME);
    expect(f.labels).toEqual({
      instance: "inst-1",
      runtime: "rt-1",
      shoot: "c-1",
      account: "ga-1",
      subaccount: "sa-1",
      plan: "aws",
      region: "eu-central-1",
      provider: "AWS",
      state: "failed",
      reason: "err_provisioning",
    });
    expect(f.summary).toBe("c-1");
    expect(f.detail).toEqual({ operation: RUNTIME.operation });
  });

  it("read an edge finding written before labels by its detail: node, verb, namespace, name", () => {
    const f = findingFromFlat({
      ...RUNTIME,
      instanceID: "app:a-1",
      shootName: "get deployments",
      edge: EDGE,
    });
    expect(f).toMatchObject({
      key: "app:a-1",
      summary: "get deployments",
      startsAt: EDGE.since,
      labels: { node: "edge-1", verb: "get", namespace: "default", name: "nginx", state: "stuck" },
      detail: EDGE,
    });
  });

  it("keep the labels a record written since labels carries", () => {
    const labels = { ...finding("inst-1").labels, region: "moved" };
    expect(findingFromFlat({ ...RUNTIME, labels }).labels.region).toBe("moved");
  });

  it("read a snapshot entry of either release as today's, without the flat fields once kept beside", () => {
    const today = finding("inst-1");
    const entry: SnapshotEntry = {
      key: "inst-1",
      phase: "firing",
      finding: today,
      flaggedRuns: 1,
      clearRuns: 0,
      firstSeenAt: "2026-11-30T12:00:00.000Z",
      notifiedAt: "2026-11-30T12:00:00.000Z",
      version: 2,
    };
    const beside = { ...entry, instanceID: "inst-1", finding: { ...RUNTIME, ...today } };
    expect(snapshotEntryOf(beside)).toEqual(entry);
    const { key: _, ...rest } = entry;
    const before = snapshotEntryOf({ ...rest, instanceID: "inst-1", finding: RUNTIME });
    expect(before.key).toBe("inst-1");
    expect(before.finding.labels.reason).toBe("err_provisioning");
  });

  it("read silences of named fields as label matchers; the applications audit's region was its node", () => {
    expect(
      silenceOf({ ...SILENCE, audit: "failing", matchers: { region: "eu-1", instanceID: "i-1" } }).match,
    ).toEqual([
      { name: "region", op: "=", value: "eu-1" },
      { name: "instance", op: "=", value: "i-1" },
    ]);
    expect(silenceOf({ ...SILENCE, audit: "applications", matchers: { region: "edge-2" } }).match).toEqual([
      { name: "node", op: "=", value: "edge-2" },
    ]);
    const match = [{ name: "reason", op: "=~" as const, value: "err_.*" }];
    const both = silenceOf({ ...SILENCE, match, matchers: { instanceID: "\u0000label-matchers" } });
    expect(both).toEqual({ ...SILENCE, match });
  });

  it("read a report row as a transition, the finding before a change from its operation then", () => {
    const row = {
      ...RUNTIME,
      kind: "changed" as const,
      previousState: "error",
      since: "2026-11-30T11:00:00.000Z",
      reason: "err_provisioning",
      previousOperation: { ...RUNTIME.operation, state: "in progress", errorReason: "err_before" },
      labels: findingFromFlat(RUNTIME).labels,
    };
    const t = transitionOf(row);
    expect(t).toMatchObject({ kind: "changed", key: "inst-1", state: "failed", previousState: "error" });
    expect(t.finding.labels.reason).toBe("err_provisioning");
    expect(t.previous?.labels).toMatchObject({ state: "error", reason: "err_before" });
    expect(transitionOf(t)).toBe(t);
  });
});
