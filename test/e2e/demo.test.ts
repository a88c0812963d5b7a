import { PassThrough } from "node:stream";
import { runDemo } from "@fleet-auditor/cli";
import { describe, expect, it } from "vitest";

describe("npm start (the demo)", () => {
  it("lists the simulated fleet's failing runtimes through the client as a table", async () => {
    const out = new PassThrough();
    let text = "";
    out.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    await runDemo(out);
    expect(text).toMatch(/state=failed&state=error: (\d+) of \1 in \d+ page\(s\), complete/);
    expect(text).toMatch(/state=deprovisionincomplete: (\d+) of \1 in \d+ page\(s\), complete/);
    const rows = text.split("\n").filter((l) => / (failed|error|deprovisionincomplete)( \(|$)/.test(l));
    expect(rows.length).toBeGreaterThan(20);
    expect(text).toContain("GLOBALACCOUNT ID");
  });
});
