// What a run adds to its incidents' history (`incident-history.ts`), written with its snapshot
// commit. The records the run's news folds into are read while its messages go out, so that
// the history adds no round trip to a run; a history that cannot be read is left unwritten for
// this run (logged), never a reason for the snapshot's commit to fail after a publish.

import {
  type Delivery,
  type DiffResult,
  type EndedEpisode,
  endedEpisodes,
  type HistoryCommit,
  type IncidentRecord,
  incidentsWithNews,
  incidentWrites,
  withAcknowledgements,
  withRepages,
} from "@fleet-auditor/audit";
import type { ResolvedDeps } from "./run-deps.ts";
import type { Run } from "./run-state.ts";

/** What the run's history is folded into: the records it has news of, and the ended episodes. */
export interface KnownHistory {
  records: ReadonlyMap<string, IncidentRecord>;
  episodes: readonly EndedEpisode[];
}

/**
 * The records of every incident the run has news of, read now, with the ended episodes the run
 * loaded; undefined if the records cannot be read.
 */
export async function readHistory(
  deps: ResolvedDeps,
  run: Run,
  diff: DiffResult,
  episodes: readonly EndedEpisode[],
): Promise<KnownHistory | undefined> {
  const everything = { told: new Set(diff.transitions.keys()), refused: new Set<number>() };
  const keys = incidentsWithNews(diff, everything);
  if (keys.length === 0) return { records: new Map(), episodes };
  try {
    return { records: await deps.ports.store.loadIncidents(run.audit.name, keys), episodes };
  } catch (err) {
    deps.hooks.log?.warn("the incidents' history could not be read; this run adds nothing to it", {
      error: (err as Error).message,
    });
    return undefined;
  }
}

/**
 * The diff with its reminders of acknowledged incidents held back (`withAcknowledgements`), and the
 * pages PagerDuty resolved while their incidents still failed opened again by a change
 * (`withRepages`): waits for the records only when it has reminders, changes, or firings that join
 * an open incident.
 */
export async function acknowledged(
  diff: DiffResult,
  history: Promise<KnownHistory | undefined>,
  at: string,
): Promise<DiffResult> {
  // A firing that opens its incidents can be neither: only one joining an open incident can page.
  const joins = (t: DiffResult["transitions"][number]): boolean =>
    t.kind === "firing" && Object.values(t.incidents ?? {}).some((i) => i.openedAt !== at);
  if (!diff.transitions.some((t) => t.kind === "reminder" || t.kind === "changed" || joins(t))) return diff;
  const known = await history;
  if (!known) return diff;
  const transitions = withRepages(withAcknowledgements(diff.transitions, known.records), known.records);
  return { ...diff, transitions };
}

/** The history the run's commit writes: its news of what was told, folded into `before`. */
export function historyOf(
  deps: ResolvedDeps,
  run: Run,
  diff: DiffResult,
  delivery: Pick<Delivery, "told" | "refused" | "quiet">,
  known: KnownHistory | undefined,
): HistoryCommit | undefined {
  if (!known) return undefined;
  const writes = incidentWrites(
    {
      audit: run.audit.name,
      runId: run.id,
      at: run.now.toISOString(),
      receivers: new Map(run.routes.map((r) => [r.name, r.receiver])),
    },
    diff,
    delivery,
    known.records,
  );
  if (writes.length === 0) return undefined;
  const retentionS = deps.settings.incidentRetentionDays * 86_400;
  const at = run.now.toISOString();
  const episodes = endedEpisodes(known.episodes, writes, at, deps.settings.flapping.windowMs);
  // A page opened again (or its incident ended) clears the note that PagerDuty had resolved it.
  const repaged = writes
    .filter((w) => known.records.get(w.record.key)?.pagerResolvedAt && (w.event.page || w.record.endedAt))
    .map((w) => w.record.key);
  return {
    writes,
    expiresAt: Math.floor(run.now.getTime() / 1000) + retentionS,
    ...(episodes ? { episodes } : {}),
    ...(repaged.length ? { repaged } : {}),
  };
}
