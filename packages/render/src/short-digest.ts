import {
  type DigestContext,
  type DigestMessage,
  leftOutLine,
  oneLine,
  type PlannedGroup,
  type Severity,
  type ShortDigest,
  shortTime,
  slackText,
  TRANSITION_KINDS,
  type Transition,
  type TransitionRef,
} from "@fleet-auditor/audit";
import { snsMessage } from "@fleet-auditor/notify/sns-envelope";
import { chatbotNotification } from "./chatbot/render-chatbot.ts";
import { reportPointer } from "./email/render-text.ts";
import { structuredDigest } from "./structured/digest-v1.ts";
import type { DigestTitles } from "./subject.ts";

/** What the short form of a digest is made from: the full one's parts. */
export interface ShortDigestInput {
  ctx: DigestContext;
  transitions: readonly Transition[];
  groups: readonly PlannedGroup[];
  /** The transitions the full digest is about (held-back ones left out). */
  refs: readonly TransitionRef[];
  /** Titles that count and name none. */
  titles: DigestTitles;
  severity: Severity;
  attributes: DigestMessage["attributes"];
  sequence: number;
  /** The full digest's Chatbot thread, so that the short one lands where it would have. */
  threadId: string;
}

/**
 * A digest that names no transition: the run, its counts by kind and where the report is, in a
 * few KB whatever the run holds. It is the full digest's `short` alternative, sent when SNS
 * refuses the full one as too long, and the digest itself when even the full one's groups do not
 * fit. It only counts, so it tells its transitions only if the report holding them was stored.
 */
export function shortDigest(input: ShortDigestInput): ShortDigest {
  const { ctx, transitions, groups, refs, severity } = input;
  const { subject } = input.titles;
  const why =
    refs.length > 0
      ? `This message names none of the ${refs.length} transitions (${countLine(groups)}): the digest naming them was too large for SNS.`
      : "This message is the summary of a digest too large for SNS.";
  const email = [
    `fleet-auditor ${ctx.landscape ? `[${oneLine(ctx.landscape, 40)}] ` : ""}${oneLine(ctx.audit, 40)} audit, run ${oneLine(ctx.runId, 100)} at ${shortTime(ctx.at)}`,
    ctx.complete
      ? `Scan complete: ${ctx.listed} ${ctx.listedWhat ?? "runtimes"} listed, ${ctx.flagged} flagged.`
      : `Scan INCOMPLETE (${oneLine(ctx.incompleteReason ?? "unknown", 300)}): nothing was resolved this run.`,
    why,
    // A finding left out is told once, in whatever message goes out: this one, if it is the one.
    ...(ctx.leftOut ? [leftOutLine(ctx.leftOut)] : []),
    ...reportPointer(ctx),
    "",
    `Run ${oneLine(ctx.runId, 100)}.`,
  ].join("\n");
  // Chatbot's notification without groups says the scan, the repeat and the report; the counts go first.
  const note = chatbotNotification(ctx, [], severity, input.titles.chat, input.sequence);
  const chatbot = {
    ...note,
    id: `${note.id}:short`,
    content: { ...note.content, description: [slackText(why, 400), note.content.description].join("\n") },
    metadata: { ...note.metadata, threadId: input.threadId },
  };
  // The structured digest naming none: counts, scan and report; no group, since groups name examples.
  const structured = {
    ...structuredDigest(ctx, transitions, groups, refs, [], { subject, severity }),
    groups: [],
  };
  return {
    subject,
    message: snsMessage({ default: JSON.stringify(structured), email, https: JSON.stringify(chatbot) }),
    attributes: input.attributes,
    transitions: [],
    omitted: [...refs],
  };
}

function countLine(groups: readonly PlannedGroup[]): string {
  return TRANSITION_KINDS.map((k) => [k, groups.filter((g) => g.kind === k)] as const)
    .map(([k, gs]) => [k, gs.reduce((n, g) => n + g.members.length, 0)] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(", ");
}
