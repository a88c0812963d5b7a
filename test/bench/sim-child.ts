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
}): Promise<ChildSim> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      new URL("./sim-process.ts", import.meta.url).pathname,
      "--size",
      `${args.size}`,
      "--flagged",
      `${args.flagged}`,
      "--latency",
      `${args.latency}`,
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  const { url } = JSON.parse(first) as { url: string };
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.stdin?.end();
      }),
  };
}
