import { type AuditHealth, leftOutNews, toldQuietly } from "@fleet-auditor/audit";
import { redact } from "@fleet-auditor/http";
import { baselineNotice } from "@fleet-auditor/render";
import { beforeDeadline } from "./deadline.ts";
import { RunDeadlineError, RunInputError, secretNotSet } from "./errors.ts";
import { type AuditRunDeps, withDefaults } from "./run-deps.ts";
import { commit, fence, NO_WRITES, NOTHING_TOLD, record, summarize, updateHealth } from "./run-finish.ts";
import { configuredNow, flaggedByState, notConfigured, tellBaseline } from "./run-first-day.ts";
import { acknowledged, readHistory } from "./run-history.ts";
import type { AuditRunInput } from "./run-input.ts";
import {
  knownState,
  leaveOut,
  loadState,
  planTransitions,
  rememberLeftOut,
  withEndings,
} from "./run-scan.ts";
import { beginBeside, outOfTime, recordedRun, startRun } from "./run-start.ts";
import type { AuditRunResult, RunOptions } from "./run-state.ts";
import { digestContext, keepReport, publish, render } from "./run-tell.ts";

/**
 * One audit run. A scheduled time already recorded returns its summary as `duplicate`; a run
 * overlapping another of the same audit returns `skipped`; both publish nothing.
 *
 * 1. Recorded run? A scheduled time already in the ledger returns its summary.
 * 2. Lease: take the audit's lease, or stand back.
 * 3. Read: the audit's source reads its findings (`AuditSource.read`), begun with stage 1 when
 *    the source may read before the lease (`readsBeforeLease`: KEB's pages) and used only once
 *    stage 2 holds the lease (else aborted: `beginBeside`); once it is held, the
 *    snapshot (or its fingerprint), silences and the audit's health load and the ledger is asked
 *    again (a run that finished meanwhile makes this one a duplicate). The snapshot's entries are read after
 *    the findings only when the fingerprint cannot show that the run changes nothing. A secret
 *    the source needs without a value yet ends the run `not-configured`, told once
 *    (`run-first-day.ts`). The audit's first scheduled run here (no snapshot, no run in the
 *    ledger) is a baseline where the stage says so (`firstRun`).
 * 4. Confirm: a source that can look keys up again does so for those the snapshot has and the
 *    read did not find (`confirmAbsent`); one still flagged stays, the others say how they ended.
 *    Findings that cannot be kept are left out, told once.
 * 5. Plan (pure): diff the findings against the snapshot; reminders of acknowledged incidents are
 *    held back (their records, read for the history anyway, say who acknowledged them).
 * 6. Report: keep every transition under the run ID (not in a dry run).
 * 7. Render (pure) the grouped digest; a dry run returns here, with it as a preview. A baseline
 *    renders one short notice instead (counts by state, the report command).
 * 8. Publish it (`notify: false` publishes nothing; both baselines count all as told).
 * 9. Commit the snapshot writes whose transitions were told, fenced by the lease, with what they
 *    add to the incidents' history (whose records are read while the messages go out). A baseline
 *    whose scan was incomplete commits and records nothing: the next run is the baseline again.
 * 10. Health: count an incomplete or failed run; the Nth in a row sends one `degraded` notice,
 *     the first good run after it one `recovered`.
 * 11. Summarize, and record the run in the ledger unless a publish failed, so that a retry of
 *     the same scheduled time sends what failed; the record gives the lease back in the same
 *     request where the store can (`finishRun`).
 *
 * The lease is released however the run ends; a run that throws still counts for health.
 */
export async function runAudit(
  given: AuditRunDeps,
  input: AuditRunInput,
  options: RunOptions = {},
): Promise<AuditRunResult> {
  const deps = withDefaults(given);
  const plugin = deps.ports.audits.named(input.audit);
  const run = startRun(deps, plugin.audit, input, options);
  const source = plugin.source();
  if (!source.filterable && input.filters) {
    throw new RunInputError([
      { path: "filters", message: `narrow KEB audits only; ${run.audit.name} reads the status table` },
    ]);
  }
  const begun = await beginBeside(
    deps,
    run,
    (reading) => source.read(reading),
    source.readsBeforeLease === true,
  );
  if ("ended" in begun) return begun.ended;
  let health: AuditHealth | undefined;
  let released = false;
  try {
    const [listed, loaded, recorded] = await Promise.all([
      begun.reading,
      beforeDeadline(loadState(deps, run), run.signal, "loading the audit's snapshot"),
      beforeDeadline(recordedRun(deps, run), run.signal, "checking the run ledger"),
    ]);
    if (recorded) return recorded;
    if (listed.unconfigured) return await notConfigured(deps, run, listed.unconfigured);
    health = loaded.health;
    // A read cut short by the deadline still plans (in the margin kept for that), so the
    // entries it needs are read then too; before it, their read races the deadline.
    const known = knownState(deps, run, listed, loaded);
    const state = run.signal?.aborted
      ? await known
      : await beforeDeadline(known, run.signal, "loading the audit's snapshot");
    const confirmed =
      listed.complete && source.confirmAbsent
        ? await source.confirmAbsent(run, listed, state)
        : { scan: listed, endings: new Map<string, string>() };
    const { endings } = confirmed;
    const scan = leaveOut(deps, confirmed.scan);
    const leftOut = leftOutNews(scan.leftOut, state.health.leftOutTold ?? []);
    const planned = planTransitions(deps, run, scan, state, source);
    const ended = { ...planned, transitions: withEndings(planned.transitions, endings) };
    // Read while the run renders and publishes; awaited first only when reminders may be acknowledged.
    const history = readHistory(deps, run, ended, state.episodes);
    const diff = await acknowledged(ended, history, run.now.toISOString());
    const { transitions } = diff;
    const report = run.dryRun ? { stored: true } : await keepReport(deps, run, scan, transitions);
    const ctx = digestContext(deps, run, scan, source.listedWhat, report.stored, state.repeats);
    // A baseline needs a complete scan: what an incomplete one missed would be told by the next run.
    const holdBack = state.baseline === true && !scan.complete;
    const notice = state.baseline && !holdBack ? baselineNotice(ctx, flaggedByState(scan)) : undefined;
    const digests = state.baseline
      ? notice
        ? [notice]
        : []
      : render(
          deps,
          {
            ...ctx,
            ...(leftOut.tell.length
              ? { leftOut: { count: leftOut.tell.length, first: leftOut.tell.slice(0, 3) } }
              : {}),
          },
          run,
          diff,
        );
    if (run.dryRun) {
      const preview = digests.map(({ subject, message, attributes }) => ({ subject, message, attributes }));
      return { ...summarize(run, scan, diff, NOTHING_TOLD, NO_WRITES), preview };
    }
    const publishing = input.notify !== false && digests.length > 0;
    if (publishing) await deps.ports.store.beginPublishing(run.audit.name, fence(run));
    const delivery =
      input.notify === false
        ? toldQuietly(diff)
        : notice
          ? await tellBaseline(deps, notice, diff)
          : holdBack
            ? NOTHING_TOLD
            : await publish(deps, digests, report.stored);
    const writes = holdBack ? NO_WRITES : await commit(deps, run, diff, delivery, history);
    if (publishing || state.repeats) await deps.ports.store.endPublishing(run.audit.name);
    const failed = delivery.refused.size;
    const ok = scan.complete && failed === 0;
    const reason = scan.incompleteReason ?? (failed ? "publishing the digest failed" : null);
    // A run that got this far got past its secrets: a not-configured episode is over.
    const configured = configuredNow(health) ?? health;
    // Left-out findings are remembered as told once this run's messages went out.
    const told = failed === 0 ? rememberLeftOut(configured, leftOut.remember) : undefined;
    const dirty = told !== undefined || configured !== health;
    const healthAfter = await updateHealth(deps, run, told ?? configured, { ok, reason }, dirty);
    const summary = {
      ...summarize(run, scan, diff, delivery, writes),
      ...(state.baseline && !holdBack && failed === 0 ? { baseline: true as const } : {}),
      ...(transitions.length ? { report } : {}),
      ...(state.repeats && digests.length ? { repeats: state.repeats } : {}),
      health: healthAfter,
    };
    if (failed === 0 && !holdBack) released = await record(deps, run, summary);
    return summary;
  } catch (err) {
    if (err instanceof RunDeadlineError && !run.dryRun) return await outOfTime(deps, run, health, err);
    const unset = secretNotSet(err);
    if (unset) return await notConfigured(deps, run, unset);
    // Blind in another way (a store, the lease): it counts toward `degraded` like an incomplete scan.
    if (!run.dryRun && health) {
      const reason = redact((err as Error).message ?? String(err)).slice(0, 600);
      await updateHealth(deps, run, health, { ok: false, reason }).catch(() => undefined);
    }
    throw err;
  } finally {
    // A run that ends before its read did (a store that failed beside it) stops the read first.
    await begun.abandon();
    if (!run.dryRun && !released) await deps.ports.store.releaseLease(run.audit.name, run.id);
  }
}
