import type { DigestContext, DigestMessage, RunReport } from "@fleet-auditor/audit";
import { renderDigests } from "./digest.ts";

/**
 * The digests a stored run renders to, with today's message settings: what an operator previews
 * (`fleet-auditor slack preview RUN_ID`) to see what its channels were sent.
 */
export function reportDigests(
  report: RunReport,
  settings: Pick<
    DigestContext,
    "links" | "collapseAt" | "landscape" | "groupBy" | "presenter" | "store" | "forChannels"
  > & {
    reportCommand: string;
  },
): DigestMessage[] {
  const s = report.summary;
  const landscape = settings.landscape ?? report.landscape;
  return renderDigests(
    {
      audit: report.audit,
      groupBy: settings.groupBy,
      presenter: settings.presenter,
      runId: report.runId,
      at: s.startedAt,
      complete: s.complete,
      incompleteReason: s.incompleteReason,
      listed: s.queries.reduce((n, q) => n + q.listed, 0),
      flagged: s.flagged,
      ...(landscape ? { landscape } : {}),
      ...(settings.links ? { links: settings.links } : {}),
      ...(settings.collapseAt !== undefined ? { collapseAt: settings.collapseAt } : {}),
      ...(s.repeats ? { repeats: s.repeats } : {}),
      report: { stored: true, command: settings.reportCommand },
      ...(settings.store ? { store: settings.store } : {}),
      ...(settings.forChannels ? { forChannels: true } : {}),
    },
    report.transitions,
  );
}
