import { setImmediate } from "node:timers";

// A turn yields to the writes only while few pages wait: a KEB answering as fast as requests go
// out would otherwise be sent one every turn, and its pages would pile up undecoded until the end.
const YIELD_WHILE_WAITING = 8;

/**
 * Lets pages be decoded one per turn of the event loop, and not ahead of a request sent since
 * the turn was asked for (while fewer than `YIELD_WHILE_WAITING` pages wait).
 *
 * A page takes milliseconds of the one thread (decoding, parsing, validating, the caller's
 * classifying). Pages whose bodies arrive together would otherwise be decoded back to back, and
 * the answers arriving meanwhile would wait for all of them to be read. And undici writes a
 * request on a kept-alive socket from an immediate (it first lets bytes already pending on the
 * idle socket be read: GHSA-35p6-xmwp-9g52), so a decode queued before that immediate held the
 * next request back by the decode's milliseconds, every round.
 */
export class DecodeTurns {
  readonly #waiting: Array<() => void> = [];
  #scheduled = false;
  #sends = 0;
  #sendsWhenScheduled = 0;

  /** Call as a request is handed to the transport: the next decode waits until it is written. */
  sending(): void {
    this.#sends++;
  }

  /** Resolves at this caller's turn: in the next turn if nobody waits, else after those before. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#sendsWhenScheduled = this.#sends;
    setImmediate(this.#turn);
  }

  // An immediate queued while immediates run waits for the next turn, after I/O has been read,
  // and behind the immediates queued by what that I/O set off (such as undici's write).
  readonly #turn = (): void => {
    this.#scheduled = false;
    const yieldToWrites =
      this.#sends !== this.#sendsWhenScheduled && this.#waiting.length <= YIELD_WHILE_WAITING;
    if (!yieldToWrites) this.#waiting.shift()?.();
    if (this.#waiting.length > 0) this.#schedule();
  };
}
