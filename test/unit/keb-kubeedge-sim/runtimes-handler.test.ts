import { answerText, Fleet, RuntimesHandler } from "@fleet-auditor/keb-kubeedge-sim";
import { describe, expect, it } from "vitest";

// The simulator keeps each answer's bytes, so that serving a page again costs it next to nothing:
// what it serves must still be what `handle` answers now.

const query = (text: string) => new URLSearchParams(text);
const json = (bytes: Buffer) => JSON.parse(bytes.toString("utf8")) as { data: Array<{ instanceID: string }> };

describe("RuntimesHandler.bytes", () => {
  it("is handle's answer as bytes, the same bytes for the same query", () => {
    const handler = new RuntimesHandler(Fleet.generate({ size: 250, seed: 3 }));
    const q = query("state=all&page=2&page_size=100");
    const first = handler.bytes(q);
    expect(first.status).toBe(200);
    expect(first.body.toString("utf8")).toBe(answerText(handler.handle(q)));
    expect(handler.bytes(query("state=all&page=2&page_size=100")).body).toBe(first.body);
  });

  it("answers anew once the fleet changed", () => {
    const fleet = Fleet.generate({ size: 250, seed: 3 });
    const handler = new RuntimesHandler(fleet);
    const q = query("state=all&page=1&page_size=100");
    const before = json(handler.bytes(q).body).data[0]?.instanceID;
    expect(before).toBeDefined();
    fleet.delete(before as string);
    const after = json(handler.bytes(q).body).data.map((r) => r.instanceID);
    expect(after).not.toContain(before);
    expect(after).toEqual(
      fleet
        .all()
        .slice(0, 100)
        .map((i) => i.instanceID),
    );
  });

  it("does not keep an error answer", () => {
    const handler = new RuntimesHandler(Fleet.generate({ size: 10, seed: 3 }));
    const bad = handler.bytes(query("page=0"));
    expect(bad.status).toBe(400);
    expect(handler.bytes(query("page=0")).body).not.toBe(bad.body);
  });
});
