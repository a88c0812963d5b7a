import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { AUDITS } from "@fleet-auditor/audit";
import { atMostPositionals, stateDirOption } from "../args.ts";
import { openRuns } from "../backend.ts";
import type { Command } from "../command.ts";
import { UsageError } from "../errors.ts";

const AUDIT_NAMES = AUDITS.map((a) => a.name);

const USAGE = `usage:
  fleet-auditor lease show --audit ${AUDIT_NAMES.join("|")}
  fleet-auditor lease release --audit ${AUDIT_NAMES.join("|")} [--force]

A run holds its audit's lease while it works; a run that was killed leaves it until it expires
(LEASE_MINUTES), and runs in between are skipped (exit 2). release removes it: it asks first on a
terminal, and needs --force otherwise. Release only a lease whose run is gone.
options: --state-dir DIR (default .fleet-auditor/); AUDIT_TABLE=<table> uses DynamoDB instead.
`;

/** `fleet-auditor lease …`: see and clear an audit's lease. */
export const leaseCommand: Command = {
  name: "lease",
  summary: "see or clear the lease a killed run left behind: show, release",
  usage: USAGE,
  async run(argv, { env, io }) {
    const [sub, ...rest] = argv;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { ...stateDirOption, audit: { type: "string" }, force: { type: "boolean", default: false } },
    });
    if (sub !== "show" && sub !== "release") {
      throw new UsageError(sub ? `unknown lease command: ${sub}` : "lease needs a command", USAGE);
    }
    atMostPositionals(positionals, 0, USAGE);
    const audit = values.audit;
    if (!audit || !AUDIT_NAMES.includes(audit)) {
      throw new UsageError(`--audit must be one of ${AUDIT_NAMES.join(", ")}`, USAGE);
    }
    const interactive = (io.stdin as { isTTY?: boolean }).isTTY === true;
    if (sub === "release" && !values.force && !interactive) {
      throw new UsageError("lease release asks first on a terminal; elsewhere add --force", USAGE);
    }
    const backend = await openRuns(values["state-dir"], env);
    try {
      const lease = await backend.store.describeLease(audit);
      if (!lease) {
        io.stdout.write(`no lease on ${audit}\n`);
        return 0;
      }
      const held = `the lease of ${audit} is held by run ${lease.owner} until ${lease.expiresAt}`;
      if (sub === "show") {
        io.stdout.write(`${held}\n`);
        return 0;
      }
      if (!values.force) {
        const rl = createInterface({ input: io.stdin, output: io.stderr });
        const answer = await rl.question(`${held}. Release it? [y/N] `);
        rl.close();
        if (!/^y(es)?$/i.test(answer.trim())) {
          io.stdout.write("left as it is\n");
          return 1;
        }
      }
      await backend.store.forceReleaseLease(audit);
      io.stdout.write(`released the lease of ${audit} (run ${lease.owner}, until ${lease.expiresAt})\n`);
      return 0;
    } finally {
      await backend.close();
    }
  },
};
