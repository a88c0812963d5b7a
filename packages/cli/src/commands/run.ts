import { randomUUID } from "node:crypto";
import type { RunSummary } from "@fleet-auditor/audit";
import { KebEnvSchema, kebClientFrom, kebTransportFrom } from "@fleet-auditor/keb-audits";
import { thresholdsFrom } from "@fleet-auditor/kubeedge-audit";
import { MAX_NEW_INCIDENT_MESSAGES } from "@fleet-auditor/render";
import { managedSecretReader } from "@fleet-auditor/store";
import {
  type AuditRunInput,
  messagingFrom,
  parseConfig,
  parseRunInput,
  runAudit,
  runDeadline,
} from "@fleet-auditor/use-cases";
import { iso } from "zod";
import { oneOf, parseKeyValues, parseTimerDuration, stateDirOption } from "../args.ts";
import { cliAudits, KNOWN_AUDITS, readsKeb, readsStatusTable } from "../audits.ts";
import { openBackend } from "../backend.ts";
import type { Command } from "../command.ts";
import { parseCommandLine } from "../command-line.ts";
import { UsageError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import { outputOption, parseOutput, printData } from "../output.ts";
import { routesOption } from "../routes-file.ts";
import { renderSummary } from "../summary-table.ts";

const AUDIT_NAMES = KNOWN_AUDITS.names;

const USAGE = `usage: fleet-auditor run --audit ${[...AUDIT_NAMES, "all"].join("|")} [--keb-url URL] [options]

options:
  --state-dir DIR               embedded state and outbox (default .fleet-auditor/)
  --dry-run                     compute everything, publish and write nothing
  --now ISO-TIME                the time the audit engine uses (default: now)
  -o, --output json|yaml|table  json and yaml print exactly the run summary (an array with --audit all)
  --filter KEY=VALUE[,VALUE]    narrow the audit; KEY: plan, region, account, subaccount, shoot, instance, runtime
                                (plan=trial,aws: either plan, as kcp reads it; or repeat --filter)
  --deadline DURATION           stop reading after this long and end the run incomplete (default 10m,
                                at most 24d)
  --routes FILE                 the routes (a JSON array, or a stages.json: --stage's, else its
                                default's); default ROUTES, else chat by incident and one page per
                                audit episode (docs/notifications.md#routes-and-storms)
  --stage NAME                  the stage of a stages.json given to --routes

KEB audits (failing, expired): --keb-url or KEB_URL; auth (environment): KEB_TOKEN, or
KEB_TOKEN_URL + KEB_CLIENT_ID with KEB_CLIENT_SECRET or KEB_USERNAME + KEB_PASSWORD (a secret
also by its <VARIABLE>_ARN in Secrets Manager, as HTTPS_PROXY_ARN, a proxy with credentials).
applications reads the Application status table (embedded, or STATUS_TABLE); thresholds:
STUCK_AFTER_MINUTES, REJECTED_BURST, REJECTED_WINDOW_MINUTES. all: every KEB audit, and
applications unless AWS is used without STATUS_TABLE.
AWS instead of the embedded store: AUDIT_TABLE + ALERT_TOPIC_ARN (+ STATUS_TABLE), or sst shell.
exit codes: 0 complete run (or already done for this scheduled time); 1 bad input or
configuration (KEB or its token endpoint refusing the credentials included); 2 an incomplete
scan (KEB or its token endpoint not answering included), a message not sent, or skipped because
another run holds the lease (fleet-auditor lease).
`;

type Filters = NonNullable<AuditRunInput["filters"]>;

const FILTER_KEYS: Record<string, keyof Filters> = {
  plan: "plans",
  region: "regions",
  account: "globalAccountIDs",
  subaccount: "subAccountIDs",
  shoot: "shoots",
  instance: "instanceIDs",
  runtime: "runtimeIDs",
};

const OPTIONS = {
  audit: { type: "string" },
  "keb-url": { type: "string" },
  ...stateDirOption,
  "dry-run": { type: "boolean", default: false },
  now: { type: "string" },
  ...outputOption,
  filter: { type: "string", multiple: true, default: [] as string[] },
  deadline: { type: "string", default: "10m" },
  routes: { type: "string" },
  stage: { type: "string" },
} as const;

/** `fleet-auditor run`: one audit (or all) from a terminal. */
export const runCommand: Command = {
  name: "run",
  summary: "run an audit against a KEB",
  usage: USAGE,
  options: OPTIONS,
  async run(argv, { env, vars, io }) {
    const { values } = parseCommandLine(argv, OPTIONS);
    if (!values.audit) throw new UsageError("--audit is required");
    oneOf(values.audit, [...AUDIT_NAMES, "all"], "--audit");
    const output = parseOutput(values.output);
    const deadlineMs = parseTimerDuration(values.deadline, "--deadline");
    const edgeAvailable = !env.AUDIT_TABLE || env.STATUS_TABLE !== undefined;
    const names =
      values.audit === "all" ? AUDIT_NAMES.filter((name) => readsKeb(name) || edgeAvailable) : [values.audit];
    const filters = Object.fromEntries(
      parseKeyValues(values.filter, FILTER_KEYS, "--filter", { commas: true }),
    );
    if (values.now !== undefined && !isZonedTime(values.now))
      throw new UsageError(
        `--now ${values.now}: expected an ISO time with its zone, such as 2026-11-29T06:00:00Z`,
      );
    const inputs = names.map((audit) =>
      parseRunInput({
        audit,
        dryRun: values["dry-run"],
        ...(values.now ? { now: values.now } : {}),
        ...(Object.keys(filters).length ? { filters } : {}),
      }),
    );
    const routes = routesOption(values.routes, values.stage, vars);
    const keb = inputs.some((i) => readsKeb(i.audit))
      ? parseConfig(KebEnvSchema, {
          ...vars,
          KEB_URL: kebUrlOf(values.audit, values["keb-url"], vars.KEB_URL),
        })
      : undefined;
    // A client secret, password or proxy given by its ARN (KEB_CLIENT_SECRET_ARN, as `sst shell`
    // links it; KEB_PASSWORD_ARN, HTTPS_PROXY_ARN) is read from Secrets Manager as the function
    // reads it, again after the token endpoint (or the proxy) refuses it.
    const secrets = keb ? managedSecretReader() : undefined;
    const client = keb ? kebClientFrom(keb, kebTransportFrom(keb, {}, secrets), secrets) : undefined;
    // A dry run writes nothing: in a directory with no store yet it previews against an empty one.
    const backend = await openBackend(values["state-dir"], env, {
      status: inputs.some((i) => readsStatusTable(i.audit)),
      use: values["dry-run"] ? "preview" : "write",
    });
    const progress = io.stderr.isTTY
      ? (done: number, total: number) => io.stderr.write(`\rpages ${done}/${total}   `)
      : undefined;
    const audits = cliAudits({
      keb: { ...(client ? { client } : {}), ...(progress ? { onProgress: progress } : {}) },
      kubeedge: {
        ...(backend.status ? { statusStore: backend.status } : {}),
        thresholds: thresholdsFrom(env),
      },
      grouping: env,
    });
    // Ctrl-C or a kill mid-run: give the lease back before leaving, or every run for the next
    // LEASE_MINUTES would be skipped. The CLI is the process's edge, so it may exit here.
    let current: { audit: string; runId: string } | undefined;
    // Set once a signal is handled: the run it cut short may still fail (its store is closing),
    // and that failure must not exit 1 before the handler exits 130 or 143.
    let exiting: Promise<void> | undefined;
    const interrupted = (signal: NodeJS.Signals): void => {
      const held = current;
      // The cut-short run still has queries in flight; the embedded store (dynalite) throws from
      // a timer, where no promise can catch it, when its database closes under one. Leaving, such
      // a throw is the run's death, not news: it must not exit 1 before this exits 130 or 143.
      process.on("uncaughtException", () => undefined);
      exiting = (async () => {
        if (held) await backend.store.releaseLease(held.audit, held.runId).catch(() => undefined);
        io.stderr.write(
          `\nfleet-auditor: interrupted by ${signal}${held ? `; the lease of ${held.audit} was released` : ""}\n`,
        );
        await backend.close().catch(() => undefined);
        process.exit(signal === "SIGINT" ? EXIT.interrupted : EXIT.terminated);
      })();
    };
    // How the interrupted run fails does not matter: the handler exits (and never resolves).
    const unlessInterrupted = async (err: unknown): Promise<never> => {
      if (exiting !== undefined) await exiting;
      throw err;
    };
    process.once("SIGINT", interrupted);
    process.once("SIGTERM", interrupted);
    try {
      const summaries: RunSummary[] = [];
      for (const input of inputs) {
        const summary = await runAudit(
          {
            ports: {
              audits,
              store: backend.store,
              silences: backend.silences,
              publisher: backend.publisher,
              reports: backend.reports,
            },
            settings: {
              commandStore: backend.commandStore,
              ...(backend.topics.incidents
                ? { incidentMessages: { maxNew: MAX_NEW_INCIDENT_MESSAGES } }
                : {}),
              ...(backend.topics.critical ? { pagerMessages: true } : {}),
              ...(routes ? { routes } : {}),
              ...messagingFrom(env),
            },
            hooks: {
              newId: () => {
                const runId = randomUUID();
                current = { audit: input.audit, runId };
                return runId;
              },
            },
          },
          input,
          // Each audit gets the whole deadline; it is a bound on one run, like the function's.
          runDeadline(deadlineMs, 0),
        );
        if (progress) io.stderr.write("\r\x1b[K");
        const { preview: _preview, ...plain } = summary;
        summaries.push(output === "table" ? summary : plain);
      }
      printData(io, output, values.audit === "all" ? summaries : summaries[0], () =>
        `${backend.description}\n\n${summaries.map(renderSummary).join("\n")}`.trimEnd(),
      );
      // KEB refusing the credentials, or a secret without a value yet, is configuration: exit 1,
      // like a bad variable.
      if (
        summaries.some(
          (s) =>
            s.status === "not-configured" ||
            s.incompleteCode === "KEB_AUTH" ||
            s.incompleteCode === "KEB_CONFIG",
        )
      )
        return EXIT.failed;
      // An incomplete scan, a message not sent, and a run that stood back for another: exit 2.
      const audited = (s: RunSummary): boolean =>
        s.status === "duplicate" || (s.status === "completed" && s.complete && s.notified.failed === 0);
      return summaries.every(audited) ? EXIT.done : EXIT.partial;
    } catch (err) {
      return await unlessInterrupted(err);
    } finally {
      process.off("SIGINT", interrupted);
      process.off("SIGTERM", interrupted);
      await backend.close();
    }
  },
};

/**
 * The KEB URL a KEB audit reads: `--keb-url`, else `KEB_URL`. What is wrong is said of what was
 * typed: a missing one names the option as well as the variable, a value that is no URL the option.
 */
function kebUrlOf(audit: string, option: string | undefined, variable: string | undefined): string {
  if (option !== undefined) {
    if (!URL.canParse(option))
      throw new UsageError(
        `--keb-url ${option}: not a URL; give one such as https://kyma-env-broker.example.com`,
      );
    return option;
  }
  if (!variable) throw new UsageError(`--audit ${audit} reads KEB: give --keb-url URL (or set KEB_URL)`);
  return variable;
}

/** What the run input takes as `now` (`AuditRunInputSchema`): a date, a time and its zone. */
const ZONED_TIME = iso.datetime({ offset: true });
const isZonedTime = (value: string): boolean => ZONED_TIME.safeParse(value).success;
