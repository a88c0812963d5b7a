import { renderDigests } from "./digest.ts";
import type { Finding } from "./finding.ts";
import type { DigestContext, DigestMessage } from "./message.ts";
import type { ReportTransition, RunReport } from "./report.ts";
import type { Transition } from "./snapshot.ts";

/** A transition again from its report row, for rendering what a past run sent. */
export function transitionFromReport(r: ReportTransition): Transition {
  const finding: Finding = {
    instanceID: r.instanceID,
    runtimeID: r.runtimeID,
    shootName: r.shootName,
    globalAccountID: r.globalAccountID,
    subAccountID: r.subAccountID,
    plan: r.plan,
    region: r.region,
    provider: r.provider,
    state: r.state,
    severity: r.severity,
    ...(r.expiredAt !== undefined ? { expiredAt: r.expiredAt } : {}),
    ...(r.operation ? { operation: r.operation } : {}),
    ...(r.edge ? { edge: r.edge } : {}),
  };
  return {
    kind: r.kind,
    instanceID: r.instanceID,
    state: r.state,
    previousState: r.previousState,
    severity: r.severity,
    finding,
    since: r.since,
    ...(r.previousOperation
      ? { previous: { ...finding, state: r.previousState ?? r.state, operation: r.previousOperation } }
      : {}),
    ...(r.ending !== undefined ? { ending: r.ending } : {}),
    ...(r.silencedBy !== undefined ? { silencedBy: r.silencedBy } : {}),
  };
}

/**
 * The digests a stored run renders to, with today's message settings: what an operator previews
 * (`fleet-auditor slack preview RUN_ID`) to see what its channels were sent.
 */
export function reportDigests(
  report: RunReport,
  settings: Pick<DigestContext, "links" | "collapseAt" | "landscape"> & { reportCommand: string },
): DigestMessage[] {
  const s = report.summary;
  const landscape = settings.landscape ?? report.landscape;
  return renderDigests(
    {
      audit: report.audit,
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
    },
    report.transitions.map(transitionFromReport),
  );
}
