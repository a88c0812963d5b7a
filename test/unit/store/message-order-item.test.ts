import { orderStateOf } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";

// An order item as the adapter reads it: from the DocumentClient's plain item, or from the
// attribute values DynamoDB returns with a refused condition (`ALL_OLD`).

describe("orderStateOf", () => {
  it("reads the last applied place and the hold from a plain item and from attribute values alike", () => {
    const state = { applied: 3_529_000_000_001, heldBy: "token-1", heldUntil: 1_764_576_030_000 };
    expect(orderStateOf({ pk: "PAGER#inc", sk: "ORDER", ...state, ttl: 1 })).toEqual(state);
    expect(
      orderStateOf({
        pk: { S: "PAGER#inc" },
        applied: { N: "3529000000001" },
        heldBy: { S: "token-1" },
        heldUntil: { N: "1764576030000" },
      }),
    ).toEqual(state);
  });

  it("reads nothing it cannot take for a place or a hold: no item, a missing or mistyped attribute", () => {
    expect(orderStateOf(undefined)).toEqual({});
    expect(orderStateOf({ pk: "PAGER#inc", sk: "ORDER" })).toEqual({});
    expect(orderStateOf({ applied: "soon", heldBy: 7, heldUntil: { S: "later" } })).toEqual({});
    expect(orderStateOf({ applied: { N: "NaN" }, heldUntil: Number.POSITIVE_INFINITY })).toEqual({});
  });
});
