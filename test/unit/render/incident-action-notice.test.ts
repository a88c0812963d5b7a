import { ActionV1Schema, actionSlackMessage, incidentActionNotice } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";

// An action on an incident as the Slack function posts it in the incident's thread: the key as
// inline code (it reads and copies as the key, whatever characters it has), and what a person
// wrote (who, their comment) inert: no mention, link, code span or formatting opened by it.

const notice = (comment: string) =>
  ActionV1Schema.parse(
    JSON.parse(
      (
        JSON.parse(
          incidentActionNotice({
            landscape: "prod-eu",
            audit: "failing",
            at: "2026-12-01T08:02:00.000Z",
            action: "acknowledge",
            by: "slack:U0ALICE (alice)",
            comment,
            incident: { key: "inc-AAAA_-BBBB", thread: "inc-AAAA_-BBBB" },
            pages: [],
          }).message,
        ) as { default: string }
      ).default,
    ),
  );

describe("an action's Slack message", () => {
  it("shows the incident's key as inline code and what a person wrote as text", () => {
    const { blocks } = actionSlackMessage(notice("on it <!channel> `rm` *now*"));
    expect(blocks).toEqual([
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: "Incident `inc-AAAA_-BBBB` acknowledged by slack:U0ALICE (alice): on it &lt;!channel&gt; ˋrmˋ ∗now∗.",
        },
      },
    ]);
  });
});
