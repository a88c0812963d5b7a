// A stage's settings, read from the committed `stages.json` beside sst.config.ts: what deploy-time
// variables held before, so that a deploy from any shell deploys the same stage. Any problem fails
// the deploy naming the file, the field and the stage being deployed, never echoing a value.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { z } from "zod";
import {
  type StageSettings,
  StageSettingsSchema,
  type StagesFile,
  StagesFileSchema,
} from "./stage-schema.ts";

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
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") ? rel : path;
}

/** A field's path as the file spells it: `stages.prod.alertEmails[0].address`. */
const fieldOf = (path: readonly PropertyKey[]): string =>
  path.reduce<string>(
    (out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    "",
  ) || "(the file)";

function problems(error: z.ZodError): string {
  return error.issues.map((i) => `  ${fieldOf(i.path)}: ${i.message}`).join("\n");
}

/** The whole file, parsed and checked; throws naming the file, each bad field and `stage`. */
export function readStagesFile(path: string, stage: string): StagesFile {
  const where = `${shown(path)} (deploying stage ${stage})`;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`${where}: cannot be read as JSON: ${(err as Error).message}`);
  }
  const parsed = StagesFileSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${where} is invalid:\n${problems(parsed.error)}`);
  return parsed.data;
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
export function subscriberProblems(file: StagesFile, stage: string): string[] {
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
      `${shown(path)} (deploying stage ${stage}): a scheduled or protected stage must tell someone:\n${missing.map((m) => `  ${m}`).join("\n")}`,
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
