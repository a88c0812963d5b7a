import { PassThrough } from "node:stream";
import { runDemo } from "@fleet-auditor/demo";
import { describe, expect, it } from "vitest";

describe("npm start (the demo)", () => {
  it("runs the audits over a changing fleet and edge, printing each digest as a subscriber sees it", async () => {
    const out = new PassThrough();
    let text = "";
    out.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    await runDemo(out);
    const sections = text.split("━━ ").slice(1);
    expect(sections).toHaveLength(10);
    expect(sections[0]).toMatch(/failing: complete scan, \d+ flagged, \d+ firing, 1 message\(s\)/);
    expect(sections[0]).toContain(
      "┌─ e-mail: failed (err_provisioning) +11 more: 12 new runtimes | demo | CRITICAL",
    );
    expect(sections[0]).toContain("│ Every transition of this run: fleet-auditor runs show ");
    expect(sections[1]).toMatch(
      /failing: complete scan, \d+ flagged, no transitions, 0 message\(s\), 0 snapshot write\(s\)/,
    );
    expect(sections[2]).toMatch(/RECOVERED \(\d+\)/);
    // Counted from the onset of the failure (its operation), not from the first run that saw it.
    expect(sections[2]).toMatch(/resolved after \d+[mhd][^:]*: .*now succeeded/);
    expect(sections[2]).toContain("suspended in eu-central-1 +1 more: 2 new runtimes | demo | expired audit");
    expect(sections[3]).toMatch(/failing: already done by run \w+ for this scheduled time; nothing sent/);
    expect(sections[3]).not.toContain("e-mail");
    expect(sections[4]).toMatch(
      /failing: INCOMPLETE scan .*503: no healthy upstream.*no transitions, 0 message/,
    );
    expect(sections[5]).toContain(
      "e-mail: [fleet-auditor] [demo] failing audit DEGRADED since 2026-11-29 09:00 UTC",
    );
    expect(sections[5]).toMatch(/failing: INCOMPLETE scan .*DEGRADED notice sent/);
    expect(sections[6]).toContain(": 3 recovered | demo | failing audit [fleet-auditor]");
    expect(sections[6]).toContain("failing audit RECOVERED after 2h");
    expect(sections[7]).toMatch(/KubeEdge Applications: 96 SQS messages/);
    expect(sections[7]).toMatch(/\d+ rows written, \d+ stale, \d+ duplicate, 3 quarantined, 0 failed/);
    expect(sections[7]).toMatch(/Rejected\s+get\s+\S+\s+404 NotFound/);
    expect(sections[7]).toContain("MS_NOT_JSON");
    // The applications audit: a stuck Application and a refusing node told, then resolved.
    expect(sections[8]).toContain("stuck on node edge-003 +1 more: 2 new findings | demo | WARNING");
    expect(sections[8]).toContain("stuck: node edge-003: get /apps/v1/deployments/shop/checkout, since");
    expect(sections[8]).toContain("refused: node edge-017: 9 × 403 Forbidden on list services");
    expect(sections[9]).toContain("stuck on node edge-003 +1 more: 2 recovered | demo | applications audit");
    expect(sections[9]).toMatch(/applications: complete scan, 0 flagged, 2 resolved, 1 message\(s\)/);
  });
});
