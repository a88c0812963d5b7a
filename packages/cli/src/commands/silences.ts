import { randomUUID } from "node:crypto";
import { AUDITS, type Silence, type SilenceMatchers } from "@fleet-auditor/audit";
import { oneOf, parseDuration, parseIsoTime, parseKeyValues, stateDirOption, subcommand } from "../args.ts";
import { openSilences } from "../backend.ts";
import type { Command } from "../command.ts";
import { parseCommandLine } from "../command-line.ts";
import { UsageError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import { outputOption, parseOutput, printData } from "../output.ts";
import { escapeControl, renderTable, terminalJson } from "../table.ts";

const AUDIT_NAMES = AUDITS.map((a) => a.name);

const USAGE = `usage:
  fleet-auditor silences add --match KEY=VALUE [--match …] (--for 90s|30m|4h|2d | --until ISO-TIME)
                             --comment TEXT --by NAME [--audit ${AUDIT_NAMES.join("|")}] [-o json|yaml|table]
  fleet-auditor silences list [--all] [-o json|yaml|table]
  fleet-auditor silences expire ID

match keys: instance, account, subaccount, plan, region, state, reason (all must match;
reason is the error reason, else the failing step, as messages show it); for the applications
audit: node, verb, resource, state (stuck, refused, quarantined) and reason (e.g. "403 Forbidden").
options: --state-dir DIR (default .fleet-auditor/); AUDIT_TABLE=<table> (or sst shell) uses DynamoDB.
exit codes: 0 done; 1 bad input or no such silence; 2 DynamoDB throttled or unreachable.
`;

const MATCH_KEYS: Record<string, keyof SilenceMatchers> = {
  instance: "instanceID",
  account: "globalAccountID",
  subaccount: "subAccountID",
  plan: "plan",
  region: "region",
  state: "state",
  reason: "reason",
  node: "node",
  verb: "verb",
  resource: "resource",
};

/** `fleet-auditor silences …`: keep matching runtimes quiet until a time. */
export const silencesCommand: Command = {
  name: "silences",
  summary: "keep matching runtimes quiet until a time: add, list, expire",
  usage: USAGE,
  async run(argv, { env, io, now: clock }) {
    const now = clock();
    const [given, ...rest] = argv;
    const sub = subcommand("silences", given, ["add", "list", "expire"]);
    const { values, positionals } = parseCommandLine(
      rest,
      {
        ...stateDirOption,
        ...outputOption,
        match: { type: "string", multiple: true, default: [] },
        for: { type: "string" },
        until: { type: "string" },
        comment: { type: "string" },
        by: { type: "string" },
        audit: { type: "string" },
        all: { type: "boolean", default: false },
      },
      sub === "expire" ? 1 : 0,
    );
    const output = parseOutput(values.output);
    let silence: Silence | undefined;
    if (sub === "add") silence = newSilence(values, now);
    else if (sub === "expire" && !positionals[0])
      throw new UsageError("silences expire needs the silence ID");
    const backend = await openSilences(values["state-dir"], env);
    try {
      if (silence) {
        await backend.silences.add(silence);
        const added = silence;
        // One line of JSON, as before: scripts read it with a line reader.
        if (output === "json") io.stdout.write(`${terminalJson(added, 0)}\n`);
        else printData(io, output, added, () => `silence ${added.id} until ${added.endsAt}`);
      } else if (sub === "expire") {
        const id = positionals[0] as string;
        const found = await backend.silences.expire(id, now).then(
          () => true,
          (err: unknown) => {
            // Only "no such silence" is the operator's to fix; DynamoDB failing is not.
            if ((err as Error).name === "ConditionalCheckFailedException") return false;
            throw err;
          },
        );
        if (!found) {
          io.stderr.write(`fleet-auditor: no silence ${escapeControl(id)} in the ${backend.description}\n`);
          return EXIT.failed;
        }
        io.stdout.write(`silence ${escapeControl(id)} expired\n`);
      } else {
        const all = values.all ? await backend.silences.list() : await backend.silences.active(now);
        printData(io, output, all, () => silenceTable(all));
      }
      return EXIT.done;
    } finally {
      await backend.close();
    }
  },
};

function newSilence(
  v: { match: string[]; for?: string; until?: string; comment?: string; by?: string; audit?: string },
  now: Date,
): Silence {
  const matchers: SilenceMatchers = {};
  for (const [field, values] of parseKeyValues(v.match, MATCH_KEYS, "--match")) {
    // All matchers must match: a key given twice keeps its last value.
    matchers[field] = values.at(-1);
  }
  if (Object.keys(matchers).length === 0)
    throw new UsageError("a silence needs at least one --match (it would silence everything)");
  if (!v.comment) throw new UsageError("--comment is required: say why");
  if (!v.by) throw new UsageError("--by is required: who silences");
  if (v.audit) oneOf(v.audit, AUDIT_NAMES, "--audit");
  const duration = v.for === undefined ? undefined : parseDuration(v.for);
  const endsAt =
    duration !== undefined ? new Date(now.getTime() + duration) : v.until ? parseIsoTime(v.until) : undefined;
  if (!endsAt) throw new UsageError("give the silence an end: --for 90s|30m|4h|2d or --until ISO-TIME");
  if (endsAt <= now) throw new UsageError("the silence would end before it starts");
  const silence: Silence = {
    id: randomUUID(),
    matchers,
    startsAt: now.toISOString(),
    endsAt: endsAt.toISOString(),
    createdBy: v.by,
    comment: v.comment,
  };
  if (v.audit) silence.audit = v.audit;
  return silence;
}

function silenceTable(items: Silence[]): string {
  if (items.length === 0) return "no silences";
  return renderTable(
    ["ID", "AUDIT", "MATCHES", "ENDS AT", "BY", "COMMENT"],
    items.map((s) => [
      s.id,
      s.audit ?? "all",
      Object.entries(s.matchers)
        .map(([k, v]) => `${k}=${v}`)
        .join(" "),
      s.endsAt,
      s.createdBy,
      s.comment,
    ]),
  );
}
