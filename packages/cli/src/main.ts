#!/usr/bin/env node
import module from "node:module";
import { dropOutputOnClosedPipe } from "./closed-pipe.ts";

// Before anything can write: `… | head` may close either stream.
dropOutputOnClosedPipe(process.stdout);
dropOutputOnClosedPipe(process.stderr);

// The command loads about 0.8 s of modules (AWS SDK, zod, TypeScript sources); V8's
// on-disk compile cache (Node 22.1+, under the OS temp dir) takes a good part of that off every
// later start. It must be on before the rest is imported, hence the dynamic import.
module.enableCompileCache?.();
const { runCli } = await import("./cli.ts");

process.exitCode = await runCli(process.argv.slice(2), process.env, {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
