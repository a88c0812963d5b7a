import { readFileSync } from "node:fs";
import { parseRuntimesPage, RuntimeSchema } from "@fleet-auditor/keb/model";
import { expiredAudit, failingAudit, narrowedQueries } from "@fleet-auditor/keb-audits";
import { describe, expect, it } from "vitest";

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../fixtures/keb/${name}`, import.meta.url), "utf8"));
const base = (status: Record<string, unknown>) =>
  RuntimeSchema.parse({
    instanceID: "i-1",
    runtimeID: "r-1",
    servicePlanName: "trial",
    userID: "someone@example.com",
    status: { createdAt: "2026-01-01T00:00:00Z", ...status },
  });

describe("audit definitions", () => {
  it("query failing runtimes in two queries, deprovisionincomplete apart", () => {
    expect(failingAudit.queries).toEqual([
      { states: ["failed", "error"] },
      { states: ["deprovisionincomplete"] },
    ]);
    expect(expiredAudit.queries).toEqual([{ expired: true, states: ["all"] }]);
  });

  it("classify from the returned status with the default severities", () => {
    const failed = base({
      state: "failed",
      provisioning: {
        state: "failed",
        createdAt: "2026-01-01T00:00:00Z",
        error: { reason: "err_x", step: "Apply_Kyma", component: "keb" },
      },
    });
    expect(failingAudit.classify(failed)).toMatchObject({
      labels: { state: "failed", reason: "err_x" },
      severity: "critical",
      detail: {
        operation: {
          kind: "provision",
          state: "failed",
          errorReason: "err_x",
          errorStep: "Apply_Kyma",
          errorComponent: "keb",
        },
      },
    });
    expect(failingAudit.classify(base({ state: "error" }))?.severity).toBe("warning");
    expect(failingAudit.classify(base({ state: "succeeded" }))).toBeUndefined();
  });

  it("classify a runtime whose status.state is empty from its operations", () => {
    const rt = base({
      state: "",
      update: { data: [{ state: "failed", createdAt: "2026-02-01T00:00:00Z" }], count: 1, totalCount: 1 },
    });
    expect(failingAudit.classify(rt)).toMatchObject({ labels: { state: "error" }, severity: "warning" });
  });

  it("classify the reference's deprovisionincomplete runtime as a warning", () => {
    const rt = parseRuntimesPage(fixture("deprovisionincomplete-page.json")).data[0];
    expect(rt && failingAudit.classify(rt)).toMatchObject({
      labels: { state: "deprovisionincomplete" },
      severity: "warning",
      detail: { operation: { kind: "deprovision" } },
    });
  });

  it("rate expired-and-suspended as info and expired-but-not-suspended as warning", () => {
    const suspended = base({ state: "suspended", expiredAt: "2026-03-01T00:00:00Z" });
    const suspending = base({ state: "deprovisioning", expiredAt: "2026-03-01T00:00:00Z" });
    expect(expiredAudit.classify(suspended)).toMatchObject({
      severity: "info",
      detail: { expiredAt: "2026-03-01T00:00:00Z" },
    });
    expect(expiredAudit.classify(suspending)?.severity).toBe("warning");
    expect(expiredAudit.classify(base({ state: "succeeded" }))).toBeUndefined();
    expect(
      expiredAudit.classify(base({ state: "suspended", expiredAt: "0001-01-01T00:00:00Z" })),
    ).toBeUndefined();
  });

  it("never copy the user's e-mail into a finding", () => {
    const f = failingAudit.classify(base({ state: "failed" }));
    expect(JSON.stringify(f)).not.toContain("someone@example.com");
  });

  it("narrow every query of an audit with the run's filters", () => {
    expect(narrowedQueries(failingAudit, { plans: ["aws"], regions: ["eu-central-1"] })).toEqual([
      { states: ["failed", "error"], plans: ["aws"], regions: ["eu-central-1"] },
      { states: ["deprovisionincomplete"], plans: ["aws"], regions: ["eu-central-1"] },
    ]);
  });
});
