import type { RunSummary } from "@fleet-auditor/audit";
import { escapeControl, renderTable } from "./table.ts";

/** A run summary for humans: the queries, then the transitions, `kcp runtimes` style. */
export function renderSummary(s: RunSummary): string {
  // The incomplete reason and the publish error may quote KEB or SNS: escaped like every table cell.
  const head = escapeControl(
    `${s.audit}: ${s.status}${s.dryRun ? " (dry run)" : ""}, ${s.complete ? "complete scan" : `INCOMPLETE scan (${s.incompleteReason})`}, ${s.flagged} flagged, ${s.transitions.length} transition(s), ${s.notified.messages} message(s) sent${s.notified.inhibited ? `, ${s.notified.inhibited} inhibited` : ""}${s.notified.failed ? `, ${s.notified.failed} FAILED to send (${s.notified.error ?? "no reason given"})` : ""}, ${s.durationMs} ms`,
  );
  const queries = renderTable(
    ["QUERY", "PAGES", "TOTAL", "LISTED"],
    s.queries.map((q) => [q.query, String(q.pages), String(q.totalCount), String(q.listed)]),
  );
  // The INHIBITED BY column only in a run an inhibition rule held something back in.
  const inhibited = s.transitions.some((t) => t.inhibitedBy !== undefined);
  const transitions = s.transitions.length
    ? renderTable(
        [
          "KIND",
          "SEVERITY",
          "STATE",
          "PREVIOUS",
          "INSTANCE ID",
          "SILENCED BY",
          ...(inhibited ? ["INHIBITED BY"] : []),
        ],
        s.transitions.map((t) => [
          t.kind,
          t.severity,
          t.state,
          t.previousState ?? "-",
          t.instanceID,
          t.silencedBy ?? "-",
          ...(inhibited ? [t.inhibitedBy ?? "-"] : []),
        ]),
      )
    : "no transitions";
  return `${head}\n\n${queries}\n\n${transitions}\n`;
}
