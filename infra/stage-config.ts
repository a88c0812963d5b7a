// A stage's settings, read from the committed `stages.json` beside sst.config.ts: what deploy-time
// variables held before, so that a deploy from any shell deploys the same stage. Any problem fails
// the deploy naming the file, the field and the stage being deployed, never echoing a value.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { auditSchedules } from "./schedules.ts";
import {
  type StageSettings,
  StageSettingsSchema,
  type StagesFile,
  StagesFileSchema,
} from "./stage-schema.ts";
import { incidentSummarySchedule } from "./summary-schedule.ts";

const FILE_NAME = "stages.json";
const DEFAULT_REGION = "eu-central-1";

/**
 * `stages.json` in the project's root: the nearest directory at or above the working directory
 * that holds `sst.config.ts`, as SST finds the project. `FLEET_AUDITOR_STAGES_FILE` names another
 * file for the tests' fixtures; it is not a way to deploy, which reads the committed file.
 */
export function stagesFilePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.FLEET_AUDITOR_STAGES_FILE) return env.FLEET_AUDITOR_STAGES_FILE;
  let dir = process.cwd();
  while (!existsSync(join(dir, "sst.config.ts"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no sst.config.ts at or above ${process.cwd()}, so no ${FILE_NAME}`);
    dir = up;
  }
  return join(dir, FILE_NAME);
}

/** Where a problem is: the file as the reader knows it (relative to the working directory, within it). */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") ? rel : path;
}

/** A field's path as the file spells it: `stages.prod.alertEmails[0].address`. */
const fieldOf = (path: readonly PropertyKey[]): string =>
  path.reduce<string>(
    (out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    "",
  ) || "(the file)";

/** A problem the deploy fails on, and what it names. */
export interface StageProblem {
  /** The stage whose entry holds it: `default` for the default's, `(the file)` for the file's own shape. */
  stage: string;
  /** The field and what is wrong, as the deploy prints it: `stages.prod.schedules.failing: expected …`. */
  problem: string;
}

/** The stage a field belongs to: `stages.prod.…` to prod, `default.…` to the default. */
function stageOfField(path: readonly PropertyKey[]): string {
  if (path[0] === "stages" && path.length > 1) return String(path[1]);
  return path[0] === "default" ? "default" : "(the file)";
}

/** The file checked against the schema (regions, rates, time zones, filter policies, …). */
function parseStages(json: unknown): { file: StagesFile } | { problems: StageProblem[] } {
  const parsed = StagesFileSchema.safeParse(json);
  if (parsed.success) return { file: parsed.data };
  return {
    problems: parsed.error.issues.map((i) => ({
      stage: stageOfField(i.path),
      problem: `${fieldOf(i.path)}: ${i.message}`,
    })),
  };
}

/** The file's JSON; throws naming it (`where`) when it cannot be read or parsed. */
export function readStagesJson(path: string, where = shownPath(path)): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`${where}: cannot be read as JSON: ${(err as Error).message}`);
  }
}

/** The whole file, parsed and checked; throws naming the file, each bad field and `stage`. */
export function readStagesFile(path: string, stage: string): StagesFile {
  const where = `${shownPath(path)} (deploying stage ${stage})`;
  const parsed = parseStages(readStagesJson(path, where));
  if ("problems" in parsed)
    throw new Error(`${where} is invalid:\n${parsed.problems.map((p) => `  ${p.problem}`).join("\n")}`);
  return parsed.file;
}

/**
 * Every problem the deploy fails on in a stages file as read (`json`), by the deploy's own rules:
 * the schema's over the whole file first (any one fails every stage's deploy); then, on a file the
 * schema takes, for each of `stages` (not given: the default, which stands for every stage not
 * listed, and each stage listed), `subscriberProblems` and what the deploy's own functions refuse
 * (`deployProblems`). `npm run stages -- check` prints these, and a test holds the committed file
 * to them.
 *
 * @example
 * stagesFileProblems(readStagesJson("stages.json"), ["prod"]) // [] when prod deploys
 */
export function stagesFileProblems(json: unknown, stages?: readonly string[]): StageProblem[] {
  const parsed = parseStages(json);
  if ("problems" in parsed) return parsed.problems;
  const { file } = parsed;
  return (stages ?? ["default", ...Object.keys(file.stages)]).flatMap((stage) =>
    [...subscriberProblems(file, stage), ...deployProblems(file, stage)].map((problem) => ({
      stage,
      problem,
    })),
  );
}

/**
 * What the deploy's functions throw on a stage whose settings the schema takes: `auditSchedules`
 * (run on every stage, scheduled or not: each schedule's gap its not-running alarm must watch) and
 * `incidentSummarySchedule` (a window longer than the records are kept). They are called, not
 * copied, so the check cannot drift from the deploy. Each is named as the field the deploy names,
 * in the entry that holds it (the stage's, else the default's): `stages.prod.schedules.failing: …`.
 */
function deployProblems(file: StagesFile, stage: string): string[] {
  const s = settingsOf(file, stage);
  const own = Object.hasOwn(file.stages, stage) ? file.stages[stage] : undefined;
  const problems: string[] = [];
  const refused = (field: keyof StageSettings, run: () => unknown): void => {
    try {
      run();
    } catch (err) {
      const entry = own && Object.hasOwn(own, field) ? `stages.${stage}` : "default";
      // The deploy's message begins `stage NAME: FIELD…`, the stage being deployed.
      const { message } = err as Error;
      const said = `stage ${stage}: `;
      problems.push(
        message.startsWith(said) ? `${entry}.${message.slice(said.length)}` : `${entry}.${field}: ${message}`,
      );
    }
  };
  refused("schedules", () => auditSchedules(stage, s.schedules));
  refused("incidentSummary", () => incidentSummarySchedule(stage, s));
  return problems;
}

/** A stage's settings: its entry's fields over the default's; a stage not listed, the default. */
export function settingsOf(file: StagesFile, stage: string): StageSettings {
  const own = Object.hasOwn(file.stages, stage) ? file.stages[stage] : undefined;
  return { ...file.default, ...own };
}

/**
 * What a scheduled or protected stage lacks to tell anyone: someone for the Ops alarms (`opsEmail`
 * or `chatbot`) and someone for the alerts (`alertEmails`, `chatbot`, `slack`, `pagerDuty` or
 * `pagerEmail`), each named as the field to fill in, in the stage's entry or, for a stage not
 * listed, the default. Empty for a developer's stage (neither scheduled nor protected).
 */
function subscriberProblems(file: StagesFile, stage: string): string[] {
  const s = settingsOf(file, stage);
  if (s.schedules?.enabled !== true && s.protected !== true) return [];
  const entry = Object.hasOwn(file.stages, stage) ? `stages.${stage}` : "default";
  const problems: string[] = [];
  if (!s.opsEmail && !s.chatbot)
    problems.push(`${entry}.opsEmail (or chatbot): name who hears the Ops alarms`);
  if (!s.alertEmails?.length && !s.chatbot && !s.slack && !s.pagerDuty && !s.pagerEmail)
    problems.push(
      `${entry}.alertEmails (or chatbot, slack, pagerDuty, pagerEmail): name who hears the alerts`,
    );
  return problems;
}

/**
 * `stage`'s settings from the project's `stages.json` (`stagesFilePath`); throws, naming each
 * field, when the stage is scheduled or protected and tells no one (`subscriberProblems`).
 */
export function stageSettings(stage: string): StageSettings {
  const path = stagesFilePath();
  const file = readStagesFile(path, stage);
  const missing = subscriberProblems(file, stage);
  if (missing.length > 0)
    throw new Error(
      `${shownPath(path)} (deploying stage ${stage}): a scheduled or protected stage must tell someone:\n${missing.map((m) => `  ${m}`).join("\n")}`,
    );
  return settingsOf(file, stage);
}

/** The stage's entry's field, else the default's, read without checking the file (for `app()`). */
function rawField(stage: string, field: "region" | "protected"): { own: unknown; default: unknown } {
  try {
    const json = JSON.parse(readFileSync(stagesFilePath(), "utf8")) as {
      default?: Record<string, unknown>;
      stages?: Record<string, Record<string, unknown>>;
    };
    const own = json.stages && Object.hasOwn(json.stages, stage) ? json.stages[stage] : undefined;
    return { own: own?.[field], default: json.default?.[field] };
  } catch {
    return { own: undefined, default: undefined };
  }
}

/**
 * Whether `app()` retains and protects the stage: its `protected`, else the default's. Like
 * `stageRegion`, it never throws (SST would hide why); `run()` checks the whole file first.
 */
export function stageProtected(stage: string): boolean {
  const { own, default: fallback } = rawField(stage, "protected");
  return (typeof own === "boolean" ? own : fallback) === true;
}

/**
 * The region `app()` pins the provider to: the stage's `region`, else the default's, else
 * eu-central-1. SST hides what `app()` throws behind "Unexpected error" (only `--print-logs` shows
 * it), so this reads the region alone and never throws: `run()`, whose errors SST shows, checks
 * the whole file first thing and fails the deploy before it declares anything.
 */
export function stageRegion(stage: string): string {
  const region = StageSettingsSchema.shape.region;
  const given = rawField(stage, "region");
  return region.safeParse(given.own).data ?? region.safeParse(given.default).data ?? DEFAULT_REGION;
}
