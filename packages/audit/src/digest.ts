import { SEVERITY_RANK, type Severity } from "./finding.ts";
import { chatbotNotification } from "./render-chatbot.ts";
import { renderText } from "./render-text.ts";
import { TRANSITION_KINDS, type Transition, type TransitionKind, type TransitionRef } from "./snapshot.ts";

/** SNS's limit for a whole publish (message, subject and attributes), bytes. */
export const SNS_MESSAGE_LIMIT = 262_144;
// Room for the subject, attributes and the JSON envelope beyond the measured variants.
const BUDGET = SNS_MESSAGE_LIMIT - 4_096;
/** More than this many messages in one run becomes "+N more" in the last one. */
export const MAX_MESSAGES_PER_RUN = 10;

/** The run a digest reports on. */
export interface DigestContext {
  audit: string;
  runId: string;
  /** When the run happened (ISO). */
  at: string;
  complete: boolean;
  incompleteReason: string | null;
  listed: number;
  flagged: number;
  /** Where the run ledger can be read, e.g. a table name or console URL. */
  ledgerHint?: string;
}

/** One SNS publish: everything `MessageStructure=json` needs, plus which transitions it carries. */
export interface DigestMessage {
  subject: string;
  /** The JSON-structured message: `default`, `email` (plain text) and `https` (AWS Chatbot). */
  message: string;
  attributes: { audit: string; severity: Severity; kinds: TransitionKind[] };
  /** The run's transitions this message lists. */
  transitions: TransitionRef[];
  /** Transitions told only as "+N more" in this message (beyond `MAX_MESSAGES_PER_RUN`); see `delivery.ts`. */
  omitted: TransitionRef[];
}

/**
 * Renders a run's transitions into as few SNS messages as fit the 256 KiB limit, most severe
 * first. Silenced transitions are left out. Beyond `MAX_MESSAGES_PER_RUN`, the last message
 * ends with "+N more" and a pointer to the run ledger instead of being rejected by SNS.
 */
export function renderDigests(
  ctx: DigestContext,
  transitions: readonly Transition[],
  maxMessages = MAX_MESSAGES_PER_RUN,
): DigestMessage[] {
  const order = transitions
    .map((t, index) => ({ t, index }))
    .filter(({ t }) => t.silencedBy === undefined)
    .sort(
      (a, b) =>
        SEVERITY_RANK[b.t.severity] - SEVERITY_RANK[a.t.severity] ||
        TRANSITION_KINDS.indexOf(a.t.kind) - TRANSITION_KINDS.indexOf(b.t.kind) ||
        a.t.instanceID.localeCompare(b.t.instanceID),
    );
  if (order.length === 0) return [];
  const messages: DigestMessage[] = [];
  let start = 0;
  while (start < order.length) {
    const remaining = order.length - start;
    const isLast = messages.length === maxMessages - 1;
    const make = (n: number): DigestMessage =>
      build(
        ctx,
        transitions,
        order.slice(start, start + n),
        isLast ? order.slice(start + n) : [],
        messages.length,
      );
    let count = remaining;
    let built = make(count);
    // Shrink in proportion to the overshoot until it fits; one transition always fits (texts are capped).
    for (let size = byteSize(built); size > BUDGET && count > 1; size = byteSize(built)) {
      count = Math.max(1, Math.min(count - 1, Math.floor((count * BUDGET * 0.97) / size)));
      built = make(count);
    }
    messages.push(built);
    start += count;
    if (isLast) break;
  }
  return messages;
}

function build(
  ctx: DigestContext,
  all: readonly Transition[],
  part: ReadonlyArray<{ t: Transition; index: number }>,
  overflow: ReadonlyArray<{ t: Transition; index: number }>,
  sequence: number,
): DigestMessage {
  const omitted = overflow.length;
  const items = part.map((p) => p.t);
  const severity = items.reduce<Severity>(
    (hi, t) => (SEVERITY_RANK[t.severity] > SEVERITY_RANK[hi] ? t.severity : hi),
    "info",
  );
  const kinds = TRANSITION_KINDS.filter((k) => items.some((t) => t.kind === k));
  const counts = countByKind(all.filter((t) => t.silencedBy === undefined));
  const text = renderText(ctx, items, omitted);
  const https = JSON.stringify(chatbotNotification(ctx, items, omitted, severity));
  return {
    subject: subjectLine(ctx.audit, counts, severity, sequence),
    message: JSON.stringify({ default: text, email: text, https }),
    attributes: { audit: ctx.audit, severity, kinds },
    transitions: part.map((p) => p.index),
    omitted: overflow.map((p) => p.index),
  };
}

function countByKind(items: readonly Transition[]): Record<TransitionKind, number> {
  const counts = Object.fromEntries(TRANSITION_KINDS.map((k) => [k, 0])) as Record<TransitionKind, number>;
  for (const t of items) counts[t.kind]++;
  return counts;
}

/**
 * The e-mail subject: printable ASCII only, no line breaks, at most 99 characters (SNS accepts
 * fewer than 100, and mail clients choke on the rest).
 */
export function subjectLine(
  audit: string,
  counts: Record<TransitionKind, number>,
  severity: Severity,
  sequence = 0,
): string {
  const parts = TRANSITION_KINDS.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k}`);
  const part = sequence > 0 ? ` (part ${sequence + 1})` : "";
  return asciiSubject(`[fleet-auditor] ${severity.toUpperCase()} ${audit}: ${parts.join(", ")}${part}`);
}

/** Printable ASCII, whitespace folded, cut to 99 characters with an ellipsis. */
export function asciiSubject(raw: string): string {
  const ascii = raw
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^\x20-\x7e]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return ascii.length <= 99 ? ascii : `${ascii.slice(0, 96)}...`;
}

/** UTF-8 bytes of a message as SNS counts them: body, subject and attribute names and values. */
export function byteSize(m: Pick<DigestMessage, "message" | "subject" | "attributes">): number {
  const attrs = Object.entries(m.attributes).reduce(
    (n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(Array.isArray(v) ? JSON.stringify(v) : v),
    0,
  );
  return Buffer.byteLength(m.message) + Buffer.byteLength(m.subject) + attrs;
}
