import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunSummary } from "@fleet-auditor/audit";
import { type KebSimulator, type SimulatorOptions, startKebSimulator } from "@fleet-auditor/keb-sim";
import { auditTableDefinition, ensureTable } from "@fleet-auditor/store";
import fc from "fast-check";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cli } from "../helpers/cli.ts";
import { useDynamo } from "../helpers/dynamo.ts";
import { everythingInStateDir, everythingStored, findSecret } from "../helpers/everything-stored.ts";
import { fakeContext, withEnv } from "../helpers/lambda.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";

// Issue 11, "no secret out, as a property": every secret set to a generated value (any characters
// a real one has, some changed by URL or JSON encoding), a KEB that echoes the request (its
// Authorization header included) as text, JSON, HTML or a redirect, on any page, and a token
// endpoint that echoes the form and the Basic header when it refuses. Everything a run leaves
// behind is searched for any 12 characters of any form of any secret: the CLI's stdout, stderr,
// outbox and store (every item, report parts gunzipped), and the function's logs, SNS messages
// and table.

const RUNS = Math.max(8, Math.floor(Number(process.env.FLEET_AUDITOR_PROPERTY_RUNS ?? 120) / 10));
const CLIENT_ID = "auditor";

const secret = fc
  .string({
    unit: fc.constantFrom(..."ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789-._~+/=!*'()%&:;@,$ "),
    minLength: 16,
    maxLength: 40,
  })
  .filter((s) => s.trim() === s);

type Mode = "static" | "client-basic" | "client-post" | "password";
interface Case {
  mode: Mode;
  /** The token endpoint refuses (echoing), or KEB does. */
  refusedBy: "token" | "keb";
  style: "text" | "json" | "html" | "location";
  status: number;
  page: number;
  secrets: { token: string; clientSecret: string; password: string; urlPassword: string };
  seed: number;
}

const aCase: fc.Arbitrary<Case> = fc.record({
  mode: fc.constantFrom<Mode>("static", "client-basic", "client-post", "password"),
  refusedBy: fc.constantFrom<"token" | "keb">("token", "keb"),
  style: fc.constantFrom<Case["style"]>("text", "json", "html", "location"),
  status: fc.constantFrom(400, 401, 403, 500, 502, 503, 302),
  page: fc.integer({ min: 1, max: 3 }),
  secrets: fc.record({ token: secret, clientSecret: secret, password: secret, urlPassword: secret }),
  seed: fc.integer({ min: 1, max: 10_000 }),
});

/** A simulator for the case: it accepts the configured credentials unless the token endpoint is to refuse. */
async function simulatorFor(c: Case): Promise<KebSimulator> {
  const options: SimulatorOptions = { fleet: { size: 250, seed: c.seed, flagged: 150 } };
  if (c.mode !== "static") {
    const refuse = c.refusedBy === "token";
    options.auth = {
      clients: [
        {
          id: CLIENT_ID,
          secret: refuse && c.mode !== "password" ? "not-the-configured-one" : c.secrets.clientSecret,
          groups: ["runtimeViewer"],
        },
      ],
      users: [
        {
          username: "tech-user",
          password: refuse ? "not-the-configured-one" : c.secrets.password,
          groups: ["runtimeViewer"],
        },
      ],
      echoRequests: true,
    };
  }
  const sim = await startKebSimulator(options);
  if (c.refusedBy === "keb" || c.mode === "static") {
    const status = c.style === "location" ? 302 : c.status;
    sim.faults.add({
      times: Number.POSITIVE_INFINITY,
      page: c.page,
      action: { kind: "echo", status, style: c.style },
    });
  }
  return sim;
}

/** The environment of the case: every secret configured, and URL credentials on KEB_URL. */
function envFor(c: Case, sim: KebSimulator): Record<string, string> {
  const url = sim.url.replace("http://", `http://admin:${encodeURIComponent(c.secrets.urlPassword)}@`);
  const base = { KEB_URL: url, DEGRADED_AFTER_RUNS: "1" };
  if (c.mode === "static") return { ...base, KEB_TOKEN: c.secrets.token };
  const oauth = {
    ...base,
    KEB_TOKEN_URL: sim.tokenUrl as string,
    KEB_CLIENT_ID: CLIENT_ID,
    KEB_CLIENT_SECRET: c.secrets.clientSecret,
    KEB_CLIENT_AUTH: c.mode === "client-post" ? "post" : "basic",
  };
  if (c.mode !== "password") return oauth;
  return { ...oauth, KEB_USERNAME: "tech-user", KEB_PASSWORD: c.secrets.password, KEB_CLIENT_AUTH: "post" };
}

const configured = (c: Case) => [
  ...(c.mode === "static"
    ? [{ value: c.secrets.token }]
    : [{ value: c.secrets.clientSecret, clientId: CLIENT_ID }]),
  ...(c.mode === "password" ? [{ value: c.secrets.password }] : []),
  { value: c.secrets.urlPassword, clientId: "admin" },
];

describe("no secret out (property)", () => {
  it(`the CLI leaves none in stdout, stderr, the outbox or the store (${RUNS} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(aCase, async (c) => {
        const sim = await simulatorFor(c);
        const dir = mkdtempSync(join(tmpdir(), "fa-nosecret-"));
        try {
          const env = envFor(c, sim);
          const run = await cli(["run", "--audit", "failing", "--state-dir", dir, "--output", "json"], {
            env,
          });
          expect([0, 1, 2], run.stderr).toContain(run.code);
          const outputs = [run.stdout, run.stderr];
          const runId = (JSON.parse(run.stdout || "{}") as { runId?: string }).runId;
          for (const args of [["runs", "list"], ...(runId ? [["runs", "show", runId]] : [])]) {
            const shown = await cli([...args, "--state-dir", dir, "--output", "json"]);
            outputs.push(shown.stdout, shown.stderr);
          }
          const leak = findSecret([...outputs, await everythingInStateDir(dir)].join("\n"), configured(c));
          expect(leak, JSON.stringify(c)).toBeUndefined();
        } finally {
          await sim.close();
        }
      }),
      { numRuns: RUNS, seed: 20261130 },
    );
  }, 120_000);

  describe("the audit function", () => {
    const dynamo = useDynamo([]);
    const sns = useSns();
    let drain: () => Promise<Delivered[]>;
    let restore: () => void = () => undefined;
    let tables = 0;
    beforeAll(async () => {
      drain = await sns.subscriber("no-secret");
    });
    afterEach(() => restore());

    it(`leaves none in its logs, its SNS messages or its table (${Math.ceil(RUNS / 2)} cases)`, async () => {
      await fc.assert(
        fc.asyncProperty(aCase, async (c) => {
          const sim = await simulatorFor(c);
          const table = `no-secret-${++tables}`;
          await ensureTable(dynamo.db.client, auditTableDefinition(table));
          const logs: string[] = [];
          const capture = (chunk: unknown): boolean => {
            logs.push(String(chunk));
            return true;
          };
          const out = vi.spyOn(process.stdout, "write").mockImplementation(capture);
          const err = vi.spyOn(process.stderr, "write").mockImplementation(capture);
          try {
            restore = withEnv({
              ...envFor(c, sim),
              AUDIT_TABLE: table,
              ALERT_TOPIC_ARN: sns.topicArn,
              AWS_REGION: "us-east-1",
              AWS_ACCESS_KEY_ID: "test",
              AWS_SECRET_ACCESS_KEY: "test",
              AWS_ENDPOINT_URL_DYNAMODB: dynamo.db.endpoint,
              AWS_ENDPOINT_URL_SNS: `http://127.0.0.1:${sns.server.port}`,
              POWERTOOLS_LOG_LEVEL: "DEBUG",
              POWERTOOLS_METRICS_DISABLED: "false",
            });
            vi.resetModules();
            const { handler } = await import("../../functions/audit.ts");
            const summary = (await handler({ audit: "failing" }, fakeContext()).catch((e: Error) => ({
              error: e.message,
            }))) as RunSummary | { error: string };
            logs.push(JSON.stringify(summary));
          } finally {
            out.mockRestore();
            err.mockRestore();
            restore();
            await sim.close();
          }
          const delivered = (await drain()).map((d) => JSON.stringify(d));
          // The case's own table: the function writes nowhere else, and reading every earlier
          // case's table too made the property quadratic (100 cases: 2 minutes of scans).
          const stored = await everythingStored(dynamo.db.client, [table]);
          expect(delivered.length + logs.length).toBeGreaterThan(0);
          const leak = findSecret([...logs, ...delivered, stored].join("\n"), configured(c));
          expect(leak, JSON.stringify(c)).toBeUndefined();
        }),
        { numRuns: Math.ceil(RUNS / 2), seed: 20261201 },
      );
    }, 120_000);
  });
});
