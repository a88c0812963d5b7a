import {
  type DigestContext,
  formatCount,
  type PlannedGroup,
  type PlannedMember,
  type Severity,
  TRANSITION_KINDS,
  type TransitionGroup,
} from "@fleet-auditor/audit";

// The e-mail subject, also every Chatbot and Slack title: printable ASCII within 99 characters.

function counts(groups: readonly TransitionGroup[]): string {
  return (
    TRANSITION_KINDS.map((k) => [k, groups.filter((g) => g.kind === k)] as const)
      .map(([k, gs]) => [k, gs.reduce((n, g) => n + g.members.length, 0)] as const)
      .filter(([, n]) => n > 0)
      // "10 reminders", "1 reminder"; the other kinds read as adjectives ("3 firing, 2 resolved").
      .map(([k, n]) => `${formatCount(n)} ${k}${k === "reminder" && n !== 1 ? "s" : ""}`)
      .join(", ")
  );
}

/**
 * The e-mail subject: `[fleet-auditor] [landscape] SEVERITY audit: …`. One transition names
 * it as its presenter says (a runtime: its shoot, region, state and reason); several give counts; only resolutions read `[RESOLVED]`;
 * an incomplete scan says INCOMPLETE. Printable ASCII within 99 characters; `suffix`
 * (e.g. "(part 2 of 3)") is never cut.
 */
export function subjectLine(
  ctx: Pick<DigestContext, "audit" | "landscape" | "complete" | "leftOut">,
  groups: readonly PlannedGroup[],
  severity: Severity,
  suffix = "",
  /** Counts even for one transition: the subject of a digest that names none. */
  options: { countsOnly?: boolean } = {},
): string {
  const resolvedOnly = groups.length > 0 && groups.every((g) => g.kind === "resolved");
  const label = resolvedOnly ? "[RESOLVED]" : severity.toUpperCase();
  const scan = ctx.complete ? "" : " INCOMPLETE scan,";
  const single =
    !options.countsOnly && groups.length === 1 && groups[0]?.members.length === 1 ? groups[0] : undefined;
  let what: string;
  if (single) {
    what = (single.told[0] as PlannedMember).row.subject;
  } else {
    what = counts(groups);
  }
  if (ctx.leftOut) what = [what, `${ctx.leftOut.count} left out`].filter(Boolean).join(", ");
  const landscape = ctx.landscape ? `[${ctx.landscape}] ` : "";
  return asciiSubject(`[fleet-auditor] ${landscape}${label} ${ctx.audit}:${scan} ${what}`, suffix);
}

// What NFKD does not take to ASCII, spelled out rather than dropped.
const TRANSLITERATIONS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    ß: "ss",
    æ: "ae",
    Æ: "AE",
    ø: "o",
    Ø: "O",
    œ: "oe",
    Œ: "OE",
    ł: "l",
    Ł: "L",
    đ: "d",
    Đ: "D",
    þ: "th",
    Þ: "Th",
    "→": "->",
    "←": "<-",
    "–": "-",
    "—": "-",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "…": "...",
    "×": "x",
  }),
);

/** Printable ASCII, transliterated, whitespace folded, cut to 99 characters (the suffix kept whole). */
export function asciiSubject(raw: string, suffix = ""): string {
  const ascii = (text: string): string =>
    Array.from(text.normalize("NFKD").replace(/\p{M}+/gu, ""))
      .map((c) => TRANSLITERATIONS.get(c) ?? c)
      .join("")
      .replace(/[\p{Cc}\s]+/gu, " ")
      .replace(/[^\x20-\x7e]/g, "?")
      .replace(/ +/g, " ")
      .trim();
  const tail = suffix ? ` ${ascii(suffix)}` : "";
  const head = ascii(raw);
  const room = 99 - tail.length;
  return `${head.length <= room ? head : `${head.slice(0, room - 3)}...`}${tail}`;
}
