import { LINKED_VARIABLES, withLinkedResources } from "@fleet-auditor/cli";
import { ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import { beforeAll, describe, expect, it } from "vitest";
import { spawnCli } from "../helpers/cli.ts";
import { useDynamo } from "../helpers/dynamo.ts";
import { useFakeSecretsManager } from "../helpers/fake-secrets-manager.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv } from "../helpers/lambda.ts";
import { useSns } from "../helpers/sns.ts";
import { recordSstConfig } from "../helpers/sst-stand-ins.ts";

// `npx sst shell --stage prod -- npx fleet-auditor …`: SST runs the command with each linkable
// resource of the stage in `SST_RESOURCE_<Name>` (JSON of its link properties, sst/sst
// cmd/sst/shell.go) and `SST_RESOURCE_App` ({ name, stage }). The CLI finds the stage's tables,
// topics and KEB settings there, and the ARN of the KEB client secret, which it reads from
// Secrets Manager (a stand-in on loopback) as the function does; a variable that is set wins.

const kit = useKebSimulator({
  fleet: { size: 200, seed: 14, flagged: 20 },
  auth: { clients: [{ id: "shell", secret: "shell-secret", groups: ["runtimeViewer"] }] },
});
const dynamo = useDynamo(["prod-audit", "other-audit"]);
const secrets = useFakeSecretsManager();
const SHELL_SECRET_ARN =
  "arn:aws:secretsmanager:us-east-1:123456789012:secret:fleet-auditor/prod/KebClientSecret-AbC123";
beforeAll(() => secrets.sm.put(SHELL_SECRET_ARN, "shell-secret"));
beforeAll(() => ensureTable(dynamo.db.client, statusTableDefinition("prod-status")));
const sns = useSns();

/** What `sst shell` puts in the environment, with SST's `type` fields as it writes them. */
function sstShell(
  alerts: string,
  critical: string,
  incidents = `${alerts}-incidents`,
): Record<string, string> {
  const link = (type: string, props: Record<string, string>) => JSON.stringify({ ...props, type });
  const secret = (value: string) => link("sst.sst.Secret", { value });
  return {
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.sm.url,
    SST_RESOURCE_App: JSON.stringify({ name: "fleet-auditor", stage: "prod" }),
    SST_RESOURCE_Landscape: link("sst.sst.Linkable", { name: "prod" }),
    SST_RESOURCE_AuditTable: link("sst.aws.Dynamo", { name: "prod-audit" }),
    SST_RESOURCE_ApplicationStatus: link("sst.aws.Dynamo", { name: "prod-status" }),
    SST_RESOURCE_Alerts: link("sst.aws.SnsTopic", { arn: alerts }),
    SST_RESOURCE_Critical: link("sst.aws.SnsTopic", { arn: critical }),
    SST_RESOURCE_Incidents: link("sst.aws.SnsTopic", { arn: incidents }),
    SST_RESOURCE_Ops: link("sst.aws.SnsTopic", { arn: `${alerts}-ops` }),
    SST_RESOURCE_KebUrl: secret(kit.sim.url),
    SST_RESOURCE_KebTokenUrl: secret(kit.sim.tokenUrl),
    SST_RESOURCE_KebClientId: secret("shell"),
    SST_RESOURCE_KebClientSecretArn: link("sst.sst.Linkable", { arn: SHELL_SECRET_ARN }),
  };
}

describe("fleet-auditor inside sst shell", () => {
  it("runs an audit on the stage's table and topic with its KEB secrets, named after the stage", async () => {
    const critical = await sns.topic("critical");
    const incidents = await sns.topic("shell-incidents");
    const drain = await sns.subscriber("shell-alerts");
    const chat = await sns.subscriber("shell-chat", undefined, incidents);
    const pager = await sns.subscriber("shell-pager", undefined, critical);
    const aws = emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` });
    const shell = { ...aws, ...sstShell(sns.topicArn, critical, incidents) };
    const out = await spawnCli(["run", "--audit", "failing", "-o", "json"], { env: shell });
    expect(out.code, out.stderr).toBe(0);
    const summary = JSON.parse(out.stdout);
    expect(summary).toMatchObject({ audit: "failing", complete: true, notified: { failed: 0 } });
    const [message, ...more] = (await drain()) as Array<{ Subject?: string }>;
    // Named after the stage: its landscape in the subject.
    expect(message?.Subject).toMatch(/ \| prod( \||$)/);
    expect(more).toEqual([]);
    // The stage's incidents topic gets the incident messages, its critical topic the pager's.
    const told = (await chat()).length;
    const paged = (await pager()).length;
    expect(told).toBeGreaterThan(0);
    expect(paged).toBeGreaterThan(0);
    expect(1 + told + paged).toBe(summary.notified.messages);
    // The ledger is the stage's table: runs list finds the run there, and nowhere else.
    const listed = await spawnCli(["runs", "list", "-o", "json"], { env: shell });
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ runId: summary.runId })]);
    const elsewhere = await spawnCli(["runs", "list", "-o", "json"], {
      env: { ...shell, AUDIT_TABLE: "other-audit" },
    });
    expect(JSON.parse(elsewhere.stdout)).toEqual([]);
  }, 60_000);

  it("names messages after the stage's landscape, which stages.json may set apart from the stage's name", () => {
    const shell = sstShell(
      "arn:aws:sns:eu-central-1:123456789012:a",
      "arn:aws:sns:eu-central-1:123456789012:c",
    );
    const landscape = JSON.stringify({ name: "eu10 production", type: "sst.sst.Linkable" });
    expect(withLinkedResources({ ...shell, SST_RESOURCE_Landscape: landscape }).vars.LANDSCAPE).toBe(
      "eu10 production",
    );
  });

  it("lets a variable that is set win, with the variables that go with it", () => {
    const shell = sstShell(
      "arn:aws:sns:eu-central-1:123456789012:a",
      "arn:aws:sns:eu-central-1:123456789012:c",
    );
    const { vars, linked } = withLinkedResources({ ...shell, AUDIT_TABLE: "mine", LANDSCAPE: "" });
    // A table of one's own is not paired with the stage's topics; the status table is another part.
    expect(vars).toMatchObject({
      AUDIT_TABLE: "mine",
      STATUS_TABLE: "prod-status",
      KEB_CLIENT_ID: "shell",
      LANDSCAPE: "",
    });
    expect(vars.ALERT_TOPIC_ARN).toBeUndefined();
    expect(vars.CRITICAL_TOPIC_ARN).toBeUndefined();
    expect(vars.INCIDENT_TOPIC_ARN).toBeUndefined();
    expect(linked).toEqual([
      "STATUS_TABLE",
      "KEB_URL",
      "KEB_TOKEN_URL",
      "KEB_CLIENT_ID",
      "KEB_CLIENT_SECRET_ARN",
    ]);
    // A token of one's own: none of the stage's client credentials, which would be preferred to it.
    const token = withLinkedResources({ ...shell, KEB_TOKEN: "mine" });
    expect(token.vars).toMatchObject({ KEB_TOKEN: "mine", KEB_URL: kit.sim.url, AUDIT_TABLE: "prod-audit" });
    expect(token.vars.KEB_TOKEN_URL).toBeUndefined();
    expect(token.vars.KEB_CLIENT_SECRET_ARN).toBeUndefined();
    expect(withLinkedResources({ PATH: "/bin" })).toEqual({ vars: { PATH: "/bin" }, linked: [] });
  });

  it("names a linked resource it cannot read, never echoing its value", () => {
    for (const bad of ["not json", "{}", '{"name": 7}', "null", '["prod-audit"]']) {
      expect(() => withLinkedResources({ SST_RESOURCE_AuditTable: bad }), bad).toThrow(
        /invalid configuration: SST_RESOURCE_AuditTable: expected JSON with a string "name"/,
      );
    }
    expect(() => withLinkedResources({ SST_RESOURCE_KebClientSecretArn: "s3cr3t-value" })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("s3cr3t") }),
    );
  });

  it("reads resources sst.config.ts declares, of the kind whose property it takes", async () => {
    const recording = await recordSstConfig("prod");
    const kindOf = {
      name: ["sst.aws.Dynamo", "sst.Linkable"],
      arn: ["sst.aws.SnsTopic", "sst.Linkable"],
      value: ["sst.Secret"],
    };
    for (const [variable, { resource, property }] of Object.entries(LINKED_VARIABLES)) {
      const kinds = kindOf[property as keyof typeof kindOf];
      expect(
        recording.declared.filter((d) => d.name === resource && kinds.includes(d.kind)),
        variable,
      ).toHaveLength(1);
    }
    // A Linkable with the ARN of the secret the audit function is granted.
    const linkable = recording.named("sst.Linkable", "KebClientSecretArn").args as {
      properties: { arn: string };
    };
    const auditEnv = recording.named("sst.aws.Function", "Audit").args.environment as Record<string, string>;
    expect(linkable.properties.arn).toBe(auditEnv.KEB_CLIENT_SECRET_ARN);
    // The landscape the functions name in their messages, not the stage's name where they differ.
    const landscape = recording.named("sst.Linkable", "Landscape").args as { properties: { name: string } };
    expect(landscape.properties.name).toBe(auditEnv.LANDSCAPE);
  });
});
