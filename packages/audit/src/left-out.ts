import { type Finding, unstorable } from "./finding.ts";
import { keyDigest } from "./finding-key.ts";
import { countOf, oneLine } from "./text.ts";

// What a run cannot keep never reaches the diff: a finding that cannot be stored would be
// published, then fail the commit, and every run would publish it again; two findings under one
// key would do the same (BatchWriteItem refuses duplicate keys). Leaving them out before anything
// is published keeps every other change of the audit flowing; they are counted in every run's
// summary and told once, in the digest of the run that first meets them.

/** A finding a run left out, and why. */
export interface LeftOut {
  /** The finding's key, one-lined and cut for display (the whole key may be the problem). */
  key: string;
  reason: string;
  /** A digest of the whole key and the reason: how a left-out finding is remembered as told. */
  digest: string;
}

/** Left-out findings a summary lists by key; the rest are counted. */
export const LEFT_OUT_LISTED = 20;
/** Keys of left-out findings remembered as told; past this, the oldest are forgotten. */
const REMEMBERED = 1_000;

// As summaries showed them before: the first 100 characters and an ellipsis.
const shown = (key: string): string => oneLine(key, 101);

/**
 * The findings a run can keep (storable, one per key; the first of a key wins) and those it must
 * leave out, with the reason.
 */
export function keepable(findings: readonly Finding[]): { findings: Finding[]; leftOut: LeftOut[] } {
  const kept = new Map<string, Finding>();
  const leftOut: LeftOut[] = [];
  const leave = (f: Finding, reason: string): void => {
    leftOut.push({ key: shown(f.key), reason, digest: keyDigest(`${f.key}\u0000${reason}`) });
  };
  for (const f of findings) {
    const problem = unstorable(f);
    if (problem) leave(f, `cannot be stored: ${problem}`);
    else if (kept.has(f.key)) leave(f, "another finding of this run has the same key");
    else kept.set(f.key, f);
  }
  return { findings: [...kept.values()], leftOut };
}

/**
 * Which left-out findings to tell in this run (those not told before) and what to remember as
 * told once this run's messages are out. Keys are remembered by digest, and only while they
 * persist: one that goes away and comes back is told again.
 */
export function leftOutNews(
  leftOut: readonly LeftOut[],
  told: readonly string[],
): { tell: LeftOut[]; remember: string[] } {
  const before = new Set(told);
  const remember = new Set<string>();
  const tell: LeftOut[] = [];
  for (const l of leftOut) {
    if (!before.has(l.digest) && !remember.has(l.digest)) tell.push(l);
    remember.add(l.digest);
  }
  return { tell, remember: [...remember].slice(0, REMEMBERED) };
}

/** Left-out findings a digest tells: how many, and the first few with their reason. */
export interface LeftOutNews {
  count: number;
  first: ReadonlyArray<{ key: string; reason: string }>;
}

/**
 * Findings the run left out, told once: how many, and the first few keys with their reason (each
 * key one-lined, in quotes after a label of ours, so no outside text starts a line).
 */
export function leftOutLine(l: LeftOutNews): string {
  const first = l.first
    .slice(0, 3)
    .map((f) => `"${oneLine(f.key, 100)}" (${oneLine(f.reason, 120)})`)
    .join("; ");
  return `Left out: ${countOf(l.count, "flagged findings")} this audit cannot keep, told once and counted in every run summary: ${first}${l.count > 3 ? "; …" : ""}.`;
}
