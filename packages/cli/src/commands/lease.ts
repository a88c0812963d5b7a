import { createInterface } from "node:readline/promises";
import { oneOf, stateDirOption, subcommand } from "../args.ts";
import { KNOWN_AUDITS } from "../audits.ts";
import { openRuns } from "../backend.ts";
import type { Command } from "../command.ts";
import { parseCommandLine } from "../command-line.ts";
import { UsageError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import { outputOption, parseOutput, printData } from "../output.ts";
import { escapeControl } from "../table.ts";

const AUDIT_NAMES = KNOWN_AUDITS.names;

const USAGE = `usage:
  fleet-auditor lease show --audit ${AUDIT_NAMES.join("|")} [-o json|yaml|table]
  fleet-auditor lease release --audit ${AUDIT_NAMES.join("|")} [--force]

A run holds its audit's lease while it works; a run that was killed leaves it until it expires
(LEASE_MINUTES), and runs in between are skipped (exit 2). release removes the lease it shows: it
asks first on a terminal, and needs --force otherwise. Release only a lease whose run is gone.
If the lease changes before the answer (a run took it over, or its run extended it: that run is
alive), release removes nothing and says who holds it now.
options: --state-dir DIR (default .fleet-auditor/); AUDIT_TABLE=<table> (or sst shell) uses DynamoDB.
exit codes: 0 shown, released, or no lease; 1 bad input; 2 nothing released (the answer was no,
or the lease changed since it was shown), or DynamoDB throttled or unreachable.
`;

const SUBCOMMANDS = ["show", "release"] as const;
const OPTIONS = {
  ...stateDirOption,
  ...outputOption,
  audit: { type: "string" },
  force: { type: "boolean", default: false },
} as const;
const TAKEN_BY = { output: ["show"], force: ["release"] };

/** `fleet-auditor lease …`: see and clear an audit's lease. */
export const leaseCommand: Command = {
  name: "lease",
  summary: "see or clear the lease a killed run left behind: show, release",
  usage: USAGE,
  subcommands: SUBCOMMANDS,
  options: OPTIONS,
  takenBy: TAKEN_BY,
  async run(argv, { env, io, now }) {
    const [given, ...rest] = argv;
    const sub = subcommand("lease", given, SUBCOMMANDS);
    const { values } = parseCommandLine(rest, OPTIONS, 0, { command: "lease", sub, takenBy: TAKEN_BY });
    const output = parseOutput(values.output);
    if (!values.audit) throw new UsageError(`--audit is required: one of ${AUDIT_NAMES.join(", ")}`);
    const audit = oneOf(values.audit, AUDIT_NAMES, "--audit");
    const interactive = (io.stdin as { isTTY?: boolean }).isTTY === true;
    if (sub === "release" && !values.force && !interactive) {
      throw new UsageError("lease release asks first on a terminal; elsewhere add --force");
    }
    // A lease to show or release is one a run took: either way the store must be there.
    const backend = await openRuns(values["state-dir"], env, sub === "show" ? "read" : "update");
    try {
      const shown = await backend.store.describeLease(audit);
      if (sub === "show") {
        printData(io, output, leaseData(audit, shown, now()), () =>
          shown ? describeLease(audit, shown, now()) : `no lease on ${audit}`,
        );
        return EXIT.done;
      }
      if (!shown) {
        io.stdout.write(`no lease on ${audit}\n`);
        return EXIT.done;
      }
      const told = describeLease(audit, shown, now());
      if (!values.force) {
        const rl = createInterface({ input: io.stdin, output: io.stderr });
        const answer = await rl.question(`${told}. Release it? [y/N] `);
        rl.close();
        if (!/^y(es)?$/i.test(answer.trim())) {
          io.stdout.write("left as it is\n");
          return EXIT.partial;
        }
      }
      // Only the lease the operator saw: the answer was about that one, not whatever is there now.
      if (await backend.store.releaseShownLease(audit, shown)) {
        const owner = escapeControl(shown.owner);
        io.stdout.write(
          shown.expiresAtMs < now().getTime()
            ? `released the expired lease of ${audit} (run ${owner}, expired at ${timeOf(shown.expiresAtMs)})\n`
            : `released the lease of ${audit} (run ${owner}, until ${timeOf(shown.expiresAtMs)})\n`,
        );
        return EXIT.done;
      }
      const current = await backend.store.describeLease(audit);
      if (!current) {
        io.stdout.write(`the lease of ${audit} is gone since it was shown; nothing was left to release\n`);
        return EXIT.done;
      }
      const expired = current.expiresAtMs < now().getTime() ? " (expired)" : "";
      io.stdout.write(
        `the lease of ${audit} changed since it was shown: now held by run ${escapeControl(current.owner)} until ${timeOf(current.expiresAtMs)}${expired}; nothing was released\n`,
      );
      return EXIT.partial;
    } finally {
      await backend.close();
    }
  },
};

/** `lease show -o json|yaml`: the audit and its lease (null when none), by its run's ID. */
function leaseData(audit: string, lease: { owner: string; expiresAtMs: number } | undefined, now: Date) {
  if (!lease) return { audit, lease: null };
  const at = new Date(lease.expiresAtMs);
  return {
    audit,
    lease: {
      runId: lease.owner,
      expiresAt: Number.isNaN(at.getTime()) ? null : at.toISOString(),
      expired: lease.expiresAtMs < now.getTime(),
    },
  };
}

/** One line about a lease as it stands at `now`; an expired one says so (the next run takes it). */
function describeLease(audit: string, lease: { owner: string; expiresAtMs: number }, now: Date): string {
  const owner = escapeControl(lease.owner);
  const until = timeOf(lease.expiresAtMs);
  return lease.expiresAtMs < now.getTime()
    ? `the lease of ${audit} was held by run ${owner} until ${until}: it has expired, and the next run takes it over`
    : `the lease of ${audit} is held by run ${owner} until ${until}`;
}

/** An ISO time, never a throw: a stored expiry out of Date's range prints as the number it is. */
function timeOf(ms: number): string {
  const at = new Date(ms);
  return Number.isNaN(at.getTime()) ? `an unreadable time (${ms})` : at.toISOString();
}
