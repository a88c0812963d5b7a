import { describe, expect, it } from "vitest";
import { PageSlots } from "../../../packages/keb/src/page-slots.ts";

// The pager's own semaphore (not exported): a page asked for again goes ahead of the pages not
// yet asked for, and such pages in the order they came, since the first one's time limit began first.

describe("PageSlots", () => {
  it("serves waits that go ahead first, in their order, then the others in theirs", async () => {
    const slots = new PageSlots(1);
    const held = await slots.acquire();
    const served: string[] = [];
    const wait = (name: string, ahead = false) =>
      slots.acquire({ ahead }).then((release) => {
        served.push(name);
        release();
      });
    const all = Promise.all([wait("first"), wait("again 1", true), wait("second"), wait("again 2", true)]);
    held();
    await all;
    expect(served).toEqual(["again 1", "again 2", "first", "second"]);
  });

  it("frees a slot once however often it is released", async () => {
    const slots = new PageSlots(1);
    const release = await slots.acquire();
    release();
    release();
    expect(slots.tryAcquire()).toBeDefined();
    expect(slots.tryAcquire()).toBeUndefined();
  });
});
