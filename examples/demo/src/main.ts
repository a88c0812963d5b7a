#!/usr/bin/env node
// `npm start`: the demo on this process's standard output.
import { dropOutputOnClosedPipe } from "@fleet-auditor/cli";
import { runDemo } from "./demo.ts";

// `npm start | head` closes the pipe while the demo still prints: end quietly, as the CLI does.
dropOutputOnClosedPipe(process.stdout);
dropOutputOnClosedPipe(process.stderr);

await runDemo(process.stdout);
