import type {
  DigestContext,
  DigestMessage,
  FlatFinding,
  Presenter,
  ReportTransition,
  RunReport,
  Transition,
} from "@fleet-auditor/audit";
import { renderDigests } from "./digest.ts";

/**
 * A transition again from its report row, for rendering what a past run sent; the audit's
 * presenter reads the row's flat finding. Undefined for a row it does not read (a report of
 * another audit's findings).
 */
export function transitionFromReport(r: ReportTransition, presenter: Presenter): Transition | undefined {
  const flat: FlatFinding = r;
  const finding = presenter.fromFlat(flat);
  if (!finding) return undefined;
  const previous =
    r.previousOperation === undefined
      ? undefined
      : presenter.fromFlat({ ...flat, state: r.previousState ?? r.state, operation: r.previousOperation });
  return {
    kind: r.kind,
    key: finding.key,
    state: r.state,
    previousState: r.previousState,
    severity: r.severity,
    finding,
    since: r.since,
    ...(previous ? { previous } : {}),
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
  settings: Pick<DigestContext, "links" | "collapseAt" | "landscape" | "groupBy" | "presenter" | "store"> & {
    reportCommand: string;
  },
): DigestMessage[] {
  const s = report.summary;
  const landscape = settings.landscape ?? report.landscape;
  const transitions = report.transitions.flatMap((r) => transitionFromReport(r, settings.presenter) ?? []);
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
    },
    transitions,
  );
}
