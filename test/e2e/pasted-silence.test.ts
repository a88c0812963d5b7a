import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { RunSummary } from "@fleet-auditor/audit";
import { generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { describe, expect, it } from "vitest";
import { cli, runArgs } from "../helpers/cli.ts";
import { useKebSimulator } from "../helpers/keb.ts";

// What on call does at 3 a.m.: copy the silence line a message suggests, paste it into a shell
// somewhere else than where the audit keeps its state, and expect the next run to stay quiet
// about that incident, and only that one.

const kit = useKebSimulator({ fleet: { size: 60, seed: 31, flagged: 0 } });
// `state,region`: the incident is a region's failures, whatever their reasons.
const env = { KEB_TOKEN: "local-token", GROUP_BY_FAILING: "state,region" };
// The directory holding `fleet-auditor` and the Node it runs on, as an operator's PATH has them.
const BIN = join(dirname(new URL(import.meta.url).pathname), "../../node_modules/.bin");

interface OutboxLine {
  message: string;
  attributes: { format?: string };
}
const outbox = (dir: string): OutboxLine[] =>
  readFileSync(join(dir, "outbox.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as OutboxLine);
const variants = (l: OutboxLine) => JSON.parse(l.message) as { email: string; https: string };
const unescapeSlack = (s: string): string =>
  s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** Pastes `line` into a POSIX shell in `cwd`, as someone with only the CLI on their PATH would. */
function paste(line: string, cwd: string) {
  const run = spawnSync("/bin/sh", ["-c", line], {
    cwd,
    env: { PATH: `${BIN}:/usr/bin:/bin`, USER: "oncall", HOME: cwd },
    encoding: "utf8",
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

// Each test starts the CLI four times, twice as pasted (its TypeScript entry, type-stripped):
// seconds on a quiet machine, over the default 20 s on a loaded one. The timeouts are hang
// guards, not bars.
describe("a silence line pasted from a message", () => {
  it("silences the incident it names in the run's own store, from any directory, and nothing else", async () => {
    const state = mkdtempSync(join(tmpdir(), "fa-paste-state-"));
    const elsewhere = mkdtempSync(join(tmpdir(), "fa-paste-cwd-"));
    const fleet = kit.sim.fleet;
    const all = fleet.all();
    const region = all[0]?.region as string;
    const [a, b] = all.filter((i) => i.region === region).map((i) => i.instanceID);
    const c = all.find((i) => i.region !== region)?.instanceID as string;
    expect(a && b && c).toBeTruthy();

    fleet.fail(a as string);
    const first = await cli(runArgs("failing", kit.sim.url, state), { env });
    expect(first.code, first.stderr).toBe(0);
    const digest = outbox(state).find((l) => l.attributes.format === "digest") as OutboxLine;
    const silence = variants(digest)
      .email.split("\n")
      .find((l) => l.startsWith("    silence: "))
      ?.slice("    silence: ".length) as string;
    expect(silence).toContain(`--match region=${region}`);
    // Every channel suggests the same line: the digest's Chatbot and the incident's message.
    const incident = outbox(state).find((l) => l.attributes.format === "incident") as OutboxLine;
    for (const m of [digest, incident]) {
      const steps = (JSON.parse(variants(m).https) as { content: { nextSteps: string[] } }).content.nextSteps;
      expect(steps.map(unescapeSlack)).toContain(`Silence: \`${silence}\``);
    }

    // Without the store it names, the line would have written into ./.fleet-auditor of the
    // directory it was pasted in: refused there, since there is no store, and none is left behind.
    const storeless = silence.replace(/ --state-dir \S+$/, "");
    expect(storeless).not.toBe(silence);
    const refused = paste(storeless, elsewhere);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`fleet-auditor: no embedded store in ${join(elsewhere, ".fleet-auditor")}\n`);
    expect(existsSync(join(elsewhere, ".fleet-auditor"))).toBe(false);

    const pasted = paste(silence, elsewhere);
    expect(pasted.code, pasted.stderr).toBe(0);
    const id = /^silence (\S+) until /.exec(pasted.stdout)?.[1] as string;
    expect(id, pasted.stdout).toBeDefined();

    const toldBefore = outbox(state).length;
    fleet.fail(b as string);
    fleet.fail(c);
    const second = await cli(runArgs("failing", kit.sim.url, state, "--output", "json"), { env });
    expect(second.code, second.stderr).toBe(0);
    const summary = JSON.parse(second.stdout) as RunSummary;
    const byId = new Map(summary.transitions.map((t) => [t.instanceID, t]));
    expect(byId.get(b as string)).toMatchObject({ kind: "firing", silencedBy: id });
    expect(byId.get(c)?.kind).toBe("firing");
    expect(byId.get(c)?.silencedBy).toBeUndefined();
    const told = outbox(state)
      .slice(toldBefore)
      .map((l) => variants(l).email)
      .join("\n");
    expect(told).toContain(c);
    expect(told).not.toContain(b as string);
  }, 60_000);

  it("quotes a value the matcher syntax would read otherwise, and a braced list typed by hand works alike", async () => {
    const state = mkdtempSync(join(tmpdir(), "fa-paste-state-"));
    const elsewhere = mkdtempSync(join(tmpdir(), "fa-paste-cwd-"));
    const fleet = kit.sim.fleet;
    fleet.reset(generateFleet({ size: 60, seed: 31, flagged: 0 }));
    const [a, b, c, d] = fleet.all();
    if (!a || !b || !c || !d) throw new Error("the fleet has fewer than four runtimes");
    // A space, a comma, double quotes, braces and a backslash: bare, `--match` would split the
    // value at the comma, or refuse the quotes. A second region is the first's start: a value cut
    // short would silence it.
    const odd = 'eu "west", {1} \\ x';
    const near = 'eu "west"';
    a.region = odd;
    b.region = odd;
    c.region = near;

    fleet.fail(a.instanceID);
    const first = await cli(runArgs("failing", kit.sim.url, state), { env });
    expect(first.code, first.stderr).toBe(0);
    const digest = outbox(state).find((l) => l.attributes.format === "digest") as OutboxLine;
    const silence = variants(digest)
      .email.split("\n")
      .find((l) => l.startsWith("    silence: "))
      ?.slice("    silence: ".length) as string;
    expect(silence).toContain(`--match 'region="eu \\"west\\", {1} \\\\ x"'`);
    const pasted = paste(silence, elsewhere);
    expect(pasted.code, pasted.stderr).toBe(0);
    const oddId = /^silence (\S+) until /.exec(pasted.stdout)?.[1] as string;

    // What an operator types for the other region, several matchers in one --match.
    const typed = paste(
      `fleet-auditor silences add --match '{state=~"failed|error", region = "eu \\"west\\"",}' --for 1h --comment 'near region' --by "$USER" --state-dir '${state}'`,
      elsewhere,
    );
    expect(typed.code, typed.stderr).toBe(0);
    const nearId = /^silence (\S+) until /.exec(typed.stdout)?.[1] as string;

    for (const i of [b, c, d]) fleet.fail(i.instanceID);
    const second = await cli(runArgs("failing", kit.sim.url, state, "--output", "json"), { env });
    expect(second.code, second.stderr).toBe(0);
    const byId = new Map((JSON.parse(second.stdout) as RunSummary).transitions.map((t) => [t.instanceID, t]));
    expect(byId.get(b.instanceID)).toMatchObject({ kind: "firing", silencedBy: oddId });
    expect(byId.get(c.instanceID)).toMatchObject({ kind: "firing", silencedBy: nearId });
    expect(byId.get(d.instanceID)?.kind).toBe("firing");
    expect(byId.get(d.instanceID)?.silencedBy).toBeUndefined();
  }, 60_000);
});
