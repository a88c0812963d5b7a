import { fromIndex, fromIndexes } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";

// What DynamoDB answers for an index that cannot be read yet; DynamoDB Local builds an index at
// once, so the backfilling answer is only met on AWS.
const refusal = (message: string) => Object.assign(new Error(message), { name: "ValidationException" });

describe("fromIndex", () => {
  const readFrom = (fail: Error) => async (index: string) => {
    if (index === "byNodeId") throw fail;
    return `read ${index}`;
  };

  it("reads the retiring index while the new one is missing or backfilling", async () => {
    for (const message of [
      "The table does not have the specified index: byNodeId",
      "Cannot read from backfilling global secondary index: byNodeId",
    ])
      expect(await fromIndex("byNodeId", "byNode", readFrom(refusal(message)))).toBe("read byNode");
  });

  it("lets every other failure through, even one that names the index", async () => {
    for (const fail of [
      refusal("The table does not have the specified index: byQuarantineCode"),
      refusal("Query condition missed key schema element: node; IndexName: byNodeId"),
      Object.assign(new Error("The table does not have the specified index: byNodeId"), {
        name: "ResourceNotFoundException",
      }),
    ])
      await expect(fromIndex("byNodeId", "byNode", readFrom(fail))).rejects.toBe(fail);
  });

  it("reads the new index alone when it answers", async () => {
    expect(await fromIndex("byWatch", "byNode", readFrom(refusal("unused")))).toBe("read byWatch");
  });
});

describe("fromIndexes", () => {
  const missing = (index: string) => refusal(`The table does not have the specified index: ${index}`);
  const tables = (has: string[]) => async (index: string) => {
    if (!has.includes(index)) throw missing(index);
    return `read ${index}`;
  };
  const scan = async () => "scanned";

  it("reads the first index the table can read, in order, and scans only when it can read none", async () => {
    expect(await fromIndexes(["byNodeId", "byNode"], tables(["byNodeId", "byNode"]), scan)).toBe(
      "read byNodeId",
    );
    expect(await fromIndexes(["byNodeId", "byNode"], tables(["byNode"]), scan)).toBe("read byNode");
    expect(await fromIndexes(["byNodeId", "byNode"], tables([]), scan)).toBe("scanned");
  });

  it("fails with a read's own error rather than move on", async () => {
    const throttled = Object.assign(new Error("slow down"), { name: "ThrottlingException" });
    const read = async (index: string) => {
      if (index === "byNodeId") throw missing(index);
      throw throttled;
    };
    await expect(fromIndexes(["byNodeId", "byNode"], read, scan)).rejects.toBe(throttled);
  });
});
