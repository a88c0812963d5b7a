import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * Each workspace package's entry files, as its package.json names them: every target of
 * "exports", else "main". `pkg` is the package's folder from the root (`packages/keb`,
 * `examples/demo`).
 */
function entries(): { pkg: string; subpath: string; file: string }[] {
  const found: { pkg: string; subpath: string; file: string }[] = [];
  const pkgs = ["packages", "examples"].flatMap((folder) =>
    readdirSync(join(ROOT, folder)).map((name) => `${folder}/${name}`),
  );
  for (const pkg of pkgs) {
    const manifest = join(ROOT, pkg, "package.json");
    if (!existsSync(manifest)) continue;
    const json = JSON.parse(readFileSync(manifest, "utf8")) as { exports?: unknown; main?: string };
    const targets: [string, string][] = [];
    if (typeof json.exports === "string") targets.push([".", json.exports]);
    else if (json.exports !== null && typeof json.exports === "object")
      for (const [subpath, target] of Object.entries(json.exports as Record<string, unknown>))
        if (typeof target === "string") targets.push([subpath, target]);
    if (targets.length === 0 && json.main !== undefined) targets.push([".", json.main]);
    for (const [subpath, target] of targets) found.push({ pkg, subpath, file: join(ROOT, pkg, target) });
  }
  return found;
}

/** The names each entry file exports, read with one TypeScript program over all of them. */
function exportedNames(files: string[]): Map<string, string[]> {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    allowImportingTsExtensions: true,
    noEmit: true,
    noLib: true,
    types: [],
  };
  // Only the packages' own files name their exports: a dependency's declarations are read as empty,
  // which keeps the program to a few hundred small files.
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (name, language, ...rest) =>
    name.includes("/node_modules/")
      ? ts.createSourceFile(name, "", language)
      : getSourceFile.call(host, name, language, ...rest);
  const program = ts.createProgram(files, options, host);
  const checker = program.getTypeChecker();
  const names = new Map<string, string[]>();
  for (const file of files) {
    const source = program.getSourceFile(file);
    const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    names.set(file, symbol === undefined ? [] : checker.getExportsOfModule(symbol).map((s) => s.name));
  }
  return names;
}

describe("each workspace package's README", () => {
  it("names, in backticks, every export of every entry its package.json lists", () => {
    const all = entries();
    const names = exportedNames(all.map((e) => e.file));
    const missing: string[] = [];
    const empty: string[] = [];
    for (const { pkg, subpath, file } of all) {
      const readme = join(ROOT, pkg, "README.md");
      const text = existsSync(readme) ? readFileSync(readme, "utf8") : "";
      const exported = names.get(file) ?? [];
      if (exported.length === 0) empty.push(`${pkg} ${subpath}`);
      const absent = exported.filter((name) => !text.includes(`\`${name}\``));
      if (absent.length > 0) missing.push(`${pkg} (${subpath}): ${absent.sort().join(", ")}`);
    }
    expect(empty, "entries the compiler found no exports in").toEqual([]);
    expect(missing, "exports a package README does not name in backticks").toEqual([]);
  });
});
