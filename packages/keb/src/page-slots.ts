/**
 * A counting semaphore for requests in flight. Unlike p-limit, a slot can be released before the
 * task ends: the client frees it as soon as a page's body has arrived, so decoding and validating
 * that page overlaps the next request instead of leaving KEB idle. Waiters are served in order,
 * those that ask to go ahead first.
 */
export class PageSlots {
  #free: number;
  readonly #waiters: Array<() => void> = [];
  // Served before `#waiters`, in the order they came: the first one's time limit began first.
  readonly #ahead: Array<() => void> = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`concurrency must be an integer >= 1, got ${size}`);
    this.#free = size;
  }

  /**
   * Waits for a slot; the returned function releases it (calling it again does nothing). `ahead`
   * serves this wait before every wait without it (those with it in turn): for a request that
   * held a slot and must be made again, whose own time limit is already running.
   */
  async acquire(options: { ahead?: boolean } = {}): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => (options.ahead ? this.#ahead : this.#waiters).push(resolve));
    return this.#releaser();
  }

  /**
   * A slot if one is free now, else undefined: for a request worth making only while a slot
   * would otherwise sit idle (a speculative page), never ahead of one that waits.
   */
  tryAcquire(): (() => void) | undefined {
    if (this.#free === 0) return undefined;
    this.#free--;
    return this.#releaser();
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#ahead.shift() ?? this.#waiters.shift();
      if (next) next();
      else this.#free++;
    };
  }
}
