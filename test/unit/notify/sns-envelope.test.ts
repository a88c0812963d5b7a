import { snsEntry } from "@fleet-auditor/notify";
import { byteSize, snsMessage } from "@fleet-auditor/notify/sns-envelope";
import { describe, expect, it } from "vitest";
import { entryBytes } from "../../helpers/sns-rules.ts";

// The envelope every publish shares (digests, their short forms, health notices): its keys and
// its count are the publisher's contract with SNS, and the renderers fit their digests to it.

describe("the SNS envelope", () => {
  it("writes one body per protocol, default first, each as JSON text escapes it", () => {
    const message = snsMessage({ default: '{"schema":"x"}', email: "line 1\nline 2", https: "{}" });
    expect(message).toBe('{"default":"{\\"schema\\":\\"x\\"}","email":"line 1\\nline 2","https":"{}"}');
  });

  it("counts a publish in the bytes the SNS publisher sends, multi-byte text as UTF-8", () => {
    const published = {
      subject: "[fleet-auditor] CRITICAL failing: 1 firing",
      message: snsMessage({ default: "d", email: "é", https: "h" }),
      attributes: { audit: "failing", severity: "critical" as const, kinds: ["firing" as const] },
      transitions: [],
      omitted: [],
    };
    expect(byteSize(published)).toBe(entryBytes(snsEntry(published)));
  });
});
