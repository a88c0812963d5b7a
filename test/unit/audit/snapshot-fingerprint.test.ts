import {
  type AlertPolicy,
  committable,
  DEFAULT_POLICY,
  diffSnapshot,
  type Finding,
  type InhibitRule,
  keyPrintOf,
  type Silence,
  type SnapshotEntry,
  type SnapshotFingerprint,
  unchangedSince,
} from "@fleet-auditor/audit";
import { kebPresenter } from "@fleet-auditor/keb-audits";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { finding } from "../../helpers/findings.ts";

// The fingerprint stands in for the snapshot only to say "this run changes nothing": whenever it
// says so, the diff over the snapshot itself must give no transition and no write.

const T0 = new Date("2026-11-01T00:00:00Z");
const hours = (h: number): Date => new Date(T0.getTime() + h * 3_600_000);
const { problemKey } = kebPresenter;
const silence: Silence = {
  id: "s1",
  match: [{ name: "instance", op: "=", value: "quiet" }],
  startsAt: T0.toISOString(),
  endsAt: hours(1_000).toISOString(),
  createdBy: "sre",
  comment: "maintenance",
};

// A runtime in `error` holds back the `failed` ones of its account (every test runtime's is ga-1).
const inhibitRules: InhibitRule[] = [
  {
    sourceMatchers: [{ name: "state", op: "=", value: "error" }],
    targetMatchers: [{ name: "state", op: "=", value: "failed" }],
    equal: ["account"],
  },
];

interface Step {
  findings: Finding[];
  at: Date;
  complete?: boolean;
  policy?: AlertPolicy;
}

/** The diff over `snapshot`, and what the fingerprint of `snapshot` says of the same run. */
function judge(snapshot: Map<string, SnapshotEntry>, step: Step) {
  const input = {
    audit: "failing",
    findings: step.findings,
    problemKey,
    complete: step.complete ?? true,
    now: step.at,
    policy: step.policy ?? DEFAULT_POLICY,
    silences: [silence],
    inhibitRules,
  };
  const diff = diffSnapshot({ ...input, previous: snapshot });
  return { diff, unchanged: unchangedSince(fingerprintOf(snapshot), input) };
}

function fingerprintOf(snapshot: Map<string, SnapshotEntry>): SnapshotFingerprint {
  return new Map([...snapshot].map(([key, e]) => [key, keyPrintOf(e, problemKey)]));
}

/** The snapshot after a run whose every message was told. */
function commitRun(snapshot: Map<string, SnapshotEntry>, step: Step): Map<string, SnapshotEntry> {
  const { diff } = judge(snapshot, step);
  const next = new Map(snapshot);
  const told = new Set(diff.transitions.map((_, i) => i));
  for (const c of committable(diff, { told, refused: new Set() })) {
    if (c.op === "put") next.set(c.entry.key, c.entry);
    else next.delete(c.key);
  }
  return next;
}

const base = (): Map<string, SnapshotEntry> =>
  commitRun(new Map(), { findings: [finding("a"), finding("b"), finding("quiet")], at: T0 });

describe("unchangedSince", () => {
  it("shows a run that lists what the snapshot holds, before any reminder is due, as changing nothing", () => {
    const { diff, unchanged } = judge(base(), {
      findings: [finding("a"), finding("b"), finding("quiet")],
      at: hours(2),
    });
    expect(unchanged).toBe(true);
    expect(diff).toEqual({ transitions: [], changes: [] });
  });

  it("does not stand in for the snapshot when a finding is new, changed, due, or absent from a complete scan", () => {
    const cases: Array<[string, Step]> = [
      ["new", { findings: [finding("a"), finding("b"), finding("quiet"), finding("c")], at: hours(2) }],
      ["changed", { findings: [finding("a", "error"), finding("b"), finding("quiet")], at: hours(2) }],
      [
        "new operation",
        {
          findings: [finding("a", "failed", "critical", "op-2"), finding("b"), finding("quiet")],
          at: hours(2),
        },
      ],
      ["reminder due", { findings: [finding("a"), finding("b"), finding("quiet")], at: hours(25) }],
      ["absent", { findings: [finding("a"), finding("quiet")], at: hours(2) }],
    ];
    for (const [what, step] of cases) {
      const { diff, unchanged } = judge(base(), step);
      expect({ what, unchanged }).toEqual({ what, unchanged: false });
      expect({ what, told: diff.transitions.length + diff.changes.length > 0 }).toEqual({ what, told: true });
    }
  });

  it("lets an incomplete scan that missed an entry change nothing, as the diff does", () => {
    const { diff, unchanged } = judge(base(), { findings: [finding("a")], at: hours(2), complete: false });
    expect(unchanged).toBe(true);
    expect(diff).toEqual({ transitions: [], changes: [] });
  });

  it("keeps a silenced finding that was never told quiet, and a pending or clearing one for the diff", () => {
    const snapshot = base();
    expect(snapshot.get("quiet")?.notifiedAt).toBeNull();
    expect(
      judge(snapshot, { findings: [finding("a"), finding("b"), finding("quiet")], at: hours(30) }).unchanged,
    ).toBe(false);
    const twice = { ...DEFAULT_POLICY, fireAfterRuns: 2, resolveAfterRuns: 2 };
    const pending = commitRun(new Map(), { findings: [finding("p")], at: T0, policy: twice });
    expect(judge(pending, { findings: [finding("p")], at: hours(1), policy: twice }).unchanged).toBe(false);
    const clearing = commitRun(base(), {
      findings: [finding("a"), finding("quiet")],
      at: hours(1),
      policy: twice,
    });
    expect(clearing.get("b")?.clearRuns).toBe(1);
    expect(
      judge(clearing, {
        findings: [finding("a"), finding("b"), finding("quiet")],
        at: hours(2),
        policy: twice,
      }).unchanged,
    ).toBe(false);
  });

  it("keeps a finding an inhibition held back since it fired quiet while its source fires, and not once it stops", () => {
    const snapshot = commitRun(new Map(), { findings: [finding("src", "error"), finding("a")], at: T0 });
    expect(snapshot.get("a")?.notifiedAt).toBeNull();
    const still = judge(snapshot, { findings: [finding("src", "error"), finding("a")], at: hours(2) });
    expect(still.unchanged).toBe(true);
    expect(still.diff).toEqual({ transitions: [], changes: [] });
    // An incomplete scan that no longer lists the source: `a` is told now, so this is no steady run.
    const released = judge(snapshot, { findings: [finding("a")], at: hours(3), complete: false });
    expect(released.unchanged).toBe(false);
    expect(released.diff.transitions).toMatchObject([{ kind: "firing", key: "a" }]);
  });

  it("never says unchanged where the diff would tell or write, over many runs of a moving fleet", () => {
    // A small fleet whose runtimes come, go, change state and operation, over a day and a half
    // of hourly runs, some incomplete, with a policy that keeps entries pending and clearing.
    const policy = {
      ...DEFAULT_POLICY,
      fireAfterRuns: 2,
      resolveAfterRuns: 2,
      repeatIntervalMs: 5 * 3_600_000,
    };
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    let snapshot = new Map<string, SnapshotEntry>();
    let agreed = 0;
    for (let h = 0; h < 36; h++) {
      const findings = ["a", "b", "c", "quiet", "e"]
        .filter(() => random() < 0.8)
        .map((id) =>
          finding(id, random() < 0.9 ? "failed" : "error", "critical", random() < 0.9 ? "op-1" : "op-2"),
        );
      const step = { findings, at: hours(h), complete: random() < 0.8, policy };
      const { diff, unchanged } = judge(snapshot, step);
      if (unchanged) {
        expect(diff).toEqual({ transitions: [], changes: [] });
        agreed++;
      }
      snapshot = commitRun(snapshot, step);
    }
    expect(agreed).toBeGreaterThan(0);
  });
});

describe("keyPrintOf", () => {
  // Prints are stored: a problem's hash must stay what the stored ones were written with
  // (cyrb53 in base 36, as `toString(36)` spells it), or every steady run reads the snapshot.
  const stored = (text: string): string => {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
  };
  const entry = (key: string): SnapshotEntry => ({
    key,
    finding: finding(key),
    phase: "firing",
    flaggedRuns: 1,
    clearRuns: 0,
    firstSeenAt: T0.toISOString(),
    notifiedAt: null,
    version: 1,
  });

  it("hashes a problem as the stored prints were hashed", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 80 }), (problem) => {
        expect(keyPrintOf(entry("k"), () => problem).problem).toBe(stored(problem));
      }),
      { numRuns: Number(process.env.FLEET_AUDITOR_PROPERTY_RUNS ?? 1_000) },
    );
    expect(keyPrintOf(entry("k"), () => "failed||op-1|failed").problem).toBe(stored("failed||op-1|failed"));
  });
});
