#!/usr/bin/env node
import { runDemo } from "./demo.ts";

const USAGE = `usage: fleet-auditor <command>

commands:
  demo    start a KEB simulator with a seeded fleet and list its failing runtimes
`;

const [command] = process.argv.slice(2);
if (command === "demo") {
  await runDemo();
} else {
  process.stderr.write(command ? `unknown command: ${command}\n\n${USAGE}` : USAGE);
  process.exitCode = 1;
}
