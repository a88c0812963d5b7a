import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { AUDITS, type Silence, type SilenceMatchers } from "@fleet-auditor/audit";
import {
  atMostPositionals,
  outputOption,
  parseDuration,
  parseIsoTime,
  parseKeyValues,
  parseOutput,
  stateDirOption,
} from "../args.ts";
import { openSilences } from "../backend.ts";
import type { Command } from "../command.ts";
import { UsageError } from "../errors.ts";
import { renderTable, terminalJson } from "../table.ts";

const AUDIT_NAMES = AUDITS.map((a) => a.name);

const USAGE = `usage:
  fleet-auditor silences add --match KEY=VALUE [--match …] (--for 90s|30m|4h|2d | --until ISO-TIME)
                             --comment TEXT --by NAME [--audit ${AUDIT_NAMES.join("|")}]
  fleet-auditor silences list [--all] [--output json|table]
  fleet-auditor silences expire ID

match keys: instance, account, subaccount, plan, region, state, reason (all must match;
reason is the error reason, else the failing step, as messages show it); for the applications
audit: node, verb, resource, state (stuck, refused, quarantined) and reason (e.g. "403 Forbidden").
options: --state-dir DIR (default .fleet-auditor/); AUDIT_TABLE=<table> uses DynamoDB instead.
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
    const [sub, ...rest] = argv;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
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
    });
    const output = parseOutput(values.output, USAGE);
    atMostPositionals(positionals, sub === "expire" ? 1 : 0, USAGE);
    let silence: Silence | undefined;
    if (sub === "add") silence = newSilence(values, now);
    else if (sub === "expire" && !positionals[0])
      throw new UsageError("silences expire needs the silence ID", USAGE);
    else if (sub !== "list" && sub !== "expire") {
      throw new UsageError(sub ? `unknown silences command: ${sub}` : "silences needs a command", USAGE);
    }
    const backend = await openSilences(values["state-dir"], env);
    try {
      if (silence) {
        await backend.silences.add(silence);
        io.stdout.write(
          `${output === "json" ? terminalJson(silence, 0) : `silence ${silence.id} until ${silence.endsAt}`}\n`,
        );
      } else if (sub === "expire") {
        await backend.silences.expire(positionals[0] as string, now).catch((err: unknown) => {
          throw new UsageError(`no silence ${positionals[0]} (${(err as Error).name})`, USAGE);
        });
        io.stdout.write(`silence ${positionals[0]} expired\n`);
      } else {
        const all = values.all ? await backend.silences.list() : await backend.silences.active(now);
        io.stdout.write(output === "json" ? `${terminalJson(all)}\n` : `${silenceTable(all)}\n`);
      }
      return 0;
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
  for (const [field, values] of parseKeyValues(v.match, MATCH_KEYS, "--match", USAGE)) {
    // All matchers must match: a key given twice keeps its last value.
    matchers[field] = values.at(-1);
  }
  if (Object.keys(matchers).length === 0)
    throw new UsageError("a silence needs at least one --match (it would silence everything)", USAGE);
  if (!v.comment) throw new UsageError("--comment is required: say why", USAGE);
  if (!v.by) throw new UsageError("--by is required: who silences", USAGE);
  if (v.audit && !AUDIT_NAMES.includes(v.audit))
    throw new UsageError(`--audit ${v.audit}: one of ${AUDIT_NAMES.join(", ")}`, USAGE);
  const duration = v.for === undefined ? undefined : parseDuration(v.for);
  const endsAt =
    duration !== undefined ? new Date(now.getTime() + duration) : v.until ? parseIsoTime(v.until) : undefined;
  if (!endsAt)
    throw new UsageError("give the silence an end: --for 90s|30m|4h|2d or --until ISO-TIME", USAGE);
  if (endsAt <= now) throw new UsageError("the silence would end before it starts", USAGE);
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
