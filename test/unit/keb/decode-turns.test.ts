import { describe, expect, it } from "vitest";
import { DecodeTurns } from "../../../packages/keb/src/decode-turns.ts";

// The client's own pacing of page decoding (not exported): one page per turn of the event loop,
// and none ahead of the write of a request handed to undici since the turn was asked for.

/** Holds the thread as a page's decoding does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe("DecodeTurns", () => {
  it("lets waiters go in the order they came", async () => {
    const turns = new DecodeTurns();
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => turns.next().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3]);
  });

  it("lets one waiter go per turn of the event loop, so that what arrived meanwhile is read between", async () => {
    const turns = new DecodeTurns();
    const order: string[] = [];
    const first = turns.next().then(() => {
      order.push("first decoded");
      // Due by the next turn's timers phase, which comes before that turn's immediates.
      setTimeout(() => order.push("next turn began"), 0);
      busy(3);
    });
    const second = turns.next().then(() => order.push("second decoded"));
    await Promise.all([first, second]);
    expect(order).toEqual(["first decoded", "next turn began", "second decoded"]);
  });

  it("decodes after a request handed over since the turn was asked for is written", async () => {
    const turns = new DecodeTurns();
    const order: string[] = [];
    const decoded = turns.next().then(() => order.push("decoded"));
    // As a body that ends frees a slot: the next request is handed to undici, which writes it on
    // the kept-alive socket from an immediate queued behind the turn.
    turns.sending();
    setImmediate(() => order.push("written"));
    await decoded;
    expect(order).toEqual(["written", "decoded"]);
  });

  it("decodes in the next turn when nothing was sent", async () => {
    const turns = new DecodeTurns();
    const order: string[] = [];
    const decoded = turns.next().then(() => order.push("decoded"));
    setImmediate(() => order.push("queued after"));
    await decoded;
    expect(order[0]).toBe("decoded");
  });

  // A KEB that answers at once: every turn bodies end, their pages wait, and as many requests go out.
  it.each([1, 2])(
    "keeps decoding, with few pages waiting, when %i bodies end every turn",
    async (perTurn) => {
      const turns = new DecodeTurns();
      let decoded = 0;
      let mostWaiting = 0;
      let asked = 0;
      for (let turn = 0; turn < 60; turn++) {
        for (let body = 0; body < perTurn; body++) {
          asked++;
          void turns.next().then(() => decoded++);
          turns.sending();
        }
        mostWaiting = Math.max(mostWaiting, asked - decoded);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(decoded).toBeGreaterThan(asked - 12);
      expect(mostWaiting).toBeLessThanOrEqual(8 + perTurn);
    },
  );
});
