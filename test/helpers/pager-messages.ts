import type { AuditHealth, Transition } from "@fleet-auditor/audit";
import { healthNotice, renderDigests } from "@fleet-auditor/render";
import { forLambda } from "./sns-event.ts";
import { AT, ctx, t } from "./transitions.ts";

// What the Critical topic delivers to the pager, as SNS gives a Lambda subscriber the publish's
// `default`: incident messages (a structured digest with `incident`) and health notices.

/** An incident message: the digest of `transitions` telling incident `key` as `status`. */
export function incidentText(
  status: "firing" | "resolved",
  key: string,
  transitions: Transition[] = [t(1, status)],
  over: { runId?: string; at?: string } = {},
): string {
  const runId = over.runId ?? "run-1";
  const [m] = renderDigests(
    {
      ...ctx,
      runId,
      at: over.at ?? AT,
      report: { stored: true, command: `fleet-auditor runs show ${runId}` },
      incident: { key, status, startsAt: "2026-11-30T04:00:00.000Z" },
    },
    transitions,
  );
  if (!m) throw new Error("no digest rendered");
  return forLambda(m.message);
}

/** A run's digest as an older release copied it to the Critical topic: no `incident`. */
export function runDigestText(transitions: Transition[] = [t(1)]): string {
  const [m] = renderDigests(ctx, transitions);
  if (!m) throw new Error("no digest rendered");
  return forLambda(m.message);
}

const BAD: AuditHealth = {
  badRuns: 3,
  badSince: "2026-11-30T03:00:00.000Z",
  lastReason: "page 1 failed: HTTP 503",
  degradedNotified: false,
};

/** A health notice of the episode that began at `since`: `degraded`, or `recovered` from it. */
export function healthText(
  status: "degraded" | "recovered",
  since = BAD.badSince as string,
  runbook?: string,
): string {
  const episode = { ...BAD, badSince: since };
  const hctx = { audit: "failing", runId: `run-${status}`, at: AT, landscape: "prod-eu" };
  const m =
    status === "degraded"
      ? healthNotice({ ...hctx, ...(runbook ? { links: { runbook } } : {}) }, "degraded", episode, episode)
      : healthNotice(hctx, "recovered", { ...episode, badRuns: 0, badSince: null }, episode);
  return forLambda(m.message);
}
