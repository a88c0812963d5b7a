// The ```ts blocks of the documentation (docs/*.md, the READMEs), each written out as a module of
// its own under .snippets/ (gitignored) for `npm run typecheck` to compile with the project's
// settings, so that an example that no longer compiles fails the type check. A block that is
// deliberately not compilable is fenced ```ts nocheck.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Where the snippets are written, from the repository's root. */
export const SNIPPETS_DIR = ".snippets";

/** One ```ts block: the page it is in, the line its code starts on, and its code. */
interface Snippet {
  page: string;
  line: number;
  code: string;
}

/** The pages whose ```ts blocks are compiled. */
function documentationPages(root: string): string[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  const readmes = ["README.md", "functions/README.md"].concat(
    ["packages", "examples"].flatMap((folder) =>
      readdirSync(join(root, folder)).map((p) => `${folder}/${p}/README.md`),
    ),
  );
  return [...docs, ...readmes].filter((p) => existsSync(join(root, p)));
}

/** The ```ts blocks of a page, leaving out ```ts nocheck ones and any other language. */
function snippetsOf(page: string, markdown: string): Snippet[] {
  const found: Snippet[] = [];
  let open: { line: number; lines: string[]; check: boolean } | undefined;
  markdown.split("\n").forEach((text, i) => {
    if (open === undefined) {
      const fence = /^```(\S*)\s*(.*)$/.exec(text);
      if (fence) open = { line: i + 2, lines: [], check: fence[1] === "ts" && fence[2] !== "nocheck" };
    } else if (text.startsWith("```")) {
      if (open.check) found.push({ page, line: open.line, code: open.lines.join("\n") });
      open = undefined;
    } else open.lines.push(text);
  });
  return found;
}

/**
 * Writes every snippet of the documentation as `.snippets/<n>.ts` with a tsconfig that extends
 * the project's, and returns how to name a snippet's file back as its page and line.
 */
export function writeSnippets(root: string): Map<string, Snippet> {
  const dir = join(root, SNIPPETS_DIR);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  const files = new Map<string, Snippet>();
  const snippets = documentationPages(root).flatMap((p) =>
    snippetsOf(p, readFileSync(join(root, p), "utf8")),
  );
  snippets.forEach((s, n) => {
    const file = `${SNIPPETS_DIR}/snippet-${n}.ts`;
    // `export {}` keeps each block a module of its own (top-level await, no shared names).
    writeFileSync(join(root, file), `${s.code}\nexport {};\n`);
    files.set(file, s);
  });
  // The code's own program (tsconfig.json's files) with the snippets in it: one program loads the
  // packages' types once, where a second one for the snippets alone would load them again.
  const code = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8")) as { include: string[] };
  const tsconfig = {
    extends: "../tsconfig.json",
    compilerOptions: { noUnusedLocals: false },
    include: ["*.ts", ...code.include.map((path) => `../${path}`)],
  };
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
  return files;
}

/** tsc's output with each snippet's file and line given as its page's: `docs/x.md:12:5`. */
export function asPageLines(output: string, files: Map<string, Snippet>): string {
  return output.replace(/(\.snippets\/snippet-\d+\.ts)\((\d+),(\d+)\)/g, (whole, file: string, line, col) => {
    const s = files.get(file);
    return s ? `${s.page}:${s.line + Number(line) - 1}:${col}` : whole;
  });
}
