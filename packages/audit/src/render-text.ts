import type { DigestContext } from "./digest.ts";
import type { Finding } from "./finding.ts";
import { TRANSITION_KINDS, type Transition, type TransitionKind } from "./snapshot.ts";

const HEADINGS: Record<TransitionKind, string> = {
  firing: "NEW",
  changed: "CHANGED",
  reminder: "STILL FAILING",
  resolved: "RESOLVED",
};
// A description or error longer than this is cut: one runtime must never blow the size budget.
const MAX_FIELD = 600;

/** The plain-text digest for e-mail: readable in any mail client, one block per runtime. */
export function renderText(ctx: DigestContext, items: readonly Transition[], omitted: number): string {
  const lines: string[] = [];
  lines.push(`fleet-auditor: ${ctx.audit} audit at ${ctx.at}`);
  lines.push(
    ctx.complete
      ? `Scan complete: ${ctx.listed} runtimes listed, ${ctx.flagged} flagged.`
      : `Scan INCOMPLETE (${ctx.incompleteReason}): nothing was resolved this run; ${ctx.listed} runtimes listed.`,
  );
  for (const kind of TRANSITION_KINDS) {
    const group = items.filter((t) => t.kind === kind);
    if (group.length === 0) continue;
    lines.push("", `${HEADINGS[kind]} (${group.length})`);
    for (const t of group) lines.push(...block(t));
  }
  if (omitted > 0) {
    lines.push(
      "",
      `+${omitted} more transitions not shown; see run ${ctx.runId} in the run ledger${ctx.ledgerHint ? ` (${ctx.ledgerHint})` : ""}.`,
    );
  }
  lines.push("", `Run ${ctx.runId}.`);
  return lines.join("\n");
}

function block(t: Transition): string[] {
  const f = t.finding;
  const was = t.previousState && t.previousState !== t.state ? ` (was ${t.previousState})` : "";
  const state = t.kind === "resolved" ? `no longer ${t.state}` : `${t.state}${was}`;
  const lines = [`- [${t.severity}] ${state}: ${placement(f)}`];
  lines.push(`    instance ${f.instanceID}${f.runtimeID ? `, runtime ${f.runtimeID}` : ""}`);
  lines.push(`    global account ${f.globalAccountID || "-"}, subaccount ${f.subAccountID || "-"}`);
  if (f.expiredAt) lines.push(`    expired at ${f.expiredAt}`);
  const op = f.operation;
  if (op && t.kind !== "resolved") {
    const where = [
      op.errorStep && `step ${op.errorStep}`,
      op.errorComponent && `component ${op.errorComponent}`,
      op.errorReason && `reason ${op.errorReason}`,
    ]
      .filter(Boolean)
      .join(", ");
    lines.push(
      `    last operation: ${op.kind} ${op.state}${op.updatedAt ? ` at ${op.updatedAt}` : ""}${where ? ` (${where})` : ""}`,
    );
    if (op.description) lines.push(`    ${cut(op.description)}`);
  }
  return lines;
}

/** `aws eu-central-1 shoot c-1a2b3c4` with the blanks KEB leaves on early failures shown as `-`. */
export function placement(f: Finding): string {
  return `${f.plan || "-"} ${f.region || "-"} shoot ${f.shootName || "-"}`;
}

/** Cuts on a code point boundary and marks the cut. */
export function cut(text: string, max = MAX_FIELD): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  return `${Array.from(flat).slice(0, max).join("")}…`;
}
