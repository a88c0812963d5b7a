import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import { decodeMessage } from "@fleet-auditor/metaserver";
import { describe, expect, it } from "vitest";

describe("applicationTraffic", () => {
  it("gives every Application its own ID with distinct, and sometimes shared IDs without", () => {
    const ids = (distinct: boolean) =>
      new Set(
        applicationTraffic({ applications: 300, nodes: 3, seed: 4, distinct }).map(
          (b) => decodeMessage(b).applications[0]?.id,
        ),
      ).size;
    expect(ids(true)).toBe(300);
    expect(ids(false)).toBeLessThan(300);
  });

  it("pairs each request with a later response that names it as parent", () => {
    const [req, resp] = applicationTraffic({ applications: 1, seed: 9 }).map(decodeMessage);
    expect(req?.kind).toBe("request");
    expect(resp).toMatchObject({ kind: "response", parentMsgId: req?.msgId });
    expect((resp?.timestamp ?? 0) > (req?.timestamp ?? 0)).toBe(true);
  });
});
