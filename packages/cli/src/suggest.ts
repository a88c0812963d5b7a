// A 20-line edit distance instead of a package: the CLI compares a handful of short words once,
// on an error path, and a dependency would cost more to vet than this costs to read.

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbouring characters each cost 1 (`--audti` is one step from `--audit`).
 */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The candidate `word` was probably meant to be, as a clause to append to an error: the closest
 * within a third of its length (at least one edit), or one it starts (`--aud` for `--audit`);
 * empty when none is close, or the word is too short to guess from.
 *
 * @example didYouMean("--adit", ["--audit", "--now"]) // "; did you mean --audit?"
 */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const bare = (s: string): string => s.replace(/^-+/, "").toLowerCase();
  const w = bare(word);
  if (w.length < 3) return "";
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const c = bare(candidate);
    const distance = c.startsWith(w) && w.length >= 3 ? 0.5 : editDistance(w, c);
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(w.length / 3))
    ? `; did you mean ${best.candidate}?`
    : "";
}
