import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The AWS SDK clients share their core (@smithy/core, @aws-sdk/core) only at one version, and
// the Powertools packages share one `commons` (its logger, metrics and parameters keep their
// state there): two versions bundle two copies into a function, and mismatched ones drift.

const ROOT = new URL("../../", import.meta.url).pathname;

/** The families that move together, by the scope of their names. */
const FAMILIES = ["@aws-sdk/", "@aws-lambda-powertools/"] as const;

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** Every package.json of the repository (the root and each workspace), by its folder. */
function manifests(): Map<string, Manifest> {
  const found = new Map<string, Manifest>([
    [".", JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))],
  ]);
  for (const folder of ["packages", "examples"])
    for (const name of readdirSync(join(ROOT, folder))) {
      const file = join(ROOT, folder, name, "package.json");
      if (existsSync(file)) found.set(`${folder}/${name}`, JSON.parse(readFileSync(file, "utf8")));
    }
  return found;
}

/** Each declared dependency of a family: `where: name@range`, for the message. */
function declared(family: string): Array<{ where: string; name: string; range: string }> {
  return [...manifests()].flatMap(([where, m]) =>
    [m.dependencies, m.devDependencies, m.optionalDependencies, m.peerDependencies].flatMap((deps) =>
      Object.entries(deps ?? {})
        .filter(([name]) => name.startsWith(family))
        .map(([name, range]) => ({ where, name, range })),
    ),
  );
}

/** The lockfile's installed packages: path (`node_modules/…`) to version. */
function locked(): Map<string, string> {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string }>;
  };
  return new Map(
    Object.entries(lock.packages).flatMap(([path, p]) => (p.version ? [[path, p.version] as const] : [])),
  );
}

/** A path's package name: what follows its last `node_modules/`. */
const nameAt = (path: string): string =>
  path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);

describe("the dependency versions", () => {
  it.each(FAMILIES)("declare every %s package at one exact version, in every package.json", (family) => {
    const deps = declared(family);
    expect(deps.length, `no ${family} package declared`).toBeGreaterThan(0);
    const ranges = new Set(deps.map((d) => d.range));
    expect([...ranges], deps.map((d) => `${d.where}: ${d.name}@${d.range}`).join(", ")).toHaveLength(1);
    expect([...ranges][0]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.each(FAMILIES)("install every declared %s package at that version, one copy each", (family) => {
    const deps = declared(family);
    const names = new Set(deps.map((d) => d.name));
    const installed = [...locked()].filter(([path]) => names.has(nameAt(path)));
    const wrong = installed.filter(([, version]) => version !== deps[0]?.range);
    expect(wrong.map(([path, version]) => `${path}@${version}`)).toEqual([]);
    const copies = installed.map(([path]) => nameAt(path));
    expect(copies.sort()).toEqual([...names].sort());
  });

  it("install one @aws-lambda-powertools/commons, at the Powertools packages' version", () => {
    const commons = [...locked()].filter(([path]) => nameAt(path) === "@aws-lambda-powertools/commons");
    expect(commons.map(([path]) => path)).toEqual(["node_modules/@aws-lambda-powertools/commons"]);
    expect(commons[0]?.[1]).toBe(declared("@aws-lambda-powertools/")[0]?.range);
  });
});
