// The one place that says what a title gives up when it does not fit its channel (an SNS subject's
// 99 ASCII characters, Slack's 150-character header, Chatbot's title, PagerDuty's 1,024-character
// summary). A title is parts, each with the role that decides when it yields; what it is about
// (the incident's state and reason, how many, what is inside) outlives every decoration.

/**
 * What a part of a title is, in the order parts yield room, first to last:
 *
 * 1. `tag`: `[fleet-auditor]`, dropped;
 * 2. `audit`: `failing audit`, dropped;
 * 3. `severity`: `CRITICAL`, dropped (the channel shows it besides: an emoji, PagerDuty's field);
 * 4. `aside`: what else a message holds (since when, a description), cut
 *    from its end, then dropped;
 * 5. `inside`: what an incident holds beyond its values (`in 33 regions (err_a 1,000 · …)`: an
 *    incident grouped by audit alone says its reasons here), cut from its end, then dropped;
 * 6. `place`: in a message of several incidents, the first one's place (`in eu-1`), dropped: it
 *    is one incident's, where the landscape is the whole message's;
 * 7. `landscape`: `prod-eu`, dropped, but only after all the above: it is not decoration where
 *    several landscapes mail one inbox (DESIGN: every subject names its landscape);
 * 8. `more`: `+6 more` incidents after the first one's values, dropped after the place: without
 *    it, a message of several incidents reads as its first one alone;
 * 9. `lead`: the incident's values, state and reason first (`failed (err_quota) in eu-1`), cut from
 *    its end: the place goes before the reason, the reason before the state;
 * 10. `news`: how many and what happened (`24 recovered, 6 still failing`), cut last.
 *
 * Within a role, later parts yield first.
 */
const TITLE_YIELD_ORDER = [
  "tag",
  "audit",
  "severity",
  "aside",
  "inside",
  "place",
  "landscape",
  "more",
  "lead",
  "news",
] as const;
type TitleRole = (typeof TITLE_YIELD_ORDER)[number];

/** Roles that are dropped whole; the others are cut from their end first. */
const DROPPED: ReadonlySet<TitleRole> = new Set(["tag", "audit", "severity", "landscape", "place", "more"]);

/** One part of a title. */
export interface TitlePart {
  role: TitleRole;
  text: string;
  /** What stands before it when a part is shown before it (`": "`, `" | "`); "" for none. */
  sep: string;
}

/** A title's room: at most `max` characters (code points), a cut marked with `ellipsis`. */
export interface TitleRoom {
  max: number;
  /** `…` where any character goes; `...` in an ASCII subject. */
  ellipsis: string;
}

/** The title as one line: its parts in order, each after its separator. */
function joinTitle(parts: readonly TitlePart[]): string {
  return parts.map((p, i) => (i === 0 ? p.text : `${p.sep}${p.text}`)).join("");
}

const length = (text: string): number => Array.from(text).length;

/**
 * The title within `room`: whole when it fits; else its parts yield in `TITLE_YIELD_ORDER`, each
 * as little as it must: decorations are dropped, the others cut from their end (a cut that would
 * leave less than a word is a drop), until the title fits. Parts keep their order.
 *
 * @example
 * fitTitle([{ role: "lead", text: "failed (err_quota)", sep: "" }, { role: "severity", text: "CRITICAL", sep: " | " }], { max: 20, ellipsis: "…" })
 * // "failed (err_quota)"
 */
export function fitTitle(parts: readonly TitlePart[], room: TitleRoom): string {
  let shown = parts.filter((p) => p.text !== "");
  for (const role of TITLE_YIELD_ORDER) {
    for (let i = shown.length - 1; i >= 0; i--) {
      const over = length(joinTitle(shown)) - room.max;
      if (over <= 0) return joinTitle(shown);
      const part = shown[i] as TitlePart;
      if (part.role !== role) continue;
      const rest = length(part.text) - over - length(room.ellipsis);
      const last = shown.length === 1;
      if (!last && (DROPPED.has(role) || rest < MIN_CUT)) {
        shown = shown.filter((_, j) => j !== i);
        continue;
      }
      const kept = Array.from(part.text).slice(0, Math.max(0, rest)).join("").trimEnd();
      shown = shown.map((p, j) => (j === i ? { ...p, text: `${kept}${room.ellipsis}` } : p));
    }
  }
  const all = joinTitle(shown);
  return length(all) <= room.max
    ? all
    : `${Array.from(all)
        .slice(0, room.max - length(room.ellipsis))
        .join("")}${room.ellipsis}`;
}

// A cut part keeps at least this much, or goes: "err_q…" still says something, "e…" does not.
const MIN_CUT = 6;
