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

/** `stage`'s settings from the project's `stages.json` (`stagesFilePath`). */
export function stageSettings(stage: string): StageSettings {
  return settingsOf(readStagesFile(stagesFilePath(), stage), stage);
}

/**
 * The region `app()` pins the provider to: the stage's `region`, else the default's, else
 * eu-central-1. SST hides what `app()` throws behind "Unexpected error" (only `--print-logs` shows
 * it), so this reads the region alone and never throws: `run()`, whose errors SST shows, checks
 * the whole file first thing and fails the deploy before it declares anything.
 */
export function stageRegion(stage: string): string {
  const region = StageSettingsSchema.shape.region;
  try {
    const json = JSON.parse(readFileSync(stagesFilePath(), "utf8")) as {
      default?: { region?: unknown };
      stages?: Record<string, { region?: unknown }>;
    };
    const own = json.stages && Object.hasOwn(json.stages, stage) ? json.stages[stage] : undefined;
    return (
      region.safeParse(own?.region).data ?? region.safeParse(json.default?.region).data ?? DEFAULT_REGION
    );
  } catch {
    return DEFAULT_REGION;
  }
}
