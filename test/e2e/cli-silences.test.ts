import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emptyStateDir, runArgs, cli as runCommandLine } from "../helpers/cli.ts";
import { useKebSimulator } from "../helpers/keb.ts";

const kit = useKebSimulator({ fleet: { size: 400, seed: 13, flagged: 30 } });
const cli = (args: string[]) => runCommandLine(args, { env: { KEB_TOKEN: "local-token" } });
/** The run digests in the outbox (the alert topic's messages). */
const outbox = (dir: string): Array<{ message: string }> =>
  readFileSync(join(dir, "outbox.jsonl"), "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { message: string; attributes: { format?: string } })
    .filter((l) => l.attributes.format === "digest");

describe("fleet-auditor silences", () => {
  it("keeps a silenced runtime out of the digests until the silence is expired", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-sil-"));
    const dry = JSON.parse(
      (await cli(runArgs("failing", kit.sim.url, dir, "--dry-run", "--output", "json"))).stdout,
    );
    const target = dry.transitions[0].instanceID as string;
    const added = await cli([
      "silences",
      "add",
      "--match",
      `instance=${target}`,
      "--for",
      "4h",
      "--comment",
      "maintenance",
      "--by",
      "sre-oncall",
      "--state-dir",
      dir,
      // Only a dry run here so far: the store has recorded no run.
      "--force",
      "--output",
      "json",
    ]);
    expect(added.code).toBe(0);
    const silence = JSON.parse(added.stdout);
    expect(silence).toMatchObject({
      match: [{ name: "instance", op: "=", value: target }],
      createdBy: "sre-oncall",
      comment: "maintenance",
    });

    const listed = await cli(["silences", "list", "--state-dir", dir]);
    expect(listed.stdout).toMatch(new RegExp(`${silence.id}\\s+active\\s+all\\s+instance=${target}`));

    const run = JSON.parse((await cli(runArgs("failing", kit.sim.url, dir, "--output", "json"))).stdout);
    const silenced = run.transitions.find((t: { instanceID: string }) => t.instanceID === target);
    expect(silenced).toMatchObject({ kind: "firing", silencedBy: silence.id });
    expect(run.notified.suppressed).toBe(1);
    expect(outbox(dir)[0]?.message).not.toContain(target);

    expect((await cli(["silences", "expire", silence.id, "--state-dir", dir])).code).toBe(0);
    expect((await cli(["silences", "list", "--state-dir", dir])).stdout).toContain("no silences");
    expect((await cli(["silences", "list", "--all", "--state-dir", dir])).stdout).toContain(silence.id);
    const after = JSON.parse((await cli(runArgs("failing", kit.sim.url, dir, "--output", "json"))).stdout);
    expect(after.transitions).toEqual([expect.objectContaining({ kind: "firing", instanceID: target })]);
    expect(outbox(dir)[1]?.message).toContain(target);
  });

  it("refuses a silence that would silence everything, has no end, or no reason", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-sil-"));
    expect(
      (await cli(["silences", "add", "--for", "1h", "--comment", "x", "--by", "me", "--state-dir", dir]))
        .stderr,
    ).toContain("at least one --match");
    expect(
      (
        await cli([
          "silences",
          "add",
          "--match",
          "plan=trial",
          "--comment",
          "x",
          "--by",
          "me",
          "--state-dir",
          dir,
        ])
      ).stderr,
    ).toContain("give the silence an end");
    expect(
      (
        await cli([
          "silences",
          "add",
          "--match",
          "plan=trial",
          "--for",
          "1h",
          "--by",
          "me",
          "--state-dir",
          dir,
        ])
      ).stderr,
    ).toContain("--comment is required");
    expect(
      (
        await cli([
          "silences",
          "add",
          "--match",
          "colour=red",
          "--for",
          "1h",
          "--comment",
          "x",
          "--by",
          "me",
          "--state-dir",
          dir,
        ])
      ).stderr,
    ).toContain("--match colour=red");
    // A store there, without that silence (with none, it says there is no store).
    const store = await emptyStateDir("fa-sil-");
    expect((await cli(["silences", "expire", "nope", "--state-dir", store])).stderr).toContain(
      "no silence nope",
    );
  });

  it("names an end it cannot read (a mistyped duration or time), and refuses --for with --until", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-sil-"));
    const add = (...end: string[]) =>
      cli([
        "silences",
        "add",
        "--match",
        "plan=trial",
        ...end,
        "--comment",
        "x",
        "--by",
        "me",
        "--state-dir",
        dir,
      ]);
    const typo = await add("--for", "4x");
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("--for 4x: expected a duration such as 90s, 30m, 4h, 2d");
    const day = await add("--until", "tomorrow");
    expect(day.code).toBe(1);
    expect(day.stderr).toContain("--until tomorrow: expected an ISO time such as 2026-12-24T22:00:00Z");
    const both = await add("--for", "4h", "--until", "2099-01-01T00:00:00Z");
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("give --for or --until, not both");
    // Nothing was added: not even a store was made.
    expect(await cli(["silences", "list", "--all", "-o", "json", "--state-dir", dir])).toMatchObject({
      code: 0,
      stdout: "[]\n",
    });
  });

  it("silences with Alertmanager's operators: a regular expression and a negation, on any label", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-sil-"));
    const dry = JSON.parse(
      (await cli(runArgs("failing", kit.sim.url, dir, "--dry-run", "--output", "json"))).stdout,
    );
    const [first] = dry.transitions as Array<{ instanceID: string }>;
    const added = await cli([
      "silences",
      "add",
      "--audit",
      "failing",
      "--match",
      "state=~fail.*|err.*",
      "--match",
      `instance!~${first?.instanceID}`,
      "--for",
      "4h",
      "--comment",
      "planned upgrade",
      "--by",
      "sre-oncall",
      "--state-dir",
      dir,
      "--force",
      "-o",
      "json",
    ]);
    expect(added.code).toBe(0);
    const run = JSON.parse((await cli(runArgs("failing", kit.sim.url, dir, "--output", "json"))).stdout);
    const told = run.transitions.filter((t: { silencedBy?: string }) => t.silencedBy === undefined);
    // Everything failed or in error is silenced but the one runtime the negation leaves out
    // (and any deprovisionincomplete one, which the expression does not match).
    expect(told.map((t: { instanceID: string }) => t.instanceID)).toContain(first?.instanceID);
    expect(
      told.every(
        (t: { state: string; instanceID: string }) =>
          t.instanceID === first?.instanceID || !/^(fail.*|err.*)$/.test(t.state),
      ),
    ).toBe(true);
    expect(run.notified.suppressed).toBe(run.transitions.length - told.length);
  });

  it("refuses a matcher RE2 cannot run, a label no finding has, and one the audit's findings lack", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-sil-"));
    const add = (match: string, ...extra: string[]) =>
      cli([
        "silences",
        "add",
        "--match",
        match,
        "--for",
        "1h",
        "--comment",
        "x",
        "--by",
        "me",
        "--state-dir",
        dir,
        ...extra,
      ]);
    expect((await add("reason=~(?<=x)y")).stderr).toMatch(/--match reason=~\(\?<=x\)y: .*RE2/);
    expect((await add("regoin=eu")).stderr).toContain("did you mean region?");
    expect((await add("region=edge-2", "--audit", "applications")).stderr).toContain("did you mean node?");
    expect((await add("plan=")).stderr).toContain("give a value");
    expect((await add(`reason=~${"a".repeat(1_001)}`)).code).toBe(1);
  });

  it("takes matchers as Alertmanager's operators type them: quoted, spaced, several in braces", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-sil-"));
    const add = (...match: string[]) =>
      cli([
        "silences",
        "add",
        ...match.flatMap((m) => ["--match", m]),
        "--for",
        "1h",
        "--comment",
        "quota raise",
        "--by",
        "sre",
        "--state-dir",
        dir,
        "--force",
        "-o",
        "json",
      ]);
    const added = await add(
      '{state="failed", reason = "quota exceeded, retry \\"later\\"",}',
      "region!~eu-.*",
    );
    expect(added.code, added.stderr).toBe(0);
    const want = [
      { name: "state", op: "=", value: "failed" },
      { name: "reason", op: "=", value: 'quota exceeded, retry "later"' },
      { name: "region", op: "!~", value: "eu-.*" },
    ];
    expect(JSON.parse(added.stdout).match).toEqual(want);
    // Listed as `--match` reads it back: the value with a comma and quotes in double quotes.
    const listed = (await cli(["silences", "list", "--state-dir", dir])).stdout;
    const printed = 'reason="quota exceeded, retry \\"later\\""';
    expect(listed).toContain(`state=failed ${printed} region!~eu-.*`);
    const again = await add("state=failed", printed, "region!~eu-.*");
    expect(JSON.parse(again.stdout).match).toEqual(want);
  });

  it("names the matcher at fault and its problem, and how to quote a comma", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-sil-"));
    const add = (match: string) =>
      cli([
        "silences",
        "add",
        "--match",
        match,
        "--for",
        "1h",
        "--comment",
        "x",
        "--by",
        "me",
        "--state-dir",
        dir,
      ]);
    const comma = await add("reason=quota exceeded, retry later");
    expect(comma.code).toBe(1);
    expect(comma.stderr).toContain(
      '--match reason=quota exceeded, retry later: retry later: expected NAME=VALUE, NAME!=VALUE, NAME=~REGEX or NAME!~REGEX (the value may be double-quoted); a value that holds a comma is written in double quotes: reason="a, b"',
    );
    expect((await add('{region="eu", Plan=trial}')).stderr).toContain(
      "Plan=trial: a label name is lowercase letters, digits and _",
    );
    expect((await add('reason="quota')).stderr).toMatch(
      /--match reason="quota: a double quote inside a value/,
    );
    expect((await add('{reason=~"err_(", plan=trial}')).stderr).toMatch(
      /reason=~"err_\(": not a regular expression RE2/,
    );
  });

  it("plans a window that begins later: pending until it starts, and silencing nothing before", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-sil-"));
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const planned = JSON.parse(
      (
        await cli([
          "silences",
          "add",
          "--match",
          "region=~.+",
          "--starts",
          later,
          "--for",
          "2h",
          "--comment",
          "maintenance window",
          "--by",
          "sre",
          "--state-dir",
          dir,
          "--force",
          "-o",
          "json",
        ])
      ).stdout,
    );
    expect(planned.startsAt).toBe(later);
    expect(Date.parse(planned.endsAt) - Date.parse(later)).toBe(2 * 3_600_000);
    const listed = await cli(["silences", "list", "--state-dir", dir]);
    expect(listed.stdout).toMatch(
      new RegExp(`${planned.id}\\s+pending\\s+all\\s+region=~\\.\\+\\s+${later}`),
    );
    const run = JSON.parse((await cli(runArgs("failing", kit.sim.url, dir, "-o", "json"))).stdout);
    expect(run.transitions.length).toBeGreaterThan(0);
    expect(run.notified.suppressed).toBe(0);
    // Expired, it is listed only with --all, as expired.
    await cli(["silences", "expire", planned.id, "--state-dir", dir]);
    expect((await cli(["silences", "list", "--state-dir", dir])).stdout).toContain("no silences");
    expect((await cli(["silences", "list", "--all", "--state-dir", dir])).stdout).toMatch(
      new RegExp(`${planned.id}\\s+expired`),
    );
    const past = await cli([
      "silences",
      "add",
      "--match",
      "plan=aws",
      "--starts",
      "2020-01-01T00:00:00Z",
      "--for",
      "1h",
      "--comment",
      "x",
      "--by",
      "y",
      "--state-dir",
      dir,
    ]);
    expect(past).toMatchObject({ code: 1 });
    expect(past.stderr).toMatch(/--starts 2020-01-01T00:00:00Z is in the past/);
  });

  it("silences an open incident by its key: the label its members carry, whatever their reason becomes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-sil-"));
    await cli(runArgs("failing", kit.sim.url, dir, "-o", "json"));
    const incidentMessages = readFileSync(join(dir, "outbox.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { message: string; topics: string[] })
      .filter((l) => l.topics.includes("incidents"))
      .map((l) => JSON.parse((JSON.parse(l.message) as { default: string }).default))
      .filter((d) => d.incident);
    const doc = incidentMessages[0];
    const key = doc.incident.key as string;
    const added = await cli([
      "silences",
      "add",
      "--incident",
      key,
      "--for",
      "4h",
      "--comment",
      "known: INC-1234",
      "--by",
      "sre",
      "--state-dir",
      dir,
      "-o",
      "json",
    ]);
    expect(added.code, added.stderr).toBe(0);
    const silence = JSON.parse(added.stdout);
    expect(silence.audit).toBe("failing");
    expect(silence.match).toEqual([{ name: "incident_default", op: "=", value: key }]);
    const unknown = await cli([
      "silences",
      "add",
      "--incident",
      "inc-nope",
      "--for",
      "4h",
      "--comment",
      "x",
      "--by",
      "y",
      "--state-dir",
      dir,
    ]);
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.stderr).toMatch(/no open incident inc-nope in the embedded store/);
  });

  it("refuses a store that never ran the audit unless --force, and a placeholder comment", async () => {
    // A store there that never ran (with none, it says there is no store and creates none).
    const fresh = await emptyStateDir("fa-sil-");
    const add = (dir: string, ...extra: string[]) =>
      cli([
        "silences",
        "add",
        "--match",
        "plan=trial",
        "--for",
        "1h",
        "--by",
        "sre",
        "--state-dir",
        dir,
        ...extra,
      ]);
    const refused = await add(fresh, "--comment", "INC-1234");
    expect(refused).toMatchObject({ code: 1 });
    expect(refused.stderr).toMatch(
      /the embedded store in .* has never recorded a run of any audit: is it the store the audits use \(AUDIT_TABLE, --state-dir\)\? --force adds the silence anyway/,
    );
    expect((await cli(["silences", "list", "--state-dir", fresh])).stdout).toContain("no silences");
    // Where the audit ran, it is taken; for an audit the store never ran, it is refused.
    await cli(runArgs("failing", kit.sim.url, fresh, "-o", "json"));
    expect((await add(fresh, "--comment", "INC-1234")).code).toBe(0);
    const expired = await add(fresh, "--comment", "INC-1234", "--audit", "expired");
    expect(expired.stderr).toMatch(/never recorded a run of the expired audit/);
    expect((await add(fresh, "--comment", "INC-1234", "--audit", "expired", "--force")).code).toBe(0);
    // The line a message suggests leaves the reason to the operator: pasted as it is, refused.
    for (const placeholder of ["...", "<why>", "TODO"]) {
      const out = await add(fresh, "--comment", placeholder);
      expect(out, placeholder).toMatchObject({ code: 1 });
      expect(out.stderr).toMatch(/is a placeholder: say why/);
    }
  });
  it('takes who adds a silence from --by, else from $USER, also when a pasted --by "$USER" is empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-sil-by-"));
    const add = (by: string[], env: Record<string, string>) =>
      runCommandLine(
        [
          "silences",
          "add",
          "--match",
          "plan=trial",
          "--for",
          "1h",
          "--comment",
          "quota",
          ...by,
          "--force",
        ].concat(["--state-dir", dir, "-o", "json"]),
        { env },
      );
    const fromUser = await add([], { USER: "ana" });
    expect(fromUser.code, fromUser.stderr).toBe(0);
    expect(JSON.parse(fromUser.stdout)).toMatchObject({ createdBy: "ana" });
    expect(JSON.parse((await add(["--by", ""], { USER: "ana" })).stdout)).toMatchObject({ createdBy: "ana" });
    expect(JSON.parse((await add(["--by", "bo"], { USER: "ana" })).stdout)).toMatchObject({
      createdBy: "bo",
    });
    // No $USER (a container, cron): the account the process runs as.
    const account = await add([], {});
    expect(account.code, account.stderr).toBe(0);
    expect(JSON.parse(account.stdout).createdBy).toBe(userInfo().username);
  });
});
