import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RETIRED_VARIABLES } from "../../../infra/retired-variables.ts";
import {
  readStagesFile,
  readStagesJson,
  settingsOf,
  stagesFilePath,
  stagesFileProblems,
} from "../../../infra/stage-config.ts";
import { StagesFileSchema } from "../../../infra/stage-schema.ts";
import { stagesJsonSchema } from "../../../tools/stages-schema-json.ts";
import { schemaValidator } from "../../helpers/json-schema.ts";
import { recordSstConfig } from "../../helpers/sst-stand-ins.ts";

// stages.json holds what the deployer's shell used to: a deploy reads the committed file, fails
// naming the file, the field and the stage on a mistake, and refuses a shell that still sets a
// retired variable instead of dropping what it said.

const ROOT = new URL("../../../", import.meta.url);
const COMMITTED = new URL("stages.json", ROOT);
const SCHEMA = new URL("schemas/fleet-auditor.stages.schema.json", ROOT);

describe("stages.json", () => {
  it("is the file beside sst.config.ts, and the committed one protects prod and production by setting", () => {
    expect(stagesFilePath({})).toBe(new URL(COMMITTED).pathname);
    const file = readStagesFile(stagesFilePath({}), "prod");
    expect(settingsOf(file, "prod").protected).toBe(true);
    expect(settingsOf(file, "production").protected).toBe(true);
    // A second landscape's stage is not protected by its name.
    expect(settingsOf(file, "prod-us").protected).toBeUndefined();
  });

  it("holds the committed file to the deploy's rules, as npm run stages -- check does: no stage is scheduled without subscribers, and only prod and production, protected, still lack theirs", () => {
    // The repository names no one's address: whoever deploys prod or production names its
    // subscribers first (README's Deploy), and until then their deploy fails, naming these fields.
    const lacking = (stage: string) => [
      { stage, problem: `stages.${stage}.opsEmail (or chatbot): name who hears the Ops alarms` },
      {
        stage,
        problem: `stages.${stage}.alertEmails (or chatbot, slack, pagerDuty, pagerEmail): name who hears the alerts`,
      },
    ];
    expect(stagesFileProblems(readStagesJson(stagesFilePath({})))).toEqual([
      ...lacking("prod"),
      ...lacking("production"),
    ]);
  });

  it("fails the deploy of a scheduled or protected stage that tells no one, naming the field", async () => {
    const ops = { opsEmail: "ops@example.com" };
    const alerts = { alertEmails: [{ address: "team@example.com" }] };
    const scheduled = { schedules: { enabled: true } };
    const deploy = (entry: Record<string, unknown>) =>
      recordSstConfig("prod", { stages: { stages: { prod: entry } } });
    await expect(deploy({ ...scheduled, ...alerts })).rejects.toThrow(
      /stages\.json \(deploying stage prod\): .*\n {2}stages\.prod\.opsEmail \(or chatbot\): /,
    );
    await expect(deploy({ protected: true, ...ops })).rejects.toThrow(
      /\n {2}stages\.prod\.alertEmails \(or chatbot, slack, pagerDuty, pagerEmail\): /,
    );
    // A stage not listed is the default's: the field is the default's.
    await expect(recordSstConfig("alice", { stages: { default: { ...scheduled } } })).rejects.toThrow(
      /default\.opsEmail \(or chatbot\): .*\n {2}default\.alertEmails /s,
    );
    // Each way of telling counts; a developer's stage needs none.
    const chatbot = { chatbot: { teamId: "T0123", channelId: "C0456" } };
    for (const entry of [
      { ...scheduled, ...chatbot },
      { protected: true, ...ops, slack: { way: "webhook" } },
      { protected: true, ...ops, pagerDuty: true },
      { ...scheduled, ...ops, pagerEmail: "pager@example.com" },
      {},
    ])
      await expect(deploy(entry), JSON.stringify(entry)).resolves.toBeDefined();
    // An empty list names no one.
    await expect(deploy({ ...scheduled, ...ops, alertEmails: [] })).rejects.toThrow(
      /stages\.prod\.alertEmails /,
    );
  });

  it("has a committed JSON Schema equal to the zod schema, which accepts the committed file", () => {
    expect(JSON.parse(readFileSync(SCHEMA, "utf8"))).toEqual(stagesJsonSchema());
    const validate = schemaValidator(stagesJsonSchema());
    const committed = JSON.parse(readFileSync(COMMITTED, "utf8"));
    expect(validate(committed), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...committed, stages: { prod: { pagerEmails: ["a@example.com"] } } })).toBe(false);
  });

  it("gives a stage its entry's fields over the default's, whole, and a stage not listed the default alone", () => {
    const file = StagesFileSchema.parse({
      default: { region: "eu-west-1", links: { runbook: "https://wiki.example/{reason}" } },
      stages: {
        prod: { links: { report: "https://console.example/{runId}" }, schedules: { enabled: true } },
      },
    });
    expect(settingsOf(file, "prod")).toEqual({
      region: "eu-west-1",
      links: { report: "https://console.example/{runId}" },
      schedules: { enabled: true },
    });
    expect(settingsOf(file, "alice")).toEqual(file.default);
    // A stage named like an Object.prototype member is not one.
    expect(settingsOf(file, "constructor")).toEqual(file.default);
  });

  it("fails a deploy naming the file, the stage and each wrong field, never echoing a value", async () => {
    const stages = {
      default: { opsEmail: "not-an-address-s3cr3t" },
      stages: {
        prod: { slack: { way: "bot", channel: "general" }, schedules: { enabled: "yes" } },
        dev: { pagerEmails: ["pager@example.com"] },
      },
    };
    const failure = recordSstConfig("dev", { stages });
    await expect(failure).rejects.toThrow(/stages\.json \(deploying stage dev\) is invalid:/);
    const message = await failure.catch((err: Error) => err.message);
    expect(message).toMatch(/default\.opsEmail: expected an e-mail address/);
    expect(message).toMatch(/stages\.prod\.slack\.channel: expected the ID of the channel/);
    expect(message).toMatch(/stages\.prod\.schedules\.enabled: /);
    expect(message).toMatch(/stages\.dev: Unrecognized key: "pagerEmails"/);
    expect(message).not.toContain("s3cr3t");
    const template = { stages: { prod: { links: { runtime: "http://dash.example/{instance}" } } } };
    await expect(recordSstConfig("prod", { stages: template })).rejects.toThrow(
      /stages\.prod\.links\.runtime: expected an https: URL template/,
    );
    const grouping = { default: { groupBy: { failing: ["state", "colour"] } } };
    await expect(recordSstConfig("prod", { stages: grouping })).rejects.toThrow(
      /default\.groupBy\.failing\[1\]/,
    );
    await expect(recordSstConfig("prod", { stages: "[" })).rejects.toThrow(
      /stages\.json \(deploying stage prod\) is invalid:\n {2}\(the file\): /,
    );
  });

  it("gives a developer's stage no subscription, no Slack or pager, and no schedule", async () => {
    const alice = await recordSstConfig("alice", { stages: "committed" });
    expect(alice.of("aws.sns.TopicSubscription")).toEqual([]);
    expect(alice.of("aws.chatbot.SlackChannelConfiguration")).toEqual([]);
    expect(alice.of("sst.aws.Function").map((f) => f.name)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^(Slack|Pager)$/)]),
    );
    expect(alice.of("sst.aws.CronV2").map((c) => c.args.enabled)).toEqual([false, false, false]);
  });

  it("pins the provider to the stage's region, else the default's, else eu-central-1", async () => {
    const region = async (stage: string, stages?: unknown) =>
      ((await recordSstConfig(stage, { stages })).app.providers as { aws: { region: string } }).aws.region;
    const stages = { default: { region: "eu-west-1" }, stages: { us: { region: "us-east-1" } } };
    expect(await region("us", stages)).toBe("us-east-1");
    expect(await region("dev", stages)).toBe("eu-west-1");
    expect(await region("dev", {})).toBe("eu-central-1");
  });
});

describe("the retired deploy-time variables", () => {
  it("fail a deploy, each named with the field it moved to", async () => {
    for (const [variable, field] of Object.entries(RETIRED_VARIABLES)) {
      await expect(recordSstConfig("prod", { env: { [variable]: "on" } }), variable).rejects.toThrow(
        `${variable}: now the stage's "${field}"`,
      );
    }
    const both = recordSstConfig("prod", {
      env: { FLEET_AUDITOR_PAGER_EMAIL: "pager@example.com", FLEET_AUDITOR_SCHEDULES: "on" },
    });
    await expect(both).rejects.toThrow(/FLEET_AUDITOR_PAGER_EMAIL: .*\n {2}FLEET_AUDITOR_SCHEDULES: /);
    await expect(both).rejects.toThrow(/per-stage settings live in stages\.json/);
  });

  it("are left alone when empty: they meant none before", async () => {
    const r = await recordSstConfig("alice", { env: { FLEET_AUDITOR_ALERT_EMAILS: "" } });
    expect(r.of("aws.sns.TopicSubscription")).toEqual([]);
  });
});
