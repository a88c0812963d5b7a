// Headings and anchors of a Markdown page as GitHub renders them, for tests that hold links,
// alarm descriptions and generated pages to the documentation.

/**
 * GitHub's anchor of a heading: lowercased, punctuation dropped (letters, digits, `-`, `_` and
 * spaces kept), each space a `-`. `Stage settings: \`stages.json\`` -> `stage-settings-stagesjson`.
 */
function githubAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");
}

/** A page's headings, outside code fences, with their anchors (a repeated one gets `-1`, `-2`…). */
export function headings(markdown: string): { level: number; text: string; anchor: string; line: number }[] {
  const seen = new Map<string, number>();
  const found: { level: number; text: string; anchor: string; line: number }[] = [];
  let fence = false;
  markdown.split("\n").forEach((line, i) => {
    if (line.startsWith("```")) fence = !fence;
    const m = fence ? null : /^(#{1,6}) (.*)$/.exec(line);
    if (!m?.[1] || m[2] === undefined) return;
    const base = githubAnchor(m[2]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.push({ level: m[1].length, text: m[2], anchor: n === 0 ? base : `${base}-${n}`, line: i });
  });
  return found;
}

/** The text under the heading with `anchor`, up to the next heading of its level or higher. */
export function section(markdown: string, anchor: string): string | undefined {
  const all = headings(markdown);
  const at = all.findIndex((h) => h.anchor === anchor);
  const start = all[at];
  if (!start) return undefined;
  const next = all.slice(at + 1).find((h) => h.level <= start.level);
  return markdown.split("\n").slice(start.line, next?.line).join("\n");
}
