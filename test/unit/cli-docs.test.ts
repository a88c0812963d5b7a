import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../packages/cli/src/cli.ts";
import { CLI_PAGE, cliPage, GENERATED_END } from "../../tools/cli-docs.ts";

const committed = readFileSync(new URL(`../../${CLI_PAGE}`, import.meta.url), "utf8");

describe("docs/cli.md", () => {
  it("is what `npm run docs` writes from the CLI's usage strings (run it after changing a usage)", async () => {
    expect(await cliPage(committed)).toBe(committed);
  });

  it("holds every command's usage word for word, above the hand-written part", () => {
    const generated = committed.slice(0, committed.indexOf(GENERATED_END));
    for (const c of COMMANDS) expect(generated).toContain(c.usage.trimEnd());
  });

  it("differs from what the tool writes when a usage on the page drifts", async () => {
    const drifted = committed.replace("fleet-auditor runs show RUN_ID", "fleet-auditor runs show ID");
    expect(drifted).not.toBe(committed);
    expect(await cliPage(drifted)).toBe(committed);
  });

  it("keeps the hand-written part below the marker as it is", async () => {
    const edited = `${committed}\nA note written by hand.\n`;
    expect(await cliPage(edited)).toBe(edited);
  });
});
