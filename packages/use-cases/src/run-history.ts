// What a run adds to its incidents' history (`incident-history.ts`), written with its snapshot
// commit. The records the run's news folds into are read while its messages go out, so that
// the history adds no round trip to a run; a history that cannot be read is left unwritten for
// this run (logged), never a reason for the snapshot's commit to fail after a publish.

import {
  type Delivery,
  type DiffResult,
  type HistoryCommit,
  type IncidentRecord,
  incidentsWithNews,
  incidentWrites,
} from "@fleet-auditor/audit";
import type { ResolvedDeps } from "./run-deps.ts";
import type { Run } from "./run-state.ts";

/** The records of every incident the run has news of, read now; undefined if they cannot be. */
export function readHistory(
  deps: ResolvedDeps,
  run: Run,
  diff: DiffResult,
): Promise<ReadonlyMap<string, IncidentRecord> | undefined> {
  const everything = { told: new Set(diff.transitions.keys()), refused: new Set<number>() };
  const keys = incidentsWithNews(diff, everything);
  if (keys.length === 0) return Promise.resolve(new Map());
  return deps.ports.store.loadIncidents(run.audit.name, keys).catch((err: unknown) => {
    deps.hooks.log?.warn("the incidents' history could not be read; this run adds nothing to it", {
      error: (err as Error).message,
    });
    return undefined;
  });
}

/** The history the run's commit writes: its news of what was told, folded into `before`. */
export function historyOf(
  deps: ResolvedDeps,
  run: Run,
  diff: DiffResult,
  delivery: Pick<Delivery, "told" | "refused" | "quiet">,
  before: ReadonlyMap<string, IncidentRecord> | undefined,
): HistoryCommit | undefined {
  if (!before) return undefined;
  const writes = incidentWrites(
    {
      audit: run.audit.name,
      runId: run.id,
      at: run.now.toISOString(),
      receivers: new Map(run.routes.map((r) => [r.name, r.receiver])),
    },
    diff,
    delivery,
    before,
  );
  if (writes.length === 0) return undefined;
  const retentionS = deps.settings.incidentRetentionDays * 86_400;
  return { writes, expiresAt: Math.floor(run.now.getTime() / 1000) + retentionS };
}
