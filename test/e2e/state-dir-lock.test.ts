import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { lockStateDir } from "../../packages/store/src/state-dir-lock.ts";
import { cli, emptyStateDir } from "../helpers/cli.ts";

// The embedded store under a state directory is one process's at a time: the directory lock says
// whose, and LevelDB's own lock guards its files. Both are tried here by real processes.

/** Above any PID Linux hands out (at most 2^22): never a running process. */
const DEAD = 2_147_483_646;
const CONTENDER = new URL("../helpers/state-dir-contender.ts", import.meta.url).pathname;
const REPO = new URL("../../", import.meta.url).pathname;

/** A child process and its stdout, a line at a time. */
interface Child {
  process: ChildProcessWithoutNullStreams;
  next(): Promise<string>;
  exited: Promise<unknown>;
}

function child(args: string[]): Child {
  const proc = spawn(process.execPath, args, { cwd: REPO, env: { PATH: process.env.PATH ?? "" } });
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  createInterface({ input: proc.stdout }).on("line", (line) => {
    const wake = waiting.shift();
    if (wake) wake(line);
    else lines.push(line);
  });
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  return {
    process: proc,
    next: () => {
      const line = lines.shift();
      return line === undefined ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve(line);
    },
    exited,
  };
}

/**
 * `n` processes start at once on `dir`, `trials` times: each trial, every contender tries the lock
 * in the same instant, and the one that got it is killed after (its lock left behind, stale, as a
 * killed command leaves it) and replaced, so the next trial races over a stale lock. Returns what
 * each trial's contenders got; the last holder releases normally.
 */
async function race(dir: string, n: number, trials: number): Promise<string[][]> {
  const ready = async (c: Child) => {
    expect(await c.next()).toBe("ready");
    return c;
  };
  const pool = await Promise.all(Array.from({ length: n }, () => ready(child([CONTENDER, dir]))));
  const results: string[][] = [];
  for (let trial = 0; trial < trials; trial++) {
    const at = Date.now() + 150;
    for (const c of pool) c.process.stdin.write(`go ${at}\n`);
    const outcomes = await Promise.all(pool.map((c) => c.next()));
    results.push(outcomes);
    const holder = outcomes.indexOf("held");
    if (outcomes.lastIndexOf("held") !== holder || holder < 0 || trial === trials - 1) break;
    const killed = pool[holder] as Child;
    killed.process.kill("SIGKILL");
    await killed.exited;
    pool[holder] = await ready(child([CONTENDER, dir]));
  }
  for (const c of pool) c.process.stdin.end();
  await Promise.all(pool.map((c) => c.exited));
  return results;
}

describe("the state directory lock", () => {
  it("goes to exactly one of many processes that start at once, over a stale lock too", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-lock-race-"));
    // The first trial starts on a free directory, every later one over the killed holder's lock.
    const trials = await race(dir, 8, 10);
    for (const [i, outcomes] of trials.entries()) {
      expect(
        outcomes.filter((o) => o === "held"),
        `trial ${i}: ${outcomes.join(", ")}`,
      ).toHaveLength(1);
      expect(outcomes.filter((o) => o !== "held")).toEqual(Array(7).fill("busy STORE_STATE_DIR_IN_USE"));
    }
    expect(trials).toHaveLength(10);
    // The last holder released: no lock, take-over marker or temporary file is left.
    expect(readdirSync(dir)).toEqual([]);
  }, 120_000);

  it("takes over a stale lock whose take-over a killed process left half done", () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-lock-chain-"));
    const lock = join(dir, "fleet-auditor.lock");
    const markerOf = (text: string) =>
      `${lock}.takeover-${createHash("sha256").update(text).digest("hex").slice(0, 32)}`;
    // A dead process's lock, a dead process's marker taking it over, and one taking that over.
    writeFileSync(lock, `${DEAD} aaaa\n`);
    writeFileSync(markerOf(`${DEAD} aaaa\n`), `${DEAD} bbbb\n`);
    writeFileSync(markerOf(`${DEAD} bbbb\n`), `${DEAD} cccc\n`);
    const release = lockStateDir(dir);
    expect(readFileSync(lock, "utf8")).toMatch(new RegExp(`^${process.pid} [0-9a-f]{32}\n$`));
    expect(readdirSync(dir)).toEqual(["fleet-auditor.lock"]);
    // Held by a running process now: the next start is refused, naming it.
    expect(() => lockStateDir(dir)).toThrow(`is in use by process ${process.pid}`);
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("takes over a lock that a killed process with this process's PID left, as a restarted container's PID 1", () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-lock-pid-"));
    writeFileSync(join(dir, "fleet-auditor.lock"), `${process.pid} 0123456789abcdef0123456789abcdef\n`);
    const release = lockStateDir(dir);
    expect(() => lockStateDir(dir)).toThrow(`is in use by process ${process.pid}`);
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("says an embedded store another process has open is in use, never that it is damaged", async () => {
    const dir = await emptyStateDir("fa-level-busy-");
    // Another program has the store's LevelDB open (it knows nothing of the directory lock).
    const holder = child([
      "--input-type=module",
      "-e",
      `import { Level } from "level";
       const db = new Level(process.argv[1]);
       await db.open();
       process.stdout.write("open\\n");
       process.stdin.on("end", () => db.close()).resume();`,
      join(dir, "dynamodb"),
    ]);
    expect(await holder.next()).toBe("open");
    const busy = await cli(["runs", "list", "--state-dir", dir]);
    holder.process.stdin.end();
    await holder.exited;
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/the embedded store in \S+dynamodb is in use by another process/);
    expect(busy.stderr).toContain("The store is not damaged");
    expect(busy.stderr).not.toMatch(/cannot be opened|move it aside/);
    // The store was never damaged: once the other process is gone it opens as it was.
    expect(await cli(["runs", "list", "--state-dir", dir])).toMatchObject({ code: 0, stdout: "no runs\n" });
  });
});
