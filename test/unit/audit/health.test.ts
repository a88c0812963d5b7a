import { type AuditHealth, HEALTHY, nextHealth } from "@fleet-auditor/audit";
import { describe, expect, it } from "vitest";

// An audit's health between runs: bad runs (incomplete or failed) count, the third in a row owes
// one degraded notice, and the first good run after it one recovered; a healthy audit's good
// run changes nothing, so a steady run writes no health item.

const good = (at: string) => ({ ok: true, at, reason: null });
const bad = (at: string, reason = "KEB answered 503") => ({ ok: false, at, reason });

/**
 * The health after `runs`, from healthy, with the notice each run owed; each notice is sent, and
 * a sent degraded notice marked as the run's finish marks it.
 */
function through(
  runs: Array<{ ok: boolean; at: string; reason: string | null }>,
  degradedAfterRuns?: number,
) {
  let health: AuditHealth = HEALTHY;
  const notices: Array<string | undefined> = [];
  for (const run of runs) {
    const step = nextHealth(health, run, degradedAfterRuns);
    health = step.notice === "degraded" ? { ...step.health, degradedNotified: true } : step.health;
    notices.push(step.notice);
  }
  return { health, notices };
}

describe("nextHealth", () => {
  it("changes nothing and writes nothing after a good run while healthy", () => {
    const step = nextHealth(HEALTHY, good("t1"));
    expect(step).toEqual({ health: HEALTHY, changed: false });
    expect(step.health).toBe(HEALTHY);
  });

  it("counts bad runs from the first one's time, keeping the latest reason", () => {
    const first = nextHealth(HEALTHY, bad("t1", "first"));
    expect(first).toEqual({
      health: { badRuns: 1, badSince: "t1", lastReason: "first", degradedNotified: false },
      changed: true,
    });
    const second = nextHealth(first.health, bad("t2", "second"));
    expect(second.health).toEqual({
      badRuns: 2,
      badSince: "t1",
      lastReason: "second",
      degradedNotified: false,
    });
    expect(second.changed).toBe(true);
    expect(second).not.toHaveProperty("notice");
  });

  it("owes one degraded notice at the third bad run in a row, and none after it in the same episode", () => {
    const { health, notices } = through([bad("t1"), bad("t2"), bad("t3"), bad("t4"), bad("t5")]);
    expect(notices).toEqual([undefined, undefined, "degraded", undefined, undefined]);
    expect(health).toEqual({
      badRuns: 5,
      badSince: "t1",
      lastReason: "KEB answered 503",
      degradedNotified: true,
    });
    expect(through([bad("t1"), bad("t2"), bad("t3"), good("t4")]).notices.at(-1)).toBe("recovered");
  });

  it("owes the degraded notice at the number of bad runs it is given", () => {
    expect(through([bad("t1")], 1).notices).toEqual(["degraded"]);
    expect(through([bad("t1"), bad("t2"), bad("t3"), bad("t4")], 4).notices).toEqual([
      undefined,
      undefined,
      undefined,
      "degraded",
    ]);
  });

  it("keeps owing the degraded notice while it was not sent: the caller marks it notified once it is out", () => {
    const third = nextHealth(through([bad("t1"), bad("t2")]).health, bad("t3")).health;
    expect(third.degradedNotified).toBe(false);
    // The notice was refused: degradedNotified stays false, so the next bad run owes it again.
    expect(nextHealth(third, bad("t4")).notice).toBe("degraded");
    expect(nextHealth({ ...third, degradedNotified: true }, bad("t4"))).not.toHaveProperty("notice");
  });

  it("owes one recovered notice at the first good run after a degraded notice, and is healthy again", () => {
    const degraded: AuditHealth = { badRuns: 3, badSince: "t1", lastReason: "x", degradedNotified: true };
    const back = nextHealth(degraded, good("t4"));
    expect(back).toEqual({ health: HEALTHY, changed: true, notice: "recovered" });
    expect(nextHealth(back.health, good("t5"))).toEqual({ health: HEALTHY, changed: false });
  });

  it("forgets bad runs at a good run without a notice when none was sent", () => {
    const twice = through([bad("t1"), bad("t2")]).health;
    const back = nextHealth(twice, good("t3"));
    expect(back).toEqual({ health: HEALTHY, changed: true });
    // The count starts again: two more bad runs owe nothing yet.
    expect(through([bad("t1"), bad("t2"), good("t3"), bad("t4"), bad("t5")]).notices).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("keeps the left-out findings already told through bad runs and recovery", () => {
    const told = { ...HEALTHY, leftOutTold: ["d1"] };
    const worse = nextHealth(told, bad("t1"), 1);
    expect(worse.health.leftOutTold).toEqual(["d1"]);
    const back = nextHealth({ ...worse.health, degradedNotified: true }, good("t2"));
    expect(back.health).toEqual({ ...HEALTHY, leftOutTold: ["d1"] });
  });
});
