const HEX = "0123456789abcdef";

/** A seeded PRNG (mulberry32): the same seed gives the same fleet on every machine. */
export class Random {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError("pick from an empty list");
    return item;
  }
  /** Picks by weight: `[[value, weight], …]`. */
  weighted<T>(table: ReadonlyArray<readonly [T, number]>): T {
    const total = table.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [value, weight] of table) {
      roll -= weight;
      if (roll < 0) return value;
    }
    const last = table[table.length - 1];
    if (!last) throw new RangeError("weighted pick from an empty table");
    return last[0];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** `n` hex digits, one draw each. */
  hex(n: number): string {
    let out = "";
    for (let i = 0; i < n; i++) out += HEX[Math.floor(this.next() * 16)];
    return out;
  }
  /** A random UUID v4 drawn from this generator (33 draws: 32 digits, then the variant). */
  uuid(): string {
    const h = this.hex(32);
    const variant = HEX[(this.int(0, 15) & 0x3) | 0x8];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`;
  }
  /** A Gardener-style shoot name, `c-` and 7 hex digits. */
  shootName(): string {
    return `c-${this.hex(7)}`;
  }
}
