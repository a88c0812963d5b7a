import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SlackMessage } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { emptyStateDir, runArgs, cli as runCommandLine } from "../helpers/cli.ts";
import { refusal } from "../helpers/fake-slack.ts";
import { useKebSimulator } from "../helpers/keb.ts";

const kit = useKebSimulator({ fleet: { size: 400, seed: 23, flagged: 40 } });
const ENV = {
  KEB_TOKEN: "local-token",
  LANDSCAPE: "e2e",
  REPORT_URL_TEMPLATE: "https://console.example/runs/{runId}",
};
const cli = (args: string[]) => runCommandLine(args, { env: ENV });

describe("fleet-auditor slack preview", () => {
  it("prints the Block Kit a run posts, from its report or from the outbox, valid for Slack", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-slack-"));
    const run = await cli(runArgs("failing", kit.sim.url, dir, "--output", "json"));
    const { runId } = JSON.parse(run.stdout) as { runId: string };

    const fromReport = await cli(["slack", "preview", runId, "--state-dir", dir]);
    expect(fromReport.code).toBe(0);
    const message = JSON.parse(fromReport.stdout) as SlackMessage;
    expect(refusal(message)).toBeUndefined();
    expect(message.blocks[0]).toMatchObject({ type: "header" });
    expect(JSON.stringify(message)).toContain(`https://console.example/runs/${runId}`);

    // The outbox holds what each topic would get; the Slack function gets the incidents topic's:
    // the preview shows the last of those, an incident's message.
    const fromOutbox = await cli(["slack", "preview", "--from-outbox", "--state-dir", dir]);
    expect(fromOutbox.code).toBe(0);
    const outboxed = JSON.parse(fromOutbox.stdout) as SlackMessage;
    expect(refusal(outboxed)).toBeUndefined();
    expect(outboxed.blocks[0]).toMatchObject({ type: "header" });
    expect(outboxed.blocks[0]).not.toEqual(message.blocks[0]);
    expect((await cli(["slack", "preview", "--from-outbox", runId, "--state-dir", dir])).stdout).toBe(
      fromOutbox.stdout,
    );
  });

  it("shows a health notice from the outbox as the Slack function posts it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-slack-"));
    kit.sim.faults.add({
      path: "/runtimes",
      times: Number.POSITIVE_INFINITY,
      action: { kind: "status", status: 403, body: "forbidden" },
    });
    try {
      for (let i = 0; i < 3; i++) await cli(runArgs("failing", kit.sim.url, dir, "--output", "json"));
    } finally {
      kit.sim.faults.clear();
    }
    const preview = await cli(["slack", "preview", "--from-outbox", "--state-dir", dir]);
    expect(preview.code).toBe(0);
    const notice = JSON.parse(preview.stdout) as SlackMessage;
    expect(refusal(notice)).toBeUndefined();
    expect(notice.text).toMatch(/\[e2e\] failing audit DEGRADED since/);
    expect(JSON.stringify(notice.blocks)).toMatch(/403/);
  });

  it("says what is missing: no such run, no outbox, no argument", async () => {
    const dir = await emptyStateDir("fa-slack-");
    const none = await cli(["slack", "preview", "no-such-run", "--state-dir", dir]);
    expect(none).toMatchObject({ code: 1 });
    expect(none.stderr).toMatch(/no report of run no-such-run/);
    const noOutbox = await cli(["slack", "preview", "--from-outbox", "--state-dir", dir]);
    expect(noOutbox.stderr).toMatch(/no outbox at .*outbox\.jsonl/);
    const bare = await cli(["slack", "preview"]);
    expect(bare).toMatchObject({ code: 1 });
    expect(bare.stderr).toMatch(/slack preview needs a RUN_ID or --from-outbox/);
  });
});
