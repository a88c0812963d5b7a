import { parseArgs } from "node:util";
import { AUDITS, type RunSummary } from "@fleet-auditor/audit";
import { createKebDispatcher } from "@fleet-auditor/keb";
import {
  type AuditRunInput,
  KebEnvSchema,
  kebClientFrom,
  parseConfig,
  parseRunInput,
  runAudit,
} from "@fleet-auditor/runner";
import { openBackend } from "../backend.ts";
import { renderSummary } from "../summary-table.ts";
import { UsageError } from "../usage-error.ts";

export const RUN_USAGE = `usage: fleet-auditor run --audit failing|expired|all --keb-url URL [options]

options:
  --state-dir DIR         embedded state and outbox (default .fleet-auditor/)
  --dry-run               compute everything, publish and write nothing
  --now ISO-TIME          the time the audit engine uses (default: now)
  --output json|table     json prints exactly the run summary (an array with --audit all)
  --filter KEY=VALUE      narrow the audit; KEY: plan, region, account, subaccount, shoot, instance, runtime

auth (environment): KEB_TOKEN, or KEB_TOKEN_URL + KEB_CLIENT_ID with KEB_CLIENT_SECRET
or KEB_USERNAME + KEB_PASSWORD. AWS instead of the embedded store: AUDIT_TABLE + ALERT_TOPIC_ARN.
exit codes: 0 complete run, 2 incomplete scan, 1 bad input or configuration.
`;

const FILTER_KEYS: Record<string, keyof NonNullable<AuditRunInput["filters"]>> = {
  plan: "plans",
  region: "regions",
  account: "globalAccountIDs",
  subaccount: "subAccountIDs",
  shoot: "shoots",
  instance: "instanceIDs",
  runtime: "runtimeIDs",
};

/** `fleet-auditor run`: one audit (or all) from a terminal; returns the exit code. */
export async function runCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream & { isTTY?: boolean } },
): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      audit: { type: "string" },
      "keb-url": { type: "string" },
      "state-dir": { type: "string", default: ".fleet-auditor" },
      "dry-run": { type: "boolean", default: false },
      now: { type: "string" },
      output: { type: "string", default: "table" },
      filter: { type: "string", multiple: true, default: [] },
    },
    strict: true,
  });
  if (!values.audit) throw new UsageError("--audit is required", RUN_USAGE);
  if (values.output !== "json" && values.output !== "table")
    throw new UsageError(`--output must be json or table, got ${values.output}`, RUN_USAGE);
  const names = values.audit === "all" ? AUDITS.map((a) => a.name) : [values.audit];
  const filters: Record<string, string[]> = {};
  for (const f of values.filter) {
    const [key = "", ...rest] = f.split("=");
    const field = FILTER_KEYS[key];
    if (!field || rest.length === 0 || rest.join("=") === "") {
      throw new UsageError(
        `--filter ${f}: expected KEY=VALUE with KEY one of ${Object.keys(FILTER_KEYS).join(", ")}`,
        RUN_USAGE,
      );
    }
    filters[field] = [...(filters[field] ?? []), rest.join("=")];
  }
  const inputs = names.map((audit) =>
    parseRunInput({
      audit,
      dryRun: values["dry-run"],
      ...(values.now ? { now: values.now } : {}),
      ...(Object.keys(filters).length ? { filters } : {}),
    }),
  );
  const kebEnv = parseConfig(KebEnvSchema, { ...env, KEB_URL: values["keb-url"] ?? env.KEB_URL });
  const dispatcher = createKebDispatcher();
  const backend = await openBackend(values["state-dir"], env);
  const progress = io.stderr.isTTY
    ? (done: number, total: number) => io.stderr.write(`\rpages ${done}/${total}   `)
    : undefined;
  try {
    const summaries: RunSummary[] = [];
    for (const input of inputs) {
      const summary = await runAudit(
        {
          source: kebClientFrom(kebEnv, dispatcher),
          store: backend.store,
          silences: backend.silences,
          publisher: backend.publisher,
          onProgress: progress,
        },
        input,
      );
      if (progress) io.stderr.write("\r\x1b[K");
      const { preview: _preview, ...plain } = summary;
      summaries.push(values.output === "json" ? plain : summary);
    }
    if (values.output === "json") {
      io.stdout.write(`${JSON.stringify(values.audit === "all" ? summaries : summaries[0], null, 2)}\n`);
    } else {
      io.stdout.write(`${backend.description}\n\n${summaries.map(renderSummary).join("\n")}`);
    }
    return summaries.every((s) => s.complete || s.status !== "completed") ? 0 : 2;
  } finally {
    await backend.close();
    await dispatcher.close();
  }
}
