import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { inStore } from "@fleet-auditor/audit";
import { runCli } from "@fleet-auditor/cli";

/** The demo's runs begin on this day: a window from it holds every incident they told. */
const DEMO_SINCE = "2026-11-29T00:00:00Z";

/**
 * The end of `npm start`: the incidents the runs above kept, as `fleet-auditor incidents list`
 * prints them from the demo's store (the CLI itself, in this process, on the store the runs
 * wrote); their page, `incidents report -o html`, written to `<stateDir>/report.html`; and the
 * commands that read the same store from a terminal.
 */
export async function showIncidentHistory(stateDir: string, out: NodeJS.WritableStream): Promise<void> {
  const list = ["incidents", "list", "--since", DEMO_SINCE];
  out.write("\n━━ Incident history: what the runs above kept of each incident\n");
  out.write(`  $ ${command(list, stateDir)}\n\n`);
  out.write(`${indent(await cli([...list, "--state-dir", stateDir]))}\n`);
  const report = ["incidents", "report", "--since", DEMO_SINCE, "-o", "html"];
  const page = join(stateDir, "report.html");
  writeFileSync(page, `${await cli([...report, "--state-dir", stateDir])}\n`);
  out.write(`\n  $ ${command(report, stateDir)} > report.html\n  wrote ${page}: open it in a browser\n`);
  out.write(
    `\n  The demo's store is ${stateDir}; from a terminal:\n` +
      `    ${command(["incidents", "stats", "--since", DEMO_SINCE], stateDir)}\n` +
      `    ${command(["incidents", "show", "KEY"], stateDir)}\n`,
  );
}

/** What the CLI prints for `args`, with the environment left out (the demo's store, never AWS), as the demo's landscape. */
async function cli(args: string[]): Promise<string> {
  let text = "";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk;
      done();
    },
  });
  const stdin = new PassThrough();
  stdin.end();
  const code = await runCli(args, { LANDSCAPE: "demo" }, { stdout: sink, stderr: sink, stdin });
  if (code !== 0) throw new Error(`fleet-auditor ${args.join(" ")} exited ${code}: ${text}`);
  return text.trimEnd();
}

/** The command line as a user pastes it, the state directory quoted where it needs to be. */
function command(args: string[], stateDir: string): string {
  const line = `fleet-auditor ${args.join(" ")}`;
  return inStore(line, { stateDir }, "audit") ?? line;
}

const indent = (text: string): string =>
  text
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
