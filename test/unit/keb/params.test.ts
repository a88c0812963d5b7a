import { filterQuery, KebConfigError, pageQuery } from "@fleet-auditor/keb";
import { describe, expect, it } from "vitest";

describe("query strings for GET /runtimes", () => {
  it("repeats a key for each value and never joins values with commas", () => {
    const q = filterQuery({ states: ["failed", "error"], plans: ["azure", "aws"] });
    expect(q).toBe("plan=azure&plan=aws&state=failed&state=error");
    expect(q).not.toContain("%2C");
  });

  it("maps every filter to the key KEB reads", () => {
    const q = new URLSearchParams(
      filterQuery({
        globalAccountIDs: ["ga"],
        subAccountIDs: ["sa"],
        instanceIDs: ["i1", "i2"],
        runtimeIDs: ["r"],
        regions: ["westeurope"],
        shoots: ["c-1a2b3c4"],
        plans: ["trial"],
        states: ["suspended"],
        expired: true,
      }),
    );
    expect(q.getAll("account")).toEqual(["ga"]);
    expect(q.getAll("subaccount")).toEqual(["sa"]);
    expect(q.getAll("instance_id")).toEqual(["i1", "i2"]);
    expect(q.getAll("runtime_id")).toEqual(["r"]);
    expect(q.getAll("region")).toEqual(["westeurope"]);
    expect(q.getAll("shoot")).toEqual(["c-1a2b3c4"]);
    expect(q.getAll("plan")).toEqual(["trial"]);
    expect(q.getAll("state")).toEqual(["suspended"]);
    expect(q.get("expired")).toBe("true");
  });

  it("sends boolean flags only when true", () => {
    expect(filterQuery({ expired: false })).toBe("");
    expect(pageQuery({ kymaConfig: false, clusterConfig: false })).toBe("page=1&page_size=100");
    expect(pageQuery({ kymaConfig: true, clusterConfig: true })).toBe(
      "page=1&page_size=100&kyma_config=true&cluster_config=true",
    );
  });

  it("always sends a 1-based page and a page_size of at most 100, and op_detail when set", () => {
    expect(pageQuery({ page: 3, pageSize: 50, operationDetail: "last" })).toBe(
      "page=3&page_size=50&op_detail=last",
    );
    expect(() => pageQuery({ page: 0 })).toThrow(KebConfigError);
    expect(() => pageQuery({ pageSize: 101 })).toThrow(/page_size must be an integer from 1 to 100/);
    expect(() => pageQuery({ pageSize: 2.5 })).toThrow(KebConfigError);
  });

  it("refuses a comma-joined or unknown state, which KEB would silently ignore", () => {
    // Cast: the type already forbids it, but config files and CLI flags are untyped.
    expect(() => filterQuery({ states: ["failed,error" as "failed"] })).toThrow(
      /unknown state "failed,error"/,
    );
    expect(() => filterQuery({ states: ["Failed" as "failed"] })).toThrow(KebConfigError);
  });

  it("refuses shoot values that would be live regex syntax in KEB's shoot filter", () => {
    expect(() => filterQuery({ shoots: ["c-.*"] })).toThrow(/not a shoot name/);
  });

  it("refuses empty filter values", () => {
    expect(() => filterQuery({ plans: [""] })).toThrow(/plans: empty value/);
  });
});
