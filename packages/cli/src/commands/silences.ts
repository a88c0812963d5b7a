import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import type { Silence, SilenceMatchers } from "@fleet-auditor/audit";
import { openSilences } from "../backend.ts";
import { renderTable } from "../table.ts";
import { UsageError } from "../usage-error.ts";

export const SILENCES_USAGE = `usage:
  fleet-auditor silences add --match KEY=VALUE [--match …] (--for 4h | --until ISO-TIME)
                             --comment TEXT --by NAME [--audit failing|expired]
  fleet-auditor silences list [--all] [--output json|table]
  fleet-auditor silences expire ID

match keys: instance, account, subaccount, plan, region, state (all must match).
options: --state-dir DIR (default .fleet-auditor/); AUDIT_TABLE=<table> uses DynamoDB instead.
`;

const MATCH_KEYS: Record<string, keyof SilenceMatchers> = {
  instance: "instanceID",
  account: "globalAccountID",
  subaccount: "subAccountID",
  plan: "plan",
  region: "region",
  state: "state",
};

/** `fleet-auditor silences …`; returns the exit code. */
export async function silencesCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  io: { stdout: NodeJS.WritableStream },
  now = new Date(),
): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      "state-dir": { type: "string", default: ".fleet-auditor" },
      match: { type: "string", multiple: true, default: [] },
      for: { type: "string" },
      until: { type: "string" },
      comment: { type: "string" },
      by: { type: "string" },
      audit: { type: "string" },
      all: { type: "boolean", default: false },
      output: { type: "string", default: "table" },
    },
  });
  let silence: Silence | undefined;
  if (sub === "add") silence = newSilence(values, now);
  else if (sub === "expire" && !positionals[0])
    throw new UsageError("silences expire needs the silence ID", SILENCES_USAGE);
  else if (sub !== "list" && sub !== "expire") {
    throw new UsageError(
      sub ? `unknown silences command: ${sub}` : "silences needs a command",
      SILENCES_USAGE,
    );
  }
  const backend = await openSilences(values["state-dir"], env);
  try {
    if (silence) {
      await backend.silences.add(silence);
      io.stdout.write(
        `${values.output === "json" ? JSON.stringify(silence) : `silence ${silence.id} until ${silence.endsAt}`}\n`,
      );
    } else if (sub === "expire") {
      await backend.silences.expire(positionals[0] as string, now).catch((err: unknown) => {
        throw new UsageError(`no silence ${positionals[0]} (${(err as Error).name})`, SILENCES_USAGE);
      });
      io.stdout.write(`silence ${positionals[0]} expired\n`);
    } else {
      const all = values.all ? await backend.silences.list() : await backend.silences.active(now);
      io.stdout.write(
        values.output === "json" ? `${JSON.stringify(all, null, 2)}\n` : `${silenceTable(all)}\n`,
      );
    }
    return 0;
  } finally {
    await backend.close();
  }
}

function newSilence(
  v: { match: string[]; for?: string; until?: string; comment?: string; by?: string; audit?: string },
  now: Date,
): Silence {
  const matchers: SilenceMatchers = {};
  for (const m of v.match) {
    const [key = "", ...value] = m.split("=");
    const field = MATCH_KEYS[key];
    if (!field || value.join("=") === "") {
      throw new UsageError(
        `--match ${m}: expected KEY=VALUE with KEY one of ${Object.keys(MATCH_KEYS).join(", ")}`,
        SILENCES_USAGE,
      );
    }
    matchers[field] = value.join("=");
  }
  if (Object.keys(matchers).length === 0)
    throw new UsageError(
      "a silence needs at least one --match (it would silence everything)",
      SILENCES_USAGE,
    );
  if (!v.comment) throw new UsageError("--comment is required: say why", SILENCES_USAGE);
  if (!v.by) throw new UsageError("--by is required: who silences", SILENCES_USAGE);
  if (v.audit && v.audit !== "failing" && v.audit !== "expired")
    throw new UsageError(`--audit ${v.audit}: failing or expired`, SILENCES_USAGE);
  let endsAt: Date;
  const rel = v.for ? /^(\d+)(m|h|d)$/.exec(v.for) : null;
  if (rel)
    endsAt = new Date(
      now.getTime() + Number(rel[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as "m" | "h" | "d"],
    );
  else if (v.until && /^\d{4}-\d{2}-\d{2}T/.test(v.until) && !Number.isNaN(Date.parse(v.until)))
    endsAt = new Date(v.until);
  else throw new UsageError("give the silence an end: --for 30m|4h|2d or --until ISO-TIME", SILENCES_USAGE);
  if (endsAt <= now) throw new UsageError("the silence would end before it starts", SILENCES_USAGE);
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
