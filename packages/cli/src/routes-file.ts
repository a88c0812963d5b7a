import { readFileSync } from "node:fs";
import { parseConfig, type RouteSetting, RoutesJsonSchema } from "@fleet-auditor/use-cases";
import { object } from "zod";
import { UsageError } from "./errors.ts";

/**
 * The routes a run from the terminal uses: `--routes FILE` (a JSON array of routes, or a
 * stages.json, whose `--stage` entry's `routes`, else its default's, are read), else the
 * `ROUTES` variable as the function reads it, else none (today's routes). Checked as the
 * function checks `ROUTES`; a problem names the file or the variable.
 */
export function routesOption(
  file: string | undefined,
  stage: string | undefined,
  vars: Readonly<Record<string, string | undefined>>,
): RouteSetting[] | undefined {
  if (file === undefined)
    return vars.ROUTES
      ? parseConfig(object({ ROUTES: RoutesJsonSchema }), { ROUTES: vars.ROUTES }).ROUTES
      : undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UsageError(`--routes ${file}: ${(err as Error).message}`);
  }
  const routes = Array.isArray(doc) ? doc : stageRoutes(doc, stage, file);
  if (routes === undefined) return undefined;
  const checked = RoutesJsonSchema.safeParse(JSON.stringify(routes));
  if (!checked.success)
    throw new UsageError(
      `--routes ${file}: ${checked.error.issues.map((i) => `${i.path.join(".") || "routes"}: ${i.message}`).join("; ")}`,
    );
  return checked.data;
}

/** A stages.json's routes for `stage` (its own, else the default's). */
function stageRoutes(doc: unknown, stage: string | undefined, file: string): unknown {
  const stages = (doc as { stages?: Record<string, { routes?: unknown }> }).stages;
  const fallback = (doc as { default?: { routes?: unknown } }).default;
  if (typeof doc !== "object" || doc === null || (stages === undefined && fallback === undefined))
    throw new UsageError(`--routes ${file}: expected a JSON array of routes, or a stages.json`);
  if (stage !== undefined && !stages?.[stage])
    throw new UsageError(`--routes ${file}: no stage ${stage} in it`);
  return (stage !== undefined ? stages?.[stage]?.routes : undefined) ?? fallback?.routes;
}
