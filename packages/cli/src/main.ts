#!/usr/bin/env node
import { runCli } from "./cli.ts";

process.exitCode = await runCli(process.argv.slice(2), process.env, {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
