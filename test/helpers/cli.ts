import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { constants as osConstants, tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { EMBEDDED_TABLES, runCli } from "@fleet-auditor/cli";
import { startEmbeddedDynamo } from "@fleet-auditor/store";
import { inject } from "vitest";

/** The CLI's entry as `npx fleet-auditor` runs it in a clone: its TypeScript, type-stripped. */
export const CLI_SOURCE = new URL("../../packages/cli/src/main.ts", import.meta.url).pathname;

/** What a command line did. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a `fleet-auditor` command line through `runCli`, in this process: the same code as the
 * binary from the argument list on (`main.ts` only hands it `process.argv`, `process.env` and the
 * streams), with only `env` as the environment. A second process per call cost about a second of
 * module loading each; `spawnCli` keeps one real process path covered.
 */
export async function cli(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? "");
  const out = collect(stdout);
  const err = collect(stderr);
  const code = await runCli(args, { ...options.env }, { stdout, stderr, stdin });
  stdout.end();
  stderr.end();
  return { code, stdout: await out, stderr: await err };
}

/**
 * Runs the real `fleet-auditor` command in a child process with only PATH and `env` set; with
 * `signalWhen`, sends it `signal` (SIGINT unless given) once that resolves. `closeStdout` closes
 * the reading end of its standard output before it writes, as `| head` does once it has read
 * enough. The command is the bundled CLI the `dynalite` project's global setup built (`npm run
 * build:cli`, the same code from main.ts on, a third of the start-up CPU); `script` runs another
 * file, `CLI_SOURCE` the TypeScript entry. The code is the one a shell reports: 128 + the
 * signal's number for a process a signal ended.
 */
export function spawnCli(
  args: string[],
  options: {
    env?: Record<string, string>;
    stdin?: string;
    signalWhen?: () => Promise<void>;
    signal?: NodeJS.Signals;
    closeStdout?: boolean;
    script?: string;
  } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [options.script ?? inject("cliBundle"), ...args], {
      env: { PATH: process.env.PATH ?? "", ...options.env },
    });
    let stdout = "";
    let stderr = "";
    if (options.closeStdout) child.stdout.destroy();
    else
      child.stdout.on("data", (d: Buffer) => {
        stdout += d;
      });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
    });
    child.on("close", (code, signal) =>
      resolve({ code: code ?? (signal ? 128 + osConstants.signals[signal] : -1), stdout, stderr }),
    );
    child.stdin.on("error", () => undefined);
    if (options.stdin !== undefined || !options.signalWhen) child.stdin.end(options.stdin ?? "");
    void options.signalWhen?.().then(() => child.kill(options.signal ?? "SIGINT"));
  });
}

function collect(stream: PassThrough): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    stream.on("data", (d: Buffer) => {
      text += d;
    });
    stream.on("end", () => resolve(text));
  });
}

/** `fleet-auditor run --audit A --keb-url URL --state-dir DIR …extra`: the command line most CLI tests start with. */
export function runArgs(audit: string, kebUrl: string, stateDir: string, ...extra: string[]): string[] {
  return ["run", "--audit", audit, "--keb-url", kebUrl, "--state-dir", stateDir, ...extra];
}

/**
 * A new state directory holding an empty embedded store, as the CLI's writers create it: what a
 * read-only command needs to answer "none" (it refuses a directory with no store).
 */
export async function emptyStateDir(prefix = "fa-empty-"): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const db = await startEmbeddedDynamo({
    dir: join(dir, "dynamodb"),
    tables: [EMBEDDED_TABLES.audit],
    statusTables: [EMBEDDED_TABLES.status],
  });
  await db.close();
  return dir;
}
