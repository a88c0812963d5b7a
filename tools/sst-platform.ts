// Makes `.sst/platform` (SST's component sources and types, which `sst.config.ts` is checked
// against) match the installed `sst` package: `sst install` fetches it from the npm registry
// alone with these variables. Nothing to do when it is current. `node tools/sst-platform.ts`.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

const root = new URL("../", import.meta.url);

/** True when `.sst/platform` was made for the installed SST version. */
function sstPlatformCurrent(): boolean {
  const version = new URL(".sst/platform/version", root);
  if (!existsSync(version)) return false;
  const sst = JSON.parse(readFileSync(new URL("node_modules/sst/package.json", root), "utf8")) as {
    version: string;
  };
  return readFileSync(version, "utf8").trim() === sst.version;
}

/** Runs `sst install` unless `.sst/platform` is current. */
export function ensureSstPlatform(): void {
  if (sstPlatformCurrent()) return;
  execFileSync("npx", ["sst", "install", "--stage", "ci"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, SST_SKIP_DEPENDENCY_CHECK: "1", SST_NO_BUN: "1", SST_TELEMETRY_DISABLED: "1" },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) ensureSstPlatform();
