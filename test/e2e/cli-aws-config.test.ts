import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { spawnCli } from "../helpers/cli.ts";
import { useDynamo } from "../helpers/dynamo.ts";
import { emulatorEnv } from "../helpers/lambda.ts";

// Pointed at AWS without a region or credentials, the CLI says what to set (AWS_REGION,
// AWS_PROFILE) or what to unset to use the embedded store, instead of the SDK's "Region is
// missing" or "Could not load credentials from any providers". Nothing can leave the machine:
// no config or credentials file, instance metadata off, every endpoint a closed loopback port.

const dynamo = useDynamo(["aws-config-audit"]);
let closedPort = 0;
beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closedPort = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
});

/** An environment with no AWS configuration at all, plus `vars`. */
function noAws(vars: Record<string, string>): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), "fa-noaws-"));
  return {
    HOME: home,
    AWS_CONFIG_FILE: join(home, "no-config"),
    AWS_SHARED_CREDENTIALS_FILE: join(home, "no-credentials"),
    AWS_EC2_METADATA_DISABLED: "true",
    AWS_ENDPOINT_URL: `http://127.0.0.1:${closedPort}`,
    ...vars,
  };
}

const TOPIC = "arn:aws:sns:eu-central-1:123456789012:fleet-auditor-Alerts";

describe("fleet-auditor pointed at AWS without what AWS needs", () => {
  it("says to set AWS_REGION or AWS_PROFILE, or to unset AUDIT_TABLE, when no region is known", async () => {
    const out = await spawnCli(["runs", "list"], { env: noAws({ AUDIT_TABLE: "fleet-auditor-prod" }) });
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      "fleet-auditor: AWS (AUDIT_TABLE) needs a region: set AWS_REGION, or AWS_PROFILE naming a profile with a region; or unset AUDIT_TABLE to use the embedded store instead\n",
    );
  });

  it("says to set AWS_PROFILE or keys when no credentials are found, naming every AWS variable set", async () => {
    const out = await spawnCli(["silences", "list"], {
      env: noAws({ AUDIT_TABLE: "fleet-auditor-prod", STATUS_TABLE: "status", AWS_REGION: "eu-central-1" }),
    });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(
      /^fleet-auditor: AWS \(AUDIT_TABLE, STATUS_TABLE\) needs credentials: set AWS_PROFILE .*AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; or unset AUDIT_TABLE, STATUS_TABLE to use the embedded store instead\n$/,
    );
    expect(out.stderr).not.toMatch(/Could not load credentials|Region is missing/);
  });

  it("says the same for a run, and for a table found through sst shell, to leave sst shell", async () => {
    const run = ["run", "--audit", "failing", "--keb-url", `http://127.0.0.1:${closedPort}`];
    const direct = await spawnCli(run, {
      env: noAws({ AUDIT_TABLE: "fleet-auditor-prod", ALERT_TOPIC_ARN: TOPIC, KEB_TOKEN: "t" }),
    });
    expect(direct.code).toBe(1);
    expect(direct.stderr).toContain(
      "fleet-auditor: AWS (AUDIT_TABLE, ALERT_TOPIC_ARN) needs a region: set AWS_REGION",
    );
    const linked = await spawnCli(["runs", "list"], {
      env: noAws({ SST_RESOURCE_AuditTable: JSON.stringify({ name: "prod-audit", type: "sst.aws.Dynamo" }) }),
    });
    expect(linked.code).toBe(1);
    expect(linked.stderr).toBe(
      "fleet-auditor: AWS (AUDIT_TABLE; AUDIT_TABLE from sst shell's linked resources) needs a region: set AWS_REGION, or AWS_PROFILE naming a profile with a region; or run it outside sst shell (or set those variables empty) to use the embedded store instead\n",
    );
  }, 60_000);

  it("says which variable to check when the table is not there", async () => {
    const out = await spawnCli(["runs", "list"], {
      env: { ...emulatorEnv({ dynamodb: dynamo.db.endpoint }), AUDIT_TABLE: "no-such-table" },
    });
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      "fleet-auditor: AWS (AUDIT_TABLE): the table does not exist in this account and region: check AUDIT_TABLE, STATUS_TABLE and AWS_REGION; or unset AUDIT_TABLE to use the embedded store instead\n",
    );
  });
});
