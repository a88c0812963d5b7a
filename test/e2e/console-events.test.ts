import { readdirSync, readFileSync } from "node:fs";
import type { RunSummary } from "@fleet-auditor/audit";
import { ensureTable, statusTableDefinition } from "@fleet-auditor/store";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { emulatorEnv, fakeContext, withEnv } from "../helpers/lambda.ts";
import { useSns } from "../helpers/sns.ts";

// Every console test event in events/ works when it is used: sent to its function as the Lambda
// console sends it, today, by the real clock. A fixed time a function refuses (a scheduledTime
// or now days from the clock, on a run that writes) fails here the day it goes stale.

const dir = new URL("../../events/", import.meta.url);
const events = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((file) => [file, JSON.parse(readFileSync(new URL(file, dir), "utf8")) as unknown] as const);

/** Which function's console each event is for, by its name. */
const FUNCTION_OF: Array<[RegExp, string]> = [
  [/^apps-/, "application-status"],
  [/^applications-/, "applications-audit"],
  [/^(failing|expired|runs|notify|incidents)-/, "audit"],
];
const functionOf = (file: string): string | undefined => FUNCTION_OF.find(([re]) => re.test(file))?.[1];

const kit = useKebSimulator({
  fleet: { size: 200, seed: 29, flagged: 20 },
  auth: { clients: [{ id: "console", secret: "console-secret", groups: ["runtimeViewer"] }] },
});
const dynamo = useDynamo(["console-audit"]);
beforeAll(() => ensureTable(dynamo.db.client, statusTableDefinition("console-status")));
const sns = useSns();
let restore: () => void = () => undefined;
afterEach(() => restore());

type Handler = (event: unknown, context: unknown) => Promise<unknown>;

async function handlerOf(name: string): Promise<Handler> {
  restore = withEnv({
    ...emulatorEnv({ dynamodb: dynamo.db.endpoint, sns: `http://127.0.0.1:${sns.server.port}` }),
    KEB_URL: kit.sim.url,
    KEB_TOKEN_URL: kit.sim.tokenUrl,
    KEB_CLIENT_ID: "console",
    KEB_CLIENT_SECRET: "console-secret",
    AUDIT_TABLE: "console-audit",
    STATUS_TABLE: "console-status",
    ALERT_TOPIC_ARN: sns.topicArn,
  });
  vi.resetModules();
  return (await import(`../../functions/${name}.ts`)).handler as Handler;
}

describe("console test events in events/", () => {
  it("are all meant for a function", () => {
    expect(events.length).toBeGreaterThan(0);
    for (const [file] of events) expect(functionOf(file), `${file}: which function's console?`).toBeDefined();
  });

  it.each(events)("%s runs on its function today", async (file, event) => {
    const handler = await handlerOf(functionOf(file) as string);
    const result = await handler(event, fakeContext(`fleet-auditor-${functionOf(file)}`));
    if (file.startsWith("apps-")) expect(Array.isArray(result)).toBe(true);
    else if (file.startsWith("runs-"))
      expect(result).toBeNull(); // a run ID to fill in
    else if (file.startsWith("incidents-")) {
      // The window's statistics of what the runs above wrote, and nothing published.
      expect(result).toMatchObject({ window: (event as { report: { since: string } }).report.since });
      expect(result).toHaveProperty("opened", expect.any(Number));
      expect(result).not.toHaveProperty("published");
    } else if (file.startsWith("notify-"))
      // This stage has the alerts topic only: the others are said to be missing, not failed.
      expect(result).toMatchObject({
        sender: "console",
        topics: [
          { topic: "alerts", status: "published" },
          { topic: "incidents", status: "not-configured" },
          { topic: "critical", status: "not-configured" },
        ],
      });
    else
      expect(result as RunSummary).toMatchObject({
        audit: (event as { audit: string }).audit,
        status: "completed",
        complete: true,
      });
  });

  it("a malformed status query is answered with its problems, not thrown: a typo in the console pages no one", async () => {
    const handler = await handlerOf("application-status");
    const answer = await handler({ node: "edge-1", limit: "ten", stauts: "Rejected" }, fakeContext());
    expect(answer).toMatchObject({
      error: { code: "RUN_INPUT", problems: expect.arrayContaining([expect.stringMatching(/^limit: /)]) },
    });
    expect(JSON.stringify(answer)).toMatch(/stauts/);
    // A good query still reads the table.
    expect(await handler({ node: "edge-1" }, fakeContext())).toEqual([]);
  });
});
