import type { DiffInput } from "./diff.ts";
import type { Finding } from "./finding.ts";
import { type Inhibitor, inhibitor } from "./inhibition.ts";
import { DEFAULT_ROUTE, routesOf } from "./route.ts";
import { silencing } from "./silence.ts";
import type { SnapshotEntry } from "./snapshot.ts";

/**
 * What the diff reads of one snapshot entry to decide that a run changes nothing about it: its
 * phase, its problem (a hash of the presenter's `problemKey`), when it was last told and its
 * clear runs. A few dozen bytes where the entry is a kilobyte.
 */
export interface KeyPrint {
  firing: boolean;
  /** `problemHash(problemKey(entry.finding))`. */
  problem: string;
  /** `notifiedAt` as epoch ms; null while held back or never sent. */
  notifiedAt: number | null;
  clearRuns: number;
  /** The routes besides the default one it is on, by name, sorted and comma-joined ("" for none). */
  routes: string;
}

/** The prints of every entry of one snapshot, by finding key: what the store keeps beside it. */
export type SnapshotFingerprint = ReadonlyMap<string, KeyPrint>;

/** An entry's print, its problem judged by the audit presenter's `problemKey`. */
export function keyPrintOf(entry: SnapshotEntry, problemKey: (f: Finding) => string): KeyPrint {
  return {
    firing: entry.phase === "firing",
    problem: problemHash(problemKey(entry.finding)),
    notifiedAt: entry.notifiedAt === null ? null : Date.parse(entry.notifiedAt),
    clearRuns: entry.clearRuns,
    routes: routeNames(Object.keys(entry.routes ?? {})),
  };
}

/** Route names as a print keeps them: the default route left out, sorted, comma-joined. */
function routeNames(names: readonly string[]): string {
  return names
    .filter((n) => n !== DEFAULT_ROUTE)
    .sort()
    .join(",");
}

/**
 * A 53-bit hash of a problem key, in base 36 (cyrb53: two 32-bit lanes, pure, fast). Two
 * different problems share one with odds of about 1 in 10^16: the same as a finding's `changed`
 * going untold once in the lifetime of many fleets; a print never stands in for a key.
 */
function problemHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return base36(4294967296 * (2097151 & h2) + (h1 >>> 0));
}

const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";

/**
 * `n.toString(36)` for a whole `n` below 2^53, as prints are stored, in a third of its time
 * (V8's radix conversion is written for fractions too): thousands a run.
 */
function base36(n: number): string {
  let text = "";
  let rest = n;
  do {
    const digit = rest % 36;
    text = DIGITS[digit] + text;
    // Exact: rest - digit is a multiple of 36 below 2^53.
    rest = (rest - digit) / 36;
  } while (rest > 0);
  return text;
}

/** What `unchangedSince` needs of a run: the diff's input without the snapshot it stands in for. */
type SteadyInput = Pick<
  DiffInput,
  | "audit"
  | "findings"
  | "problemKey"
  | "complete"
  | "now"
  | "policy"
  | "silences"
  | "inhibitRules"
  | "incidents"
>;

/**
 * Whether `diffSnapshot` over the snapshot that `print` describes would give no transition and
 * no write: every finding's entry is firing, with the same problem, no clear run, and told less
 * than the repeat interval ago (or never told, and still silenced or inhibited), on every route it
 * takes; and, after a complete scan,
 * no entry is absent. False does not mean something changed, only that the diff must see the
 * entries themselves: an absent key might be outside a filtered run's scope, which only its
 * entry can tell. A run for which this holds need not read the snapshot's entries at all.
 */
export function unchangedSince(print: SnapshotFingerprint, input: SteadyInput): boolean {
  const now = input.now.getTime();
  const silences = input.silences ?? [];
  const routes = input.incidents?.routes;
  const shortestInterval = Math.min(
    input.policy.repeatIntervalMs,
    ...(routes ?? []).map((r) => r.repeatIntervalMs ?? Number.POSITIVE_INFINITY),
  );
  if (input.complete && input.findings.length !== print.size) return false;
  const seen = new Set<string>();
  // Every finding fires when this holds (else it is false before the end): all of them inhibit.
  let inhibiting: Inhibitor | undefined;
  const inhibited = (f: Finding): boolean => {
    inhibiting ??= inhibitor(input.inhibitRules ?? [], input.findings);
    return inhibiting(f) !== undefined;
  };
  for (const finding of input.findings) {
    const prev = print.get(finding.key);
    if (!prev?.firing || prev.clearRuns !== 0 || seen.has(finding.key)) return false;
    seen.add(finding.key);
    if (prev.problem !== problemHash(input.problemKey(finding))) return false;
    if (
      routes &&
      !onEvery(prev.routes, routeNames(routesOf(routes, input.audit, finding).map((r) => r.name)))
    )
      return false;
    // A route's own reminder interval may be shorter than the policy's: the shortest decides (a
    // print keeps no route's last reminder, so this may read the snapshot when nothing is due).
    const quiet = prev.notifiedAt !== null && now - prev.notifiedAt < shortestInterval;
    // Never told or due, but held back: the diff tells nothing and writes nothing (steady).
    if (!quiet && !silencing(finding, input.audit, silences, input.now) && !inhibited(finding)) return false;
  }
  return true;
}

/** Whether an entry on routes `on` is on each of `taken` too (both as `routeNames` gives them). */
function onEvery(on: string, taken: string): boolean {
  if (taken === "" || taken === on) return true;
  const names = new Set(on.split(","));
  return taken.split(",").every((n) => names.has(n));
}
