import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { headings } from "../helpers/markdown.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * The pages a reader moves between: the front README, the changelog, docs/ and each package's
 * README (packages/ and examples/).
 */
function pages(): string[] {
  const docs = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md"));
  const packages = ["packages", "examples"]
    .flatMap((folder) => readdirSync(join(ROOT, folder)).map((p) => `${folder}/${p}/README.md`))
    .filter((p) => existsSync(join(ROOT, p)));
  return ["README.md", "CHANGELOG.md", "functions/README.md", ...docs.map((f) => `docs/${f}`), ...packages];
}

/** Every relative link of a page (outside code fences and code spans), as written. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((href) => !/^[a-z]+:/.test(href));
}

/** What is wrong with each relative link of `page`: a file that is not there, an anchor no heading has. */
function brokenLinks(page: string, markdown: string, read: (path: string) => string | undefined): string[] {
  const problems: string[] = [];
  for (const href of relativeLinks(markdown)) {
    const [path = "", anchor] = href.split("#");
    const target = path === "" ? page : normalize(join(dirname(page), path));
    const text = path === "" ? markdown : read(target);
    if (text === undefined) problems.push(`${page}: ${href}: no such file`);
    else if (
      anchor !== undefined &&
      target.endsWith(".md") &&
      !headings(text).some((h) => h.anchor === anchor)
    )
      problems.push(`${page}: ${href}: no heading with that anchor`);
  }
  return problems;
}

const readPage = (path: string): string | undefined => {
  const full = join(ROOT, path);
  if (!existsSync(full)) return undefined;
  return path.endsWith(".md") ? readFileSync(full, "utf8") : "";
};

describe("the documentation's links", () => {
  it("lead to a file that exists and, with an anchor, to a heading it has", () => {
    const problems = pages().flatMap((p) => brokenLinks(p, readFileSync(join(ROOT, p), "utf8"), readPage));
    expect(problems).toEqual([]);
  });

  it("are found broken when a file or a heading is missing", () => {
    const page = "docs/example.md";
    const markdown =
      "# Example\n\n## Kept\n\n[a](#kept) [b](#gone) [c](operate.md#nope) [d](missing.md) `[e](#code)`\n";
    expect(brokenLinks(page, markdown, readPage)).toEqual([
      "docs/example.md: #gone: no heading with that anchor",
      "docs/example.md: operate.md#nope: no heading with that anchor",
      "docs/example.md: missing.md: no such file",
    ]);
  });
});

/** The files whose text points readers to a page: the CLI's help, messages, infra's descriptions, the schemas. */
function codeFiles(): string[] {
  const under = (folder: string): string[] =>
    (readdirSync(join(ROOT, folder), { recursive: true }) as string[])
      .map((f) => `${folder}/${f}`)
      .filter((f) => /\.(ts|json)$/.test(f) && !f.includes("node_modules"));
  return ["packages", "functions", "infra", "schemas"].flatMap(under);
}

/**
 * Each `docs/PAGE.md#anchor` a text names, whose page lacks the heading. `docs/operate.md#anchor`
 * is how the stage settings describe a runbook link in general, not a link.
 */
function brokenDocReferences(
  file: string,
  text: string,
  read: (path: string) => string | undefined,
): string[] {
  const problems: string[] = [];
  for (const [ref, page = "", anchor = ""] of text.matchAll(/\bdocs\/([\w-]+\.md)#([\w-]+)/g)) {
    if (anchor === "anchor") continue;
    const markdown = read(`docs/${page}`);
    if (markdown === undefined) problems.push(`${file}: ${ref}: no such file`);
    else if (!headings(markdown).some((h) => h.anchor === anchor))
      problems.push(`${file}: ${ref}: no heading with that anchor`);
  }
  return problems;
}

describe("the documentation the code points to (usage, stages.json's schema, messages)", () => {
  it("is a page that exists, with the heading its anchor names", () => {
    const problems = codeFiles().flatMap((f) =>
      brokenDocReferences(f, readFileSync(join(ROOT, f), "utf8"), readPage),
    );
    expect(problems).toEqual([]);
  });

  it("is found broken when the page or its heading is missing", () => {
    const text = 'help: "(docs/operate.md#alarms-and-their-runbooks, docs/operate.md#gone, docs/nope.md#x)"';
    expect(brokenDocReferences("x.ts", text, readPage)).toEqual([
      "x.ts: docs/operate.md#gone: no heading with that anchor",
      "x.ts: docs/nope.md#x: no such file",
    ]);
  });
});
