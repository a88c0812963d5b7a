import { createHash, randomBytes } from "node:crypto";
import { linkSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { StateDirInUseError } from "./errors.ts";

const LOCK = "fleet-auditor.lock";
/** Fresh starts after a lock vanished or a take-over backed off; each needs another process to move. */
const ATTEMPTS = 16;
/** Take-overs of take-overs that died; each level needs a process killed inside a few syscalls. */
const MAX_CHAIN = 64;
/** A temporary or marker file this old was left by a process killed while it took the lock. */
const LEFT_BEHIND_MS = 60_000;

/** The claims this process made and still holds: its own PID in a lock it did not make is stale. */
const OURS = new Set<string>();

/** What a lock or take-over marker file says: `<pid> <nonce>`, unique to one taking. */
interface Claim {
  text: string;
  pid: number;
}

/**
 * Takes the state directory for this process, or throws `StateDirInUseError` naming the process
 * that has it: two processes on one embedded store corrupt it (LevelDB answers the second with
 * "Database is closed"). A lock left by a process that no longer runs is taken over. Returns
 * the release.
 *
 * Exactly one of any number of processes starting at once gets the directory. Why it holds:
 * - Every file is written whole under a temporary name and then linked (`link()`: fails if the
 *   name exists, like `O_EXCL`) or renamed into place, so no reader ever sees an empty lock
 *   (which would look stale) and creating a lock is atomic: of N creators, one wins.
 * - A stale lock is never removed (remove-then-create let two processes each remove and create).
 *   It is replaced by one `rename()`, by the one process that first created the take-over marker
 *   named after that lock's content, `fleet-auditor.lock.takeover-<hash>`, with `link()`. A claim
 *   holds a fresh nonce, so the marker names one stale lock; whoever loses it sees its living
 *   creator and stands back.
 * - The winner re-reads the lock after taking the marker: if the lock changed (a slow process
 *   took the marker of a lock already replaced), it backs off. Only the marker's holder replaces
 *   that lock, so once the re-read matches it stays so until the rename.
 * - A marker whose creator died mid-take-over is taken over the same way, by a marker named after
 *   its content: a chain whose only living link is at its end. What a killed process leaves
 *   (markers, temporary files) is cleared by a later holder once a minute old: no living process
 *   keeps one that long.
 * Process IDs are this host's: a directory shared across hosts (NFS) is guarded by LevelDB's own
 * lock only, which `startEmbeddedDynamo` reports as in use too.
 */
export function lockStateDir(dir: string): () => void {
  const path = join(dir, LOCK);
  const mine = `${process.pid} ${randomBytes(16).toString("hex")}\n`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (placeNew(dir, path, mine)) return held(dir, path, mine);
    const holder = readClaim(path);
    if (!holder) continue; // released meanwhile: try to create it again
    if (alive(holder)) throw new StateDirInUseError(dir, holder.pid);
    if (takeOver(dir, path, holder, mine)) return held(dir, path, mine);
  }
  // Locks kept appearing and going: other processes are taking the directory in turn.
  throw new StateDirInUseError(dir);
}

/** Replaces the stale lock `stale` with `mine`, if this process wins its take-over marker. */
function takeOver(dir: string, path: string, stale: Claim, mine: string): boolean {
  // chain[0] is the lock; chain[i] the marker, left by a dead process, that took over chain[i-1].
  const chain: Claim[] = [stale];
  for (;;) {
    const tip = chain[chain.length - 1] as Claim;
    if (placeNew(dir, markerOf(dir, tip), mine)) break;
    const claim = readClaim(markerOf(dir, tip));
    if (!claim || chain.length >= MAX_CHAIN) return false;
    if (alive(claim)) throw new StateDirInUseError(dir, claim.pid);
    chain.push(claim);
  }
  const marker = markerOf(dir, chain[chain.length - 1] as Claim);
  const unchanged =
    readClaim(path)?.text === stale.text &&
    chain.slice(1).every((claim, i) => readClaim(markerOf(dir, chain[i] as Claim))?.text === claim.text);
  if (!unchanged) {
    removeIfMine(marker, mine);
    return false;
  }
  const temp = tempOf(dir);
  writeFileSync(temp, mine, { flag: "wx" });
  renameSync(temp, path);
  // The markers name claims that are gone for good (nonces never repeat): nothing reads them now.
  for (const claim of chain) rmSync(markerOf(dir, claim), { force: true });
  return true;
}

/** Creates `target` holding `text`, whole, unless it exists. */
function placeNew(dir: string, target: string, text: string): boolean {
  const temp = tempOf(dir);
  writeFileSync(temp, text, { flag: "wx" });
  try {
    linkSync(temp, target);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Ours now: clears what processes killed while taking the lock left behind, and returns the release. */
function held(dir: string, path: string, mine: string): () => void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(`${LOCK}.`)) continue;
    const file = join(dir, name);
    try {
      if (now - statSync(file).mtimeMs > LEFT_BEHIND_MS) rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
  return release(path, mine);
}

function release(path: string, mine: string): () => void {
  OURS.add(mine);
  // Only our own lock: never one a later process holds.
  return () => {
    removeIfMine(path, mine);
    OURS.delete(mine);
  };
}

function removeIfMine(path: string, mine: string): void {
  if (readClaim(path)?.text === mine) rmSync(path, { force: true });
}

function readClaim(path: string): Claim | undefined {
  try {
    const text = readFileSync(path, "utf8");
    // An older version wrote the PID alone; it reads the same.
    return { text, pid: Number(text.trim().split(/\s+/)[0]) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

const markerOf = (dir: string, claim: Claim): string =>
  join(dir, `${LOCK}.takeover-${createHash("sha256").update(claim.text).digest("hex").slice(0, 32)}`);

const tempOf = (dir: string): string => join(dir, `${LOCK}.${randomBytes(8).toString("hex")}.tmp`);

function alive(claim: Claim): boolean {
  const { pid } = claim;
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // Our PID on a claim we never made: a killed process that had it before us (a container's
  // PID 1 comes back with every restart). A bare PID (an older version's lock) cannot tell.
  if (pid === process.pid) return OURS.has(claim.text) || !/\s\S/.test(claim.text.trim());
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
