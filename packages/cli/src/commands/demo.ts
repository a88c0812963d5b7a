import type { Command } from "../command.ts";
import { runDemo } from "../demo.ts";
import { UsageError } from "../errors.ts";

/** `fleet-auditor demo` (`npm start`). */
export const demoCommand: Command = {
  name: "demo",
  summary: "audits over a changing simulated fleet on the embedded stack (npm start)",
  usage: `usage: fleet-auditor demo

Runs both audits hour by hour against a simulated KEB whose fleet changes, on the embedded store,
printing what subscribers would receive; then a burst of KubeEdge Application messages. No AWS.
`,
  async run(argv, { io }) {
    if (argv.length > 0) throw new UsageError(`demo takes no arguments, got ${argv.join(" ")}`);
    await runDemo(io.stdout);
    return 0;
  },
};
