// `npm run stages -- check [--stage NAME] [--file PATH]`: checks stages.json (or another file)
// by the deploy's own rules (`stagesFileProblems` of infra/stage-config.ts: the schema, then who
// hears each scheduled or protected stage, each schedule's gap and the incident summary's window)
// without deploying, so that a mistake is found before SST has made half a stack.

import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { readStagesJson, shownPath, stagesFilePath, stagesFileProblems } from "../infra/stage-config.ts";

const USAGE = `usage: npm run stages -- check [--stage NAME] [--file PATH]

Checks stages.json (the one beside sst.config.ts, or --file PATH) by the rules the deploy applies:
the schema (regions, rate() expressions, time zones, SNS filter policies, …) over the whole file,
then, for each stage (--stage: that one; a stage not listed is the default's), that a scheduled or
protected stage names who hears its Ops alarms and its alerts, that each audit's gap between runs
can be watched (whole minutes, 1 minute to 3.5 days; scheduled or not), and that the incident
summary's window is no longer than incidentRetentionDays (checked once the schema holds). Each
problem is printed on stdout, a line naming the stage and the field; exit 0 with one OK line, 1 on
any problem or a file that cannot be read (said on stderr), 2 for bad usage.
`;

/** What `check` found, as lines to print and the exit code. */
interface Outcome {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run stages -- ARGV`: `check` prints on stdout each problem the deploy would fail on as
 * `FILE: stage NAME: FIELD: what is wrong`, or one OK line; a file it cannot read, or bad usage,
 * goes to stderr.
 *
 * @example
 * runStagesTool(["check", "--stage", "prod"]) // { code: 1, stdout: "stages.json: stage prod: stages.prod.opsEmail …", stderr: "" }
 */
export function runStagesTool(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Outcome {
  let values: { stage?: string | undefined; file?: string | undefined; help?: boolean | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: { stage: { type: "string" }, file: { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
    }));
  } catch (err) {
    return { code: 2, stdout: "", stderr: `stages: ${(err as Error).message}\n${USAGE}` };
  }
  if (values.help) return { code: 0, stdout: USAGE, stderr: "" };
  if (positionals.length !== 1 || positionals[0] !== "check")
    return { code: 2, stdout: "", stderr: `stages: expected the command check\n${USAGE}` };
  let path: string;
  let json: unknown;
  try {
    path = values.file ?? stagesFilePath(env);
    json = readStagesJson(path);
  } catch (err) {
    return { code: 1, stdout: "", stderr: `stages: ${(err as Error).message}\n` };
  }
  const shown = shownPath(path);
  const problems = stagesFileProblems(json, values.stage === undefined ? undefined : [values.stage]);
  if (problems.length > 0) {
    // The problem names its field (`stages.prod.…`, `default.…`); the stage is said first for the eye.
    const lines = problems.map(({ stage, problem }) =>
      stage === "(the file)"
        ? `${shown}: ${problem}\n`
        : `${shown}: ${stage === "default" ? "default" : `stage ${stage}`}: ${problem}\n`,
    );
    return { code: 1, stdout: lines.join(""), stderr: "" };
  }
  const what = values.stage === undefined ? "every stage" : `stage ${values.stage}`;
  return { code: 0, stdout: `${shown}: OK for ${what}\n`, stderr: "" };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { code, stdout, stderr } = runStagesTool(process.argv.slice(2));
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = code;
}
