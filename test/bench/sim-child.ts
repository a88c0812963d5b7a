import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** A simulator in a child process. */
export interface ChildSim {
  url: string;
  stop(): Promise<void>;
}

/** Starts `sim-process.ts` with the given fleet and latency and waits until it listens. */
export async function startChildSim(args: {
  size: number;
  flagged: number;
  latency: number;
  /** The share of the flagged that are expired (default: the simulator's mix). */
  expiredShare?: number;
}): Promise<ChildSim> {
  const { info, stop } = await startChild("./sim-process.ts", [
    "--size",
    `${args.size}`,
    "--flagged",
    `${args.flagged}`,
    "--latency",
    `${args.latency}`,
    ...(args.expiredShare === undefined ? [] : ["--expired-share", `${args.expiredShare}`]),
  ]);
  return { url: info.url as string, stop };
}

/** Starts `dynalite-process.ts` with these tables; returns its endpoint. */
export async function startChildDynamo(
  tables: string[],
): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const { info, stop } = await startChild("./dynalite-process.ts", tables);
  return { endpoint: info.endpoint as string, stop };
}

/** Runs a script of this folder whose first stdout line is JSON; closing its stdin stops it. */
async function startChild(
  script: string,
  args: string[],
): Promise<{ info: Record<string, unknown>; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [new URL(script, import.meta.url).pathname, ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    info: JSON.parse(first) as Record<string, unknown>,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.stdin?.end();
      }),
  };
}
