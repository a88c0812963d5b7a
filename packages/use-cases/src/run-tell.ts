// How a run tells: the report that keeps every transition, the messages rendered from the
// notification plan, and their publishing. Stages 6 to 8 of `runAudit`.

import {
  type AlertPublisher,
  type Delivery,
  type DiffResult,
  type DigestContext,
  type DigestMessage,
  runReportCommand,
  type Transition,
  type TransitionRef,
  toldBy,
} from "@fleet-auditor/audit";
import { redact } from "@fleet-auditor/http";
import { renderRunMessages } from "@fleet-auditor/render";
import type { ResolvedDeps } from "./run-deps.ts";
import { expiresAt, NO_WRITES, NOTHING_TOLD, summarize } from "./run-finish.ts";
import type { Run, Scan } from "./run-state.ts";

/**
 * Stage 6: every transition under the run ID, for as long as the ledger keeps the run. A report
 * that cannot be stored is logged, and messages then count as told only what they name.
 */
export async function keepReport(
  deps: ResolvedDeps,
  run: Run,
  scan: Scan,
  transitions: readonly Transition[],
): Promise<{ stored: boolean }> {
  if (transitions.length === 0 || !deps.ports.reports) return { stored: false };
  const { transitions: _t, ...summary } = summarize(
    run,
    scan,
    { transitions: [], changes: [] },
    NOTHING_TOLD,
    NO_WRITES,
  );
  try {
    await deps.ports.reports.saveReport(
      {
        runId: run.id,
        audit: run.audit.name,
        runKey: run.runKey,
        scheduledTime: run.scheduledTime,
        startedAt: run.startedAt.toISOString(),
        ...(deps.settings.landscape ? { landscape: deps.settings.landscape } : {}),
        summary,
        transitions: [...transitions],
      },
      expiresAt(deps, run),
    );
    return { stored: true };
  } catch (err) {
    deps.hooks.log?.warn("the run report could not be stored; messages count as told only what they name", {
      error: (err as Error).message,
    });
    return { stored: false };
  }
}

/**
 * Stage 7: the messages of the run: its digest (e-mail); with an incidents topic, one message
 * per incident with news (or roll-up) of each route to it (chat); with a critical topic, the
 * pages of each route to it (each incident's start and end, and pages of before routes to
 * resolve). Each message's Chatbot `id` sequence follows the ones before it.
 */
export function render(
  deps: ResolvedDeps,
  ctx: DigestContext,
  run: Run,
  diff: Pick<DiffResult, "transitions" | "legacyPages">,
): DigestMessage[] {
  return renderRunMessages(ctx, diff.transitions, {
    routes: run.routes,
    chat: deps.settings.incidentMessages !== undefined,
    pager: deps.settings.pagerMessages === true,
    ...(diff.legacyPages ? { legacyPages: diff.legacyPages } : {}),
  });
}

/** Stage 7: what the digest says about the run and where it points. */
export function digestContext(
  deps: ResolvedDeps,
  run: Run,
  scan: Scan,
  listedWhat: string,
  reportStored: boolean,
  repeats?: string,
): DigestContext {
  return {
    ...(repeats ? { repeats } : {}),
    audit: run.audit.name,
    groupBy: run.audit.groupBy,
    presenter: run.audit.presenter,
    runId: run.id,
    at: run.now.toISOString(),
    complete: scan.complete,
    incompleteReason: scan.incompleteReason,
    listed: scan.listed,
    ...(listedWhat !== "runtimes" ? { listedWhat } : {}),
    flagged: scan.findings.length,
    ...(deps.settings.landscape ? { landscape: deps.settings.landscape } : {}),
    ...(deps.settings.links ? { links: deps.settings.links } : {}),
    ...(deps.settings.collapseAt !== undefined ? { collapseAt: deps.settings.collapseAt } : {}),
    report: { stored: reportStored, command: runReportCommand(run.id, deps.settings.commandStore) },
    ...(deps.settings.commandStore ? { store: deps.settings.commandStore } : {}),
  };
}

/**
 * Stage 8: each message once (several in batches when the publisher can); a refused one is
 * logged and its transitions stay untold, the others are told; one taken only in its short
 * form (refused as too long) tells what that form tells.
 */
export async function publish(
  deps: ResolvedDeps,
  digests: readonly DigestMessage[],
  reportStored: boolean,
): Promise<Delivery> {
  const told = new Set<TransitionRef>();
  // A transition is told only when every message about it went out (the digest and, with
  // incident messages, its incident's): one refused sends it again next run, in both.
  const refused = new Set<TransitionRef>();
  let messages = 0;
  let error: string | undefined;
  let shortened = 0;
  const outcome = (digest: DigestMessage, why?: string, short?: boolean): void => {
    if (why === undefined) {
      messages++;
      // Refused as too long, the digest went out in its short form, which names none: it tells
      // its transitions only if the report holding them was stored (`delivery.ts`).
      if (short && digest.short) {
        shortened++;
        deps.hooks.log?.warn("SNS refused a digest as too long; its short form was sent instead", {
          transitions: digest.transitions.length + digest.omitted.length,
          reportStored,
        });
      }
      for (const ref of toldBy(short && digest.short ? digest.short : digest, reportStored)) told.add(ref);
      return;
    }
    for (const ref of toldBy(digest, true)) refused.add(ref);
    error ??= redact(why).slice(0, 300);
    deps.hooks.log?.warn("publish failed; these transitions will be sent again next run", {
      error: why,
      transitions: digest.transitions.length + digest.omitted.length,
    });
  };
  if (digests.length > 1 && deps.ports.publisher.publishBatch) {
    const outcomes = await deps.ports.publisher.publishBatch(digests);
    for (const [i, digest] of digests.entries()) {
      const o = outcomes[i];
      if (o?.ok) outcome(digest, undefined, o.shortened);
      else outcome(digest, o?.error ?? "no outcome for this message");
    }
  } else {
    for (const digest of digests) {
      let published: Awaited<ReturnType<AlertPublisher["publish"]>>;
      try {
        published = await deps.ports.publisher.publish(digest);
      } catch (err) {
        outcome(digest, (err as Error).message ?? String(err));
        continue;
      }
      outcome(digest, undefined, published.shortened);
    }
  }
  for (const ref of refused) told.delete(ref);
  return {
    told,
    messages,
    refused,
    ...(error ? { error } : {}),
    ...(shortened ? { shortened } : {}),
  };
}
