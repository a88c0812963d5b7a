import { readFileSync } from "node:fs";
import { KebSchemaError, parseRuntimesPage, RuntimeSchema } from "@fleet-auditor/keb";
import { describe, expect, it } from "vitest";

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../fixtures/keb/${name}`, import.meta.url), "utf8"));

describe("KEB response schemas", () => {
  it("accept KMC's recent runtime, keeping fields current KEB no longer sends", () => {
    const runtime = RuntimeSchema.parse(fixture("kmc-deprovisioning-runtime.json"));
    expect(runtime.status.state).toBe("deprovisioning");
    expect(runtime.servicePlanName).toBe("gcp");
    expect((runtime as Record<string, unknown>).avsInternalEvaluationID).toBe(0);
    expect((runtime.status.provisioning as Record<string, unknown>).runtimeVersion).toBe("");
  });

  it("accept KMC's 2020 page: no state, no provider, upgradingKyma, no updatedAt", () => {
    const page = parseRuntimesPage(fixture("kmc-runtimes-page1.json"));
    expect(page.totalCount).toBe(4);
    expect(page.data.map((r) => r.instanceID)).toEqual(["fooinstanceid1", "instance"]);
    expect(page.data[0]?.status.state).toBe("");
    expect(page.data[0]?.provider).toBe("");
    expect((page.data[1]?.status as Record<string, unknown> | undefined)?.upgradingKyma).toEqual({
      data: [],
      totalCount: 0,
      count: 0,
    });
  });

  it("accept update.data null, executedButNotCompletedSteps and string flags", () => {
    const page = parseRuntimesPage(fixture("deprovisionincomplete-page.json"));
    const rt = page.data[0];
    expect(rt?.status.update?.data).toBeNull();
    expect(rt?.status.update?.emptyUpdatesCount).toBe(4);
    expect(rt?.status.deprovisioning?.executedButNotCompletedSteps).toEqual(["Delete_Kyma_Resource"]);
    expect(rt?.usedForProduction).toBe("USED_FOR_PRODUCTION");
  });

  it("accept archived rows: empty state, zero times, finishedStages null", () => {
    const rt = parseRuntimesPage(fixture("archived-page.json")).data[0];
    expect(rt?.status.state).toBe("");
    expect(rt?.status.modifiedAt).toBe("0001-01-01T00:00:00Z");
    expect(rt?.status.deprovisioning?.finishedStages).toBeNull();
    expect(rt?.status.deprovisioning?.state).toBe("");
  });

  it("accept fractions of any length and numeric offsets", () => {
    const item = {
      instanceID: "x",
      status: {
        createdAt: "2024-10-30T13:07:16.309896123+02:00",
        modifiedAt: "2024-10-30T13:07:16Z",
        state: "succeeded",
      },
    };
    expect(RuntimeSchema.parse(item).status.createdAt).toBe("2024-10-30T13:07:16.309896123+02:00");
  });

  it("name the JSON path and the instance of an invalid item", () => {
    const body = {
      data: [
        { instanceID: "good", status: { createdAt: "2024-10-30T13:07:16Z" } },
        { instanceID: "bad-one", status: { createdAt: "yesterday" } },
      ],
      count: 2,
      totalCount: 2,
    };
    const err = catchError(() => parseRuntimesPage(body, 7));
    expect(err).toBeInstanceOf(KebSchemaError);
    expect(err).toMatchObject({
      code: "KEB_SCHEMA",
      path: "$.data[1].status.createdAt",
      instanceID: "bad-one",
      page: 7,
    });
    expect(err.message).toContain("page 7, instance bad-one");
  });

  it("name the envelope field when the envelope is wrong", () => {
    const err = catchError(() => parseRuntimesPage({ data: null, count: 0, totalCount: 0 }));
    expect(err).toMatchObject({ code: "KEB_SCHEMA", path: "$.data" });
    expect(catchError(() => parseRuntimesPage({ data: [], count: 0 }))).toMatchObject({
      path: "$.totalCount",
    });
  });

  it("reject an item without instanceID or status", () => {
    expect(
      catchError(() => parseRuntimesPage({ data: [{ status: {} }], count: 1, totalCount: 1 })),
    ).toMatchObject({
      path: "$.data[0].instanceID",
    });
    expect(
      catchError(() => parseRuntimesPage({ data: [{ instanceID: "i" }], count: 1, totalCount: 1 })),
    ).toMatchObject({
      path: "$.data[0].status",
      instanceID: "i",
    });
  });
});

function catchError(fn: () => unknown): KebSchemaError {
  try {
    fn();
  } catch (err) {
    return err as KebSchemaError;
  }
  throw new Error("expected an error");
}
