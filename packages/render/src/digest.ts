import {
  type DigestContext,
  type DigestMessage,
  heldBack,
  type PlannedGroup,
  type PlannedMember,
  planNotification,
  SEVERITY_RANK,
  type Severity,
  TRANSITION_KINDS,
  type Transition,
  type TransitionRef,
} from "@fleet-auditor/audit";
import { byteSize, SNS_BYTE_BUDGET, snsMessage } from "@fleet-auditor/notify/sns-envelope";
import { chatbotNotification } from "./chatbot/render-chatbot.ts";
import { renderText } from "./email/render-text.ts";
import { shortDigest } from "./short-digest.ts";
import { structuredDigest, structuredTransition } from "./structured/digest-v1.ts";
import type { DigestV1Transition } from "./structured/digest-v1-schema.ts";
import { digestTitles } from "./subject.ts";

/**
 * Renders a run's transitions into one grouped digest (held-back ones left out): a subject, a
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
  const refs = [...transitions.keys()].filter((i) => !heldBack(transitions[i]));
  if (refs.length === 0 && !ctx.leftOut) return [];
  const { groups, order } = planNotification(ctx, transitions, refs);
  // Findings left out are a warning: something is flagged that the audit cannot follow.
  const severity = ctx.leftOut && refs.length === 0 ? "warning" : messageSeverity(transitions, refs);
  const email = renderText(ctx, groups);
  const { subject, chat } = digestTitles(ctx, groups, severity, transitions);
  const chatbot = chatbotNotification(ctx, groups, severity, chat, sequence);
  const https = JSON.stringify(chatbot);
  const attributes = {
    audit: ctx.audit,
    severity,
    kinds: TRANSITION_KINDS.filter((k) => groups.some((g) => g.kind === k)),
    format: ctx.incident ? ("incident" as const) : ("digest" as const),
  };
  // The structured variant (`default`) names as many transitions as the publish has room for,
  // round-robin over the groups (`order`), so that every incident has its first runtimes named.
  // Rows are built in that order as far as the room goes: a large run names a few hundred of its
  // thousands, and builds no row it cannot name.
  const byRef = new Map(groups.flatMap((g) => g.told.map((m) => [m.ref, { member: m, group: g }] as const)));
  const rows = lazyRows(
    ctx,
    order.map((r) => byRef.get(r) as Named),
  );
  const build = (named: number): DigestMessage => {
    const structured = JSON.stringify(
      structuredDigest(ctx, transitions, groups, order, rows.upTo(named), { subject, severity }),
    );
    const inStructured = new Set(order.slice(0, named));
    const told = (r: TransitionRef): boolean => email.named.has(r) && inStructured.has(r);
    return {
      subject,
      message: snsMessage({ default: structured, email: email.text, https }),
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
    titles: digestTitles(ctx, groups, severity, transitions, { countsOnly: true }),
    severity,
    attributes,
    sequence,
    threadId: chatbot.metadata.threadId,
  });
  if (byteSize(short) > SNS_BYTE_BUDGET) {
    // Every field in it is bounded and it names no transition: this is a bug, not a big incident.
    throw new RangeError(`short digest of run ${ctx.runId} is ${byteSize(short)} bytes, over SNS's limit`);
  }
  const base = byteSize(build(0));
  // Every row within reach of the budget: the whole message is measured, and cut only if it must.
  let message =
    fitting(base, rows, SNS_BYTE_BUDGET + REACH) === order.length
      ? build(order.length)
      : build(fitting(base, rows, SNS_BYTE_BUDGET));
  if (byteSize(message) > SNS_BYTE_BUDGET) message = build(fitting(base, rows, SNS_BYTE_BUDGET));
  // Groups alone can outgrow a publish (thousands of distinct reasons): then the short form is
  // the digest, rather than a run that fails to publish every time.
  if (byteSize(message) > SNS_BYTE_BUDGET) return [short];
  return [{ ...message, short }];
}

// How far past the budget an estimate may be and the whole message still be measured: the
// estimate is within a few bytes of the message, so past this no whole message can fit.
const REACH = 4_096;

/** A named member and the group it is told in. */
interface Named {
  member: PlannedMember;
  group: PlannedGroup;
}

/** The structured rows of the named members, each built when first wanted. */
interface LazyRows {
  readonly length: number;
  at(i: number): DigestV1Transition;
  upTo(n: number): DigestV1Transition[];
}

function lazyRows(ctx: DigestContext, named: readonly Named[]): LazyRows {
  const built: DigestV1Transition[] = [];
  // Groups whose first row is built: a row's `alert` carries the inspect command only on its
  // group's first, the one a chat shows it of (`RowPlace`).
  // and the note of that first row, which its later rows leave out when it is theirs.
  const begun = new Map<PlannedGroup, string | null>();
  const at = (i: number): DigestV1Transition => {
    while (built.length <= i) {
      const { member, group } = named[built.length] as Named;
      const groupNote = begun.get(group);
      const row = structuredTransition(ctx, member, {
        first: groupNote === undefined,
        alone: group.members.length === 1,
        lead: built.length === 0,
        ...(groupNote === undefined ? {} : { groupNote }),
      });
      if (groupNote === undefined) begun.set(group, row.alert?.note ?? null);
      built.push(row);
    }
    return built[i] as DigestV1Transition;
  };
  return {
    length: named.length,
    at,
    upTo: (n) => {
      if (n > 0) at(n - 1);
      return built.slice(0, n);
    },
  };
}

/**
 * How many rows fit beside a message of `base` bytes that names none, within `budget`: each row
 * costs its bytes as the message carries it (its JSON, escaped again inside the message's JSON)
 * and a comma. Summed once, rather than rendering the whole message at each step of a search; the
 * count of omitted rows changes by a few digits, within the budget's margin.
 */
function fitting(base: number, rows: LazyRows, budget: number): number {
  let total = base;
  let fits = 0;
  for (let i = 0; i < rows.length; i++) {
    total += Buffer.byteLength(JSON.stringify(JSON.stringify(rows.at(i)))) - 2 + 1;
    if (total > budget) break;
    fits++;
  }
  return fits;
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
