import { displayedState, lastOperation, type RuntimeStatus, RuntimeStatusSchema } from "@fleet-auditor/keb";
import { describe, expect, it } from "vitest";

const T = (n: number): string => `2026-01-0${n}T00:00:00Z`;
const op = (state: string, day: number, extra: Record<string, unknown> = {}) => ({
  state,
  createdAt: T(day),
  ...extra,
});
const list = (...ops: ReturnType<typeof op>[]) => ({ data: ops, count: ops.length, totalCount: ops.length });
const status = (fields: Record<string, unknown>): RuntimeStatus =>
  RuntimeStatusSchema.parse({ createdAt: T(1), ...fields });

describe("LastOperation()", () => {
  it("prefers the newest of unsuspension, suspension, deprovisioning and update over provisioning", () => {
    const s = status({
      provisioning: op("succeeded", 1),
      suspension: list(op("succeeded", 3)),
      update: list(op("failed", 2)),
    });
    expect(lastOperation(s)?.kind).toBe("suspension");
  });

  it("takes a cluster upgrade unconditionally, even when provisioning is newer", () => {
    const s = status({ provisioning: op("succeeded", 5), upgradingCluster: list(op("in progress", 2)) });
    expect(lastOperation(s)?.kind).toBe("cluster upgrade");
  });

  it("needs a strictly newer time to replace the pick", () => {
    const s = status({ provisioning: op("succeeded", 2), update: list(op("failed", 2)) });
    expect(lastOperation(s)?.kind).toBe("provision");
  });

  it("ignores lists whose count is 0, such as update.data null", () => {
    const s = status({
      provisioning: op("succeeded", 1),
      update: { data: null, count: 0, totalCount: 0, emptyUpdatesCount: 3 },
    });
    expect(lastOperation(s)?.kind).toBe("provision");
  });

  it("returns nothing without operations", () => {
    expect(lastOperation(status({}))).toBeUndefined();
    expect(displayedState(status({}))).toBe("");
  });
});

describe("the displayed state", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["succeeded provision", { provisioning: op("succeeded", 1) }, "succeeded"],
    ["failed provision", { provisioning: op("failed", 1) }, "failed"],
    ["failed update", { provisioning: op("succeeded", 1), update: list(op("failed", 2)) }, "error"],
    [
      "failed cluster upgrade",
      { provisioning: op("succeeded", 1), upgradingCluster: list(op("failed", 2)) },
      "error",
    ],
    ["failed deprovision", { provisioning: op("succeeded", 1), deprovisioning: op("failed", 2) }, "failed"],
    [
      "failed unsuspension",
      { provisioning: op("succeeded", 1), unsuspension: list(op("failed", 2)) },
      "failed",
    ],
    ["provision in progress", { provisioning: op("in progress", 1) }, "provisioning"],
    [
      "unsuspension in progress",
      { provisioning: op("succeeded", 1), unsuspension: list(op("in progress", 2)) },
      "provisioning",
    ],
    [
      "deprovision in progress",
      { provisioning: op("succeeded", 1), deprovisioning: op("in progress", 2) },
      "deprovisioning",
    ],
    [
      "cluster upgrade in progress",
      { provisioning: op("succeeded", 1), upgradingCluster: list(op("in progress", 2)) },
      "upgrading",
    ],
    [
      "update in progress",
      { provisioning: op("succeeded", 1), update: list(op("in progress", 2)) },
      "updating",
    ],
    [
      "pending update (default branch)",
      { provisioning: op("succeeded", 1), update: list(op("pending", 2)) },
      "succeeded",
    ],
    [
      "deprovision succeeded",
      { provisioning: op("succeeded", 1), deprovisioning: op("succeeded", 2) },
      "deprovisioned",
    ],
    [
      "deprovision succeeded with steps left",
      {
        provisioning: op("succeeded", 1),
        deprovisioning: op("succeeded", 2, { executedButNotCompletedSteps: ["Delete_Kyma_Resource"] }),
      },
      "deprovisionincomplete",
    ],
    [
      "suspension succeeded",
      { provisioning: op("succeeded", 1), suspension: list(op("succeeded", 2)) },
      "suspended",
    ],
    [
      "suspension in progress",
      { provisioning: op("succeeded", 1), suspension: list(op("in progress", 2)) },
      "deprovisioning",
    ],
    ["suspension failed", { provisioning: op("succeeded", 1), suspension: list(op("failed", 2)) }, "failed"],
    [
      "suspension overrides a later successful update",
      {
        provisioning: op("succeeded", 1),
        suspension: list(op("succeeded", 2)),
        update: list(op("succeeded", 3)),
      },
      "suspended",
    ],
    [
      "unsuspension after suspension",
      {
        provisioning: op("succeeded", 1),
        suspension: list(op("succeeded", 2)),
        unsuspension: list(op("succeeded", 3)),
      },
      "succeeded",
    ],
  ];
  it.each(cases)("%s", (_name, fields, expected) => {
    expect(displayedState(status(fields))).toBe(expected);
  });
});
