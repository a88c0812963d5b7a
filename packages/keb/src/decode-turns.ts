import { setImmediate } from "node:timers";

// At most this many pages wait to be decoded: past it a turn decodes down to it whatever was sent.
// A KEB answering at once ends bodies faster than one page a turn is decoded, and pages would
// otherwise pile up undecoded (a listing of 150 held ~75); while few wait, the writes go first.
const MOST_WAITING = 8;

/**
 * Lets pages be decoded one per turn of the event loop, and not ahead of a request sent since
 * the turn was asked for (while at most `MOST_WAITING` pages wait).
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
  #sentSinceScheduled = false;

  /** Call as a request is handed to the transport: the next decode waits until it is written. */
  sending(): void {
    this.#sentSinceScheduled = true;
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
    this.#sentSinceScheduled = false;
    setImmediate(this.#turn);
  }

  // An immediate queued while immediates run waits for the next turn, after I/O has been read;
  // but it runs ahead of the immediates that I/O sets off (undici's write among them), so a turn
  // asked for before a request was sent yields to it by asking again.
  readonly #turn = (): void => {
    this.#scheduled = false;
    // One page, none if a request was sent meanwhile; and as many as are past the most waiting.
    const decode = Math.max(this.#sentSinceScheduled ? 0 : 1, this.#waiting.length - MOST_WAITING);
    for (const go of this.#waiting.splice(0, decode)) go();
    if (this.#waiting.length > 0) this.#schedule();
  };
}
