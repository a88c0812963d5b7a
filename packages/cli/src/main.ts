#!/usr/bin/env node
import { APPS_USAGE, appsCommand } from "./commands/apps.ts";
import { runCommand } from "./commands/run.ts";
import { SILENCES_USAGE, silencesCommand } from "./commands/silences.ts";
import { runDemo } from "./demo.ts";
import { UsageError } from "./usage-error.ts";

const USAGE = `usage: fleet-auditor <command> [options]

commands:
  run     run an audit against a KEB (see fleet-auditor run --help)
  apps    KubeEdge Application status: ingest, status, quarantine (see fleet-auditor apps --help)
  silences  keep matching runtimes quiet until a time: add, list, expire
  demo    audits over a changing simulated fleet on the embedded stack (npm start)
`;

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === "run") {
    if (rest.includes("--help")) {
      const { RUN_USAGE } = await import("./commands/run.ts");
      process.stdout.write(RUN_USAGE);
    } else {
      process.exitCode = await runCommand(rest, process.env, {
        stdout: process.stdout,
        stderr: process.stderr,
      });
    }
  } else if (command === "apps") {
    if (rest.includes("--help")) process.stdout.write(APPS_USAGE);
    else
      process.exitCode = await appsCommand(rest, process.env, {
        stdout: process.stdout,
        stdin: process.stdin,
      });
  } else if (command === "silences") {
    if (rest.includes("--help")) process.stdout.write(SILENCES_USAGE);
    else process.exitCode = await silencesCommand(rest, process.env, { stdout: process.stdout });
  } else if (command === "demo") {
    await runDemo();
  } else {
    throw new UsageError(command ? `unknown command: ${command}` : "no command given", USAGE);
  }
} catch (err) {
  const e = err as Error & { usage?: string };
  process.stderr.write(`fleet-auditor: ${e.message}\n${e instanceof UsageError ? `\n${e.usage}` : ""}`);
  process.exitCode = 1;
}
