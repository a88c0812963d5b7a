import { structuredDigest } from "./digest-v1.ts";
import { SEVERITY_RANK, type Severity } from "./finding.ts";
import { groupTransitions, type TransitionGroup } from "./groups.ts";
import type { LeftOutNews } from "./left-out.ts";
import type { LinkTemplates } from "./links.ts";
import { chatbotNotification } from "./render-chatbot.ts";
import { renderText } from "./render-text.ts";
import { shortDigest } from "./short-digest.ts";
import { TRANSITION_KINDS, type Transition, type TransitionKind, type TransitionRef } from "./snapshot.ts";

/** SNS's limit for a whole publish (message and attributes), bytes. */
export const SNS_MESSAGE_LIMIT = 262_144;

/**
 * What a publish may weigh by `byteSize`: SNS's limit less a margin of 2 KiB, so that a digest
 * fitted to the byte is not refused for anything SNS counts that is not foreseen here.
 */
export const SNS_BYTE_BUDGET = SNS_MESSAGE_LIMIT - 2 * 1024;

/** One message attribute as SNS takes it (`MessageAttributeValue`). */
export interface SnsAttribute {
  DataType: "String" | "String.Array";
  StringValue: string;
}

/** The run a digest reports on, and how its messages point further. */
export interface DigestContext {
  audit: string;
  runId: string;
  /** When the run happened (ISO). */
  at: string;
  complete: boolean;
  incompleteReason: string | null;
  listed: number;
  flagged: number;
  /** What `listed` counts, in the head of a message. Default "runtimes". */
  listedWhat?: string;
  /** The landscape's name (`LANDSCAPE`, e.g. `prod-eu`): in every subject and title. */
  landscape?: string;
  links?: LinkTemplates;
  /**
   * The run report holding every transition. `stored` is false when it could not be written:
   * then a message says so, and what it only counts is sent again next run.
   */
  report: { stored: boolean; command: string };
  /** Groups larger than this are one line (`GROUP_COLLAPSE_AT`, default 20). */
  collapseAt?: number;
  /** Chatbot threads: one per incident group (default), or one per runtime incident. */
  threading?: "incident" | "runtime";
  /**
   * A run that published and was interrupted before its commit: this digest may repeat what it
   * sent, and says so.
   */
  repeats?: string;
  /**
   * Findings this run left out (`left-out.ts`) that no earlier message told: one line in this
   * digest, never again while they persist. A run with nothing else to tell still sends it.
   */
  leftOut?: LeftOutNews;
}

/** What a message is about: transitions, or the auditor's own health. */
export type MessageKind = TransitionKind | "degraded" | "recovered";

/** One SNS publish: everything `MessageStructure=json` needs, plus which transitions it carries. */
export interface DigestMessage {
  /**
   * The same run in a few KB, naming no transition: the counts and where the report is. Sent
   * instead when SNS refuses this message as too long, so that a run never fails to publish
   * for its size; it tells (`toldBy`) only what it counts, and that only with a stored report.
   */
  short?: ShortDigest;
  subject: string;
  /**
   * The JSON-structured message: `default` (the structured digest, `fleet-auditor.digest/v1`, for
   * Lambda, SQS and every other protocol without a key), `email` (plain text) and `https` (AWS
   * Chatbot).
   */
  message: string;
  attributes: { audit: string; severity: Severity; kinds: MessageKind[] };
  /** The run's transitions this message names one by one. */
  transitions: TransitionRef[];
  /** Transitions this message only counts (in a group line or "+N more"); see `delivery.ts`. */
  omitted: TransitionRef[];
}

/** A digest's short alternative: a message of its own, with no alternative. */
export type ShortDigest = Omit<DigestMessage, "short">;

/**
 * Renders a run's transitions into one grouped digest (silenced ones left out): a subject, a
 * structured digest for programs (`default`), the e-mail (`renderText`, under 100 KB) and the
 * Chatbot notification.
 * Everything the message does not name is counted and is in the run report. A digest of only
 * resolutions is `info` and reads `[RESOLVED]`.
 */
export function renderDigests(
  ctx: DigestContext,
  transitions: readonly Transition[],
  /** Makes the Chatbot notification's `id` unique among a run's messages. */
  sequence = 0,
): DigestMessage[] {
  const refs = [...transitions.keys()].filter((i) => transitions[i]?.silencedBy === undefined);
  if (refs.length === 0 && !ctx.leftOut) return [];
  const groups = groupTransitions(transitions, refs);
  // Findings left out are a warning: something is flagged that the audit cannot follow.
  const severity = ctx.leftOut && refs.length === 0 ? "warning" : messageSeverity(transitions, refs);
  const email = renderText(ctx, transitions, groups);
  const subject = subjectLine(ctx, transitions, groups, severity);
  const chatbot = chatbotNotification(
    ctx,
    transitions,
    groups,
    severity,
    subject.replace(/^\[fleet-auditor\] /, ""),
    sequence,
  );
  const fixed = { email: email.text, https: JSON.stringify(chatbot) };
  const attributes = {
    audit: ctx.audit,
    severity,
    kinds: TRANSITION_KINDS.filter((k) => groups.some((g) => g.kind === k)),
  };
  // The structured variant (`default`) names as many transitions as the publish has room for,
  // in group order.
  const order = groups.flatMap((g) => g.members);
  const build = (named: number): DigestMessage => {
    const structured = JSON.stringify(
      structuredDigest(ctx, transitions, groups, order, named, { subject, severity }),
    );
    const inStructured = new Set(order.slice(0, named));
    const told = (r: TransitionRef): boolean => email.named.has(r) && inStructured.has(r);
    return {
      subject,
      // One copy for every protocol without a key of its own (lambda, sqs, email-json,
      // firehose): SNS counts each key against its 256 KiB, and two would halve what fits.
      message: JSON.stringify({ default: structured, ...fixed }),
      attributes,
      transitions: refs.filter(told),
      omitted: refs.filter((r) => !told(r)),
    };
  };
  const short = shortDigest({
    ctx,
    transitions,
    groups,
    refs,
    subject: subjectLine(ctx, transitions, groups, severity, "", { countsOnly: true }),
    severity,
    attributes,
    sequence,
    threadId: chatbot.metadata.threadId,
  });
  if (byteSize(short) > SNS_BYTE_BUDGET) {
    // Every field in it is bounded and it names no transition: this is a bug, not a big incident.
    throw new RangeError(`short digest of run ${ctx.runId} is ${byteSize(short)} bytes, over SNS's limit`);
  }
  let message = build(order.length);
  if (byteSize(message) > SNS_BYTE_BUDGET) {
    let fits = 0;
    let over = order.length;
    while (over - fits > 1) {
      const mid = Math.floor((fits + over) / 2);
      if (byteSize(build(mid)) <= SNS_BYTE_BUDGET) fits = mid;
      else over = mid;
    }
    message = build(fits);
  }
  // Groups alone can outgrow a publish (thousands of distinct reasons): then the short form is
  // the digest, rather than a run that fails to publish every time.
  if (byteSize(message) > SNS_BYTE_BUDGET) return [short];
  return [{ ...message, short }];
}

/**
 * Per-runtime mode: one message per (unsilenced) transition, each a digest of that transition
 * alone whose Chatbot thread is the runtime's incident, so one runtime's news reply in one thread.
 * Each message's `transitions` name the run's own transition index.
 */
export function renderRuntimeMessages(
  ctx: DigestContext,
  transitions: readonly Transition[],
): DigestMessage[] {
  const out: DigestMessage[] = [];
  for (const [ref, t] of transitions.entries()) {
    if (t.silencedBy !== undefined) continue;
    const [message] = renderDigests({ ...ctx, threading: "runtime" }, [t], ref);
    if (!message) continue;
    // The message holds transition 0 of its own render: the run's `ref`, in it and its short form.
    const own = <M extends ShortDigest>(m: M): M => ({
      ...m,
      transitions: m.transitions.map(() => ref),
      omitted: m.omitted.map(() => ref),
    });
    out.push({ ...own(message), ...(message.short ? { short: own(message.short) } : {}) });
  }
  return out;
}

/** The most severe unresolved transition's severity; `info` when everything resolved. */
function messageSeverity(transitions: readonly Transition[], refs: readonly TransitionRef[]): Severity {
  let severity: Severity = "info";
  for (const ref of refs) {
    const t = transitions[ref] as Transition;
    if (t.kind !== "resolved" && SEVERITY_RANK[t.severity] > SEVERITY_RANK[severity]) severity = t.severity;
  }
  return severity;
}

function counts(groups: readonly TransitionGroup[]): string {
  return TRANSITION_KINDS.map((k) => [k, groups.filter((g) => g.kind === k)] as const)
    .map(([k, gs]) => [k, gs.reduce((n, g) => n + g.members.length, 0)] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(", ");
}

/**
 * The e-mail subject: `[fleet-auditor] [landscape] SEVERITY audit: …`. One transition names
 * its shoot, region, state and reason; several give counts; only resolutions read `[RESOLVED]`;
 * an incomplete scan says INCOMPLETE. Printable ASCII within 99 characters; `suffix`
 * (e.g. "(part 2 of 3)") is never cut.
 */
export function subjectLine(
  ctx: Pick<DigestContext, "audit" | "landscape" | "complete" | "leftOut">,
  transitions: readonly Transition[],
  groups: readonly TransitionGroup[],
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
    const t = transitions[single.members[0] as TransitionRef] as Transition;
    const f = t.finding;
    const state =
      t.kind === "resolved" ? `no longer ${f.state}` : t.kind === "reminder" ? `still ${f.state}` : f.state;
    what = f.edge
      ? // The node first: the Application's key is long and the subject is cut at 99 characters.
        `${t.kind} ${state}${f.edge.node ? ` on ${f.edge.node}` : ""}: ${f.shootName}`
      : `${t.kind} ${f.shootName || f.instanceID} ${f.region || "-"} ${state}${single.reason ? ` (${single.reason})` : ""}`;
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

/**
 * The message attributes of a publish, as SNS takes them: `audit` and `severity` (String) and
 * `kinds` (String.Array), which subscriptions filter on. The one definition of what is sent,
 * so that `byteSize` counts exactly that.
 */
export function snsAttributes(attributes: DigestMessage["attributes"]): Record<string, SnsAttribute> {
  return {
    audit: { DataType: "String", StringValue: attributes.audit },
    severity: { DataType: "String", StringValue: attributes.severity },
    kinds: { DataType: "String.Array", StringValue: JSON.stringify(attributes.kinds) },
  };
}

/**
 * UTF-8 bytes of a publish as AWS counts them ("all parts of the message attribute, including
 * name, type, and value"): the body, every attribute's name, data type and value (`snsAttributes`),
 * and the subject too, which SNS may not count: a byte too many here costs nothing.
 */
export function byteSize(m: Pick<DigestMessage, "message" | "subject" | "attributes">): number {
  let attributes = 0;
  for (const [name, value] of Object.entries(snsAttributes(m.attributes))) {
    attributes +=
      Buffer.byteLength(name) + Buffer.byteLength(value.DataType) + Buffer.byteLength(value.StringValue);
  }
  return Buffer.byteLength(m.message) + Buffer.byteLength(m.subject) + attributes;
}
