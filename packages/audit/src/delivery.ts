import type { DiffResult } from "./diff.ts";
import type { DigestMessage } from "./message.ts";
import { heldBack, type SnapshotChange, type TransitionRef } from "./snapshot.ts";

/**
 * The contract between the diff, the digests and the commit, in one place.
 *
 * `diffSnapshot` numbers a run's transitions (`TransitionRef`) and ties each snapshot write that
 * depends on a notification to one of them. `renderDigests` (`@fleet-auditor/render`) says which
 * transitions each message lists (`transitions`) and which it tells only as "+N more"
 * (`omitted`). After publishing, the use cases know which messages went out; `toldBy` turns that
 * into transitions, and `committable` into the snapshot writes that may be committed.
 *
 * The rules:
 * - A transition is told when a message that names it was accepted, or one that counts it (in a
 *   group line or "+N more") was accepted and the run report, which names it, was stored. The
 *   counted ones must count as told, or a large incident would be re-sent on every run; and
 *   only a stored report makes them retrievable.
 * - A message SNS refused as too long, whose `short` form was accepted instead (`shortened`),
 *   tells what the short form tells (`toldBy(digest.short, …)`): it names none, so its
 *   transitions are told only with a stored report.
 * - A transition held back (`heldBack`: silenced, or inhibited by a firing finding) is published
 *   in no digest and counts as done, unless a message that carries it anyway was refused: a
 *   pager's resolve carries a held-back incident's end (the alert it closes opened before the
 *   silence or the inhibition), and the next run must send it again.
 * - A write tied to a transition that was not told is not committed, so the next run sees the
 *   same transition again and sends it again.
 */
export interface Delivery {
  /** Transitions a published message told (listed or counted as "+N more"). */
  told: ReadonlySet<TransitionRef>;
  /** Messages accepted. */
  messages: number;
  /** Transitions a refused message carried (held-back ones included): sent again next run. */
  refused: ReadonlySet<TransitionRef>;
  /** A baseline: `told` holds what is remembered as told, though nobody was. */
  quiet?: true;
  /** Why the first refused message was refused. */
  error?: string;
  /** Messages accepted only in their short form (SNS refused them as too long). */
  shortened?: number;
}

/** The transitions one accepted digest tells: those it names, and those it counts if the report is stored. */
export function toldBy(
  digest: Pick<DigestMessage, "transitions" | "omitted">,
  reportStored: boolean,
): TransitionRef[] {
  return reportStored ? [...digest.transitions, ...digest.omitted] : [...digest.transitions];
}

/** A baseline run tells nobody and remembers every transition as told. */
export function toldQuietly(diff: DiffResult): Delivery {
  return { told: new Set(diff.transitions.keys()), messages: 0, refused: new Set(), quiet: true };
}

/**
 * The snapshot writes to commit given what was told. Held-back transitions count as done, but
 * for one a refused message carried.
 */
export function committable(
  diff: DiffResult,
  delivery: Pick<Delivery, "told" | "refused">,
): SnapshotChange[] {
  return diff.changes.filter(
    (c) =>
      c.transition === undefined ||
      delivery.told.has(c.transition) ||
      (heldBack(diff.transitions[c.transition]) && !delivery.refused.has(c.transition)),
  );
}
