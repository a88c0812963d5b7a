import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { inject } from "vitest";

const CHILD = new URL("./function-child.ts", import.meta.url).pathname;

/** What a handler in its own process did: its exit code and result, or how it was killed. */
export interface FunctionExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** What the handler returned (`{ error }` when it threw); null when it was killed. */
  result: unknown;
  /** Its log lines (Powertools writes JSON to stdout and stderr, by level). */
  logs: string;
}

/**
 * Invokes the function `name` as bundled for deployment (the global setup's bundle of
 * `functions/<name>.ts`), or the module at a URL, in a child process with only `env` (and PATH)
 * set; `killWhen`, once it resolves, SIGKILLs it, as Lambda does to an instance that times out or
 * runs out of memory.
 */
export function invokeInProcess(
  name: string,
  event: unknown,
  env: Record<string, string | undefined>,
  killWhen?: Promise<void>,
): Promise<FunctionExit> {
  // A function's name, or the URL of a module that exports `handler`. The bundle, not the
  // TypeScript entry: it is what Lambda runs, and it starts in a fraction of the CPU of the
  // sources type-stripped module by module (each kill test starts two processes).
  const module = name.includes("://") ? name : bundleUrl(name);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CHILD, module, JSON.stringify(event)], {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe", "pipe"],
    });
    let logs = "";
    let returned = "";
    const log = (d: Buffer): void => {
      logs += d;
    };
    child.stdout?.on("data", log);
    child.stderr?.on("data", log);
    child.stdio[3]?.on("data", (d: Buffer) => {
      returned += d;
    });
    child.on("close", (code, signal) => {
      resolve({ code, signal, result: returned ? JSON.parse(returned) : null, logs });
    });
    void killWhen?.then(() => child.kill("SIGKILL"));
  });
}

/** The URL of the global setup's bundle of `functions/<name>.ts`; throws for an unknown name. */
function bundleUrl(name: string): string {
  const file = inject("functionBundles")[name];
  if (!file)
    throw new Error(`no bundle of functions/${name}.ts (the dynalite project's global setup builds them)`);
  return pathToFileURL(file).href;
}
