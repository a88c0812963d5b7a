// What someone does to an incident where its message landed (a Slack button, a PagerDuty
// webhook) or from a terminal (`incidents ack`): acknowledge it (reminders stop, the pager's page
// is acknowledged), take that back, silence it by its key, or tell that PagerDuty resolved a page
// whose incident still fails. Each is written into the incident's history and told in its thread.

import {
  type Acknowledgement,
  type AlertPublisher,
  type AuditStateStore,
  type IncidentActionStore,
  type IncidentEvent,
  type IncidentRecord,
  incidentLabel,
  oneLine,
  type Silence,
  type SnapshotEntry,
} from "@fleet-auditor/audit";
import { type IncidentActionFacts, incidentActionNotice } from "@fleet-auditor/render";
import type { RunLogger } from "./ports.ts";

/** What someone does to an incident from where its message landed, or from a terminal. */
export type IncidentAction =
  | { kind: "acknowledge"; key: string; by: string; comment?: string }
  | { kind: "unacknowledge"; key: string; by: string; comment?: string }
  /** A silence of that incident by its key (matcher `incident_<route>=KEY`), for `forMs`. */
  | { kind: "silence"; key: string; by: string; forMs: number; comment?: string }
  /** PagerDuty resolved an incident that still fails here: recorded and told. */
  | { kind: "resolvedInPager"; key: string; by: string };

/** What became of an action. */
export interface IncidentActionResult {
  /** `applied`: done now; `already`: it was so already and nothing changed; `unknown`: no open incident has that key. */
  outcome: "applied" | "already" | "unknown";
  /** The incidents it changed: the one named and those it was mirrored to. */
  keys: string[];
  /** A silence's ID, for `silence` (the first, for a roll-up's incidents). */
  silenceId?: string;
}

/** What acting on incidents talks to, and the values it acts by. */
export interface IncidentActionDeps {
  ports: {
    actions: IncidentActionStore;
    /** The snapshot: which incidents share members with the one named (mirroring). */
    store: Pick<AuditStateStore, "loadSnapshot">;
    silences: { add(silence: Silence): Promise<void> };
    publisher: AlertPublisher;
  };
  /** The audits whose incidents it may act on. */
  audits: readonly string[];
  settings?: { landscape?: string; incidentRetentionDays?: number };
  hooks?: { clock?: () => Date; newId?: () => string; log?: RunLogger };
}

/** Incidents a roll-up's silence covers at most, one silence each. */
const ROLL_UP_SILENCES = 100;
/** Chat threads an action is told in at most (a page with many chat incidents under it). */
const THREADS_TOLD = 20;

/** The incident named, the audit it is in, and every incident an acknowledgement of it mirrors to. */
interface Target {
  audit: string;
  /** The key named: an incident's, or a roll-up's. */
  key: string;
  /** The incidents it stands for (a roll-up: its incidents), with those sharing their members. */
  records: IncidentRecord[];
  /** The incidents it names itself (not mirrored): what a silence covers. */
  own: IncidentRecord[];
  /** The chat thread its messages go to. */
  thread: string;
}

/**
 * Applies an action to an open incident: an acknowledgement goes on the incident named and every
 * open incident of another route that shares its members (and, for a roll-up's key, on each
 * incident rolled up); each is written once (a second one finds it `already`), recorded in its
 * timeline and told: in the incident's thread, and for an acknowledgement to the pager, which
 * acknowledges the pages of those incidents.
 */
export async function actOnIncident(
  deps: IncidentActionDeps,
  action: IncidentAction,
): Promise<IncidentActionResult> {
  const now = (deps.hooks?.clock ?? (() => new Date()))();
  const at = now.toISOString();
  const target = await targetOf(deps, action.key);
  if (!target) return { outcome: "unknown", keys: [] };
  const expiresAt = Math.floor(now.getTime() / 1000) + (deps.settings?.incidentRetentionDays ?? 90) * 86_400;
  const by = oneLine(action.by, 200);
  const comment = "comment" in action && action.comment ? oneLine(action.comment, 500) : undefined;
  const id = (deps.hooks?.newId ?? (() => crypto.randomUUID()))();
  const event = (key: string, what: IncidentEvent["what"][number], firing: number): IncidentEvent => ({
    key,
    at,
    what: [what],
    joined: 0,
    changed: 0,
    left: 0,
    reminded: 0,
    silenced: 0,
    inhibited: 0,
    firing,
    by,
    ...(comment ? { comment } : {}),
  });
  const changed: IncidentRecord[] = [];
  let silence: Silence | undefined;
  switch (action.kind) {
    case "acknowledge": {
      const ack: Acknowledgement = { by, at, ...(comment ? { comment } : {}) };
      changed.push(
        ...(await claimed(target, (r) =>
          deps.ports.actions.acknowledge(target.audit, r.key, ack, expiresAt),
        )),
      );
      for (const r of changed)
        await deps.ports.actions.addEvent(event(r.key, "acknowledged", r.firing), id, expiresAt);
      break;
    }
    case "unacknowledge": {
      changed.push(...(await claimed(target, (r) => deps.ports.actions.unacknowledge(target.audit, r.key))));
      for (const r of changed)
        await deps.ports.actions.addEvent(event(r.key, "unacknowledged", r.firing), id, expiresAt);
      break;
    }
    case "silence": {
      const endsAt = new Date(now.getTime() + action.forMs).toISOString();
      for (const [i, r] of target.own.slice(0, ROLL_UP_SILENCES).entries()) {
        const one: Silence = {
          id: i === 0 ? id : `${id}-${i}`,
          audit: target.audit,
          match: [{ name: incidentLabel(r.route), op: "=", value: r.key }],
          startsAt: at,
          endsAt,
          createdBy: by,
          comment: comment ?? `silenced from where its message landed (${by})`,
        };
        await deps.ports.silences.add(one);
        await deps.ports.actions.addEvent(
          { ...event(r.key, "silenced", r.firing), silences: [one.id] },
          id,
          expiresAt,
        );
        silence ??= one;
        changed.push(r);
      }
      break;
    }
    case "resolvedInPager": {
      for (const r of target.own) {
        if (r.receiver === "critical")
          await deps.ports.actions.markPagerResolved(target.audit, r.key, at, expiresAt);
        await deps.ports.actions.addEvent(event(r.key, "pagerResolved", r.firing), id, expiresAt);
        changed.push(r);
      }
      break;
    }
  }
  if (changed.length === 0) return { outcome: "already", keys: [] };
  await tell(deps, target, action.kind, { by, at, comment, silence }, changed);
  return {
    outcome: "applied",
    keys: changed.map((r) => r.key),
    ...(silence ? { silenceId: silence.id } : {}),
  };
}

/**
 * The records `write` changed: the incident named first (a roll-up's: its first incident), and
 * only if that write took, the others it mirrors to. Two actions at once race for the one named:
 * the one that loses changes nothing, so each is applied, mirrored and told once.
 */
async function claimed(
  target: Target,
  write: (record: IncidentRecord) => Promise<boolean>,
): Promise<IncidentRecord[]> {
  const [first, ...rest] = [...target.own, ...target.records.filter((r) => !target.own.includes(r))];
  if (!first || !(await write(first))) return [];
  const changed = [first];
  for (const r of rest) if (await write(r)) changed.push(r);
  return changed;
}

/** The action's notice in the incident's thread, and for an acknowledgement one per page to the pager. */
async function tell(
  deps: IncidentActionDeps,
  target: Target,
  action: IncidentAction["kind"],
  done: { by: string; at: string; comment: string | undefined; silence: Silence | undefined },
  changed: readonly IncidentRecord[],
): Promise<void> {
  const kind = action === "resolvedInPager" ? "pagerResolved" : action;
  const facts: IncidentActionFacts = {
    ...(deps.settings?.landscape ? { landscape: deps.settings.landscape } : {}),
    audit: target.audit,
    at: done.at,
    action: kind,
    by: done.by,
    ...(done.comment ? { comment: done.comment } : {}),
    incident: { key: target.key, thread: target.thread },
    pages: [],
    ...(done.silence ? { silence: { id: done.silence.id, endsAt: done.silence.endsAt } } : {}),
  };
  for (const incident of threadsOf(target, changed))
    await deps.ports.publisher.publish({
      ...incidentActionNotice({ ...facts, incident }),
      topics: ["incidents"],
    });
  if (action !== "acknowledge") return;
  const pages = new Set(changed.filter((r) => r.receiver === "critical").map((r) => r.thread ?? r.key));
  for (const page of pages)
    await deps.ports.publisher.publish({
      ...incidentActionNotice({ ...facts, pages: [page] }),
      topics: ["critical"],
    });
}

/**
 * Where an action is told: in the thread of each chat incident it changed (a page's acknowledgement
 * in PagerDuty: the chat incidents under that page; a roll-up's: the roll-up's one thread); when it
 * changed none (a page PagerDuty resolved), in those of the chat incidents sharing the target's
 * members; else in the target's own. A page has no thread anyone reads: telling there posts a
 * message of its own in the channel that names a key no one saw. Each notice names the incident the
 * thread is about: the target when the thread is its own, else the one incident there (or the
 * roll-up whose thread it is).
 */
function threadsOf(
  target: Target,
  changed: readonly IncidentRecord[],
): Array<{ key: string; thread: string }> {
  const chat = (records: readonly IncidentRecord[]) => records.filter((r) => r.receiver === "incidents");
  const told = chat(changed).length > 0 ? chat(changed) : chat(target.records);
  const threads = new Map<string, string[]>();
  for (const r of told) {
    const thread = r.flapping?.postedIn ?? r.thread ?? r.key;
    threads.set(thread, [...(threads.get(thread) ?? []), r.key]);
  }
  if (threads.size === 0) return [{ key: target.key, thread: target.thread }];
  return [...threads].slice(0, THREADS_TOLD).map(([thread, keys]) => ({
    key:
      thread === target.thread || keys.includes(target.key)
        ? target.key
        : keys.length === 1
          ? (keys[0] as string)
          : thread,
    thread,
  }));
}

/** The open incident (or roll-up) a key names, with the incidents an acknowledgement mirrors to. */
async function targetOf(deps: IncidentActionDeps, key: string): Promise<Target | undefined> {
  const found = await deps.ports.actions.findIncident(deps.audits, key);
  if (found?.record.endedAt) return undefined;
  const audits = found ? [found.audit] : deps.audits;
  for (const audit of audits) {
    const snapshot = await deps.ports.store.loadSnapshot(audit);
    const members = [...snapshot.values()].filter((e) =>
      refsOf(e).some((r) => r.key === key || r.thread === key),
    );
    if (!found && members.length === 0) continue;
    const own = new Set<string>(found ? [key] : []);
    const mirrored = new Set<string>(own);
    for (const e of members)
      for (const r of refsOf(e)) {
        mirrored.add(r.key);
        if (r.thread === key) own.add(r.key);
      }
    const records = await recordsOf(deps, audit, [...mirrored]);
    const open = records.filter((r) => !r.endedAt);
    if (open.length === 0) return undefined;
    const named = found?.record;
    return {
      audit,
      key,
      records: open,
      own: open.filter((r) => own.has(r.key)),
      thread: named ? (named.flapping?.postedIn ?? named.thread ?? named.key) : key,
    };
  }
  return undefined;
}

/** A firing entry's incidents on every route it is on. */
function refsOf(entry: SnapshotEntry): Array<{ key: string; thread?: string }> {
  if (entry.phase !== "firing") return [];
  return [...(entry.incident ? [entry.incident] : []), ...Object.values(entry.routes ?? {})];
}

async function recordsOf(
  deps: IncidentActionDeps,
  audit: string,
  keys: readonly string[],
): Promise<IncidentRecord[]> {
  // One read per incident, all at once: a roll-up mirrors to as many incidents as it rolled up.
  const found = await Promise.all(keys.map((key) => deps.ports.actions.findIncident([audit], key)));
  return found.flatMap((f) => (f ? [f.record] : []));
}
