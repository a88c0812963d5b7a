import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunSummary } from "@fleet-auditor/audit";
import { type KebSimulator, type SimulatorOptions, startKebSimulator } from "@fleet-auditor/keb-kubeedge-sim";
import { auditTableDefinition, ensureTable } from "@fleet-auditor/store";
import fc from "fast-check";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cli } from "../helpers/cli.ts";
import { useDynamo } from "../helpers/dynamo.ts";
import { everythingInStateDir, everythingStored, findSecret } from "../helpers/everything-stored.ts";
import { fakeContext, withEnv } from "../helpers/lambda.ts";
import { type Delivered, useSns } from "../helpers/sns.ts";

// "No secret out, as a property": every secret set to a generated value (any characters a real
// one has, some changed by URL or JSON encoding), a KEB or a gateway before the token endpoint
// that echoes the request (its Authorization header and form included) in the body as text,
// JSON, HTML, and always in `Location` and another header, at the start, in the middle and past
// every cut a client makes (`padding`), on any page, and a token endpoint that echoes the form
// and the Basic header when it refuses. Everything a run leaves behind is searched for any 12
// characters of any form of any secret: the CLI's stdout, stderr, outbox and store (every item,
// report parts gunzipped), and the function's logs, SNS messages and table.

const RUNS = Math.max(6, Math.floor(Number(process.env.FLEET_AUDITOR_PROPERTY_RUNS ?? 60) / 10));
// Time for the whole property: a case takes about a second and a half (CLI processes, the
// store), and the soak runs 200 of them.
const TIMEOUT_MS = 60_000 + (RUNS + 5) * 5_000;
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
  /** Who refuses a token request: the issuer itself, or a gateway before it echoing like KEB's. */
  tokenRefusal: "issuer" | "gateway";
  style: "text" | "json" | "html" | "location";
  status: number;
  /** Filler between the echoes: past the cuts of 120, 200 and 300 characters and of 4 KiB. */
  padding: number;
  page: number;
  secrets: { token: string; clientSecret: string; password: string; urlPassword: string };
  seed: number;
}

const aCase: fc.Arbitrary<Case> = fc.record({
  mode: fc.constantFrom<Mode>("static", "client-basic", "client-post", "password"),
  refusedBy: fc.constantFrom<"token" | "keb">("token", "keb"),
  tokenRefusal: fc.constantFrom<Case["tokenRefusal"]>("issuer", "gateway"),
  style: fc.constantFrom<Case["style"]>("text", "json", "html", "location"),
  status: fc.constantFrom(400, 401, 403, 500, 502, 503, 302, 307),
  padding: fc.constantFrom(0, 130, 250, 5000),
  page: fc.integer({ min: 1, max: 2 }),
  secrets: fc.record({ token: secret, clientSecret: secret, password: secret, urlPassword: secret }),
  seed: fc.integer({ min: 1, max: 10_000 }),
});

/**
 * Cases every run tries before the generated ones, so that each carrier is met whatever the
 * seed: a redirect from KEB with the echo at the start of `Location`, one on page 2 past a cut,
 * a gateway before the token endpoint echoing in its body, and one redirecting.
 */
const EXAMPLES: Case[] = (
  [
    ["static", "keb", "issuer", "location", 302, 0, 1],
    ["client-basic", "keb", "issuer", "location", 307, 250, 2],
    ["password", "token", "gateway", "json", 401, 130, 1],
    ["client-post", "token", "gateway", "location", 302, 5000, 1],
    ["static", "keb", "issuer", "text", 502, 5000, 2],
  ] as const
).map(([mode, refusedBy, tokenRefusal, style, status, padding, page], i) => ({
  mode,
  refusedBy,
  tokenRefusal,
  style,
  status,
  padding,
  page,
  secrets: {
    token: `tok/${i}+Zq81~recognisable=`,
    clientSecret: `cs ${i}%Wm42&secret:;@`,
    password: `pw(${i})Kx77!'password*`,
    urlPassword: `url$${i},Pq55.password`,
  },
  seed: 17 + i,
}));

/** A simulator for the case: it accepts the configured credentials unless the token endpoint is to refuse. */
async function simulatorFor(c: Case): Promise<KebSimulator> {
  // About 165 failed or in error: two pages, so that an echo on page 2 is met.
  const options: SimulatorOptions = { fleet: { size: 350, seed: c.seed, flagged: 300 } };
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
  const action = {
    kind: "echo",
    status: c.style === "location" ? 302 : c.status,
    style: c.style,
    padding: c.padding,
  } as const;
  if (c.refusedBy === "keb" || c.mode === "static") {
    sim.faults.add({ times: Number.POSITIVE_INFINITY, page: c.page, action });
  } else if (c.tokenRefusal === "gateway") {
    sim.faults.add({ times: Number.POSITIVE_INFINITY, path: "/oauth2/token", action });
  }
  return sim;
}

/** A case whose echo is a fault rule was met by it: a case that tests nothing fails. */
function expectEchoMet(c: Case, sim: KebSimulator): void {
  const byFault = c.mode === "static" || c.refusedBy === "keb" || c.tokenRefusal === "gateway";
  if (byFault) expect(sim.faults.taken, JSON.stringify(c)).toBeGreaterThan(0);
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

/** Every secret of the case: the configured ones and the signature of each token the issuer gave. */
const configured = (c: Case, sim: KebSimulator) => [
  ...(c.mode === "static"
    ? [{ value: c.secrets.token }]
    : [{ value: c.secrets.clientSecret, clientId: CLIENT_ID }]),
  ...(c.mode === "password" ? [{ value: c.secrets.password }] : []),
  { value: c.secrets.urlPassword, clientId: "admin" },
  // A JWT's header and claims are the same in every token; its signature is what only it holds.
  ...(sim.auth?.tokens ?? []).map((token) => ({ value: token.split(".")[2] ?? token })),
];

describe("no secret out (property)", () => {
  it(
    `the CLI leaves none in stdout, stderr, the outbox or the store (${RUNS} cases)`,
    async () => {
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
            expectEchoMet(c, sim);
            const leak = findSecret(
              [...outputs, await everythingInStateDir(dir)].join("\n"),
              configured(c, sim),
            );
            expect(leak, JSON.stringify(c)).toBeUndefined();
          } finally {
            await sim.close();
          }
        }),
        { numRuns: RUNS, seed: 20261130, examples: EXAMPLES.map((c) => [c]) },
      );
    },
    TIMEOUT_MS,
  );

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

    it(
      `leaves none in its logs, its SNS messages or its table (${Math.ceil(RUNS / 2)} cases)`,
      async () => {
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
              expectEchoMet(c, sim);
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
            const leak = findSecret([...logs, ...delivered, stored].join("\n"), configured(c, sim));
            expect(leak, JSON.stringify(c)).toBeUndefined();
          }),
          { numRuns: Math.ceil(RUNS / 2), seed: 20261201, examples: EXAMPLES.map((c) => [c]) },
        );
      },
      TIMEOUT_MS,
    );
  });
});
