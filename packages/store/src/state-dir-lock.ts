import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { StateDirInUseError } from "./errors.ts";

const LOCK = "fleet-auditor.lock";

/**
 * Takes the state directory for this process, or throws `StateDirInUseError` naming the process
 * that has it: two processes on one embedded store corrupt it (LevelDB answers the second with
 * "Database is closed"). A lock left by a process that no longer runs is taken over. Returns
 * the release.
 */
export function lockStateDir(dir: string): () => void {
  const path = join(dir, LOCK);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: "wx" });
      return () => rmSync(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw err;
      const pid = Number(readFileSync(path, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && running(pid)) throw new StateDirInUseError(dir, pid);
      rmSync(path, { force: true });
    }
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
