import { type DigestMessage, oneLine, shortTime, slackText } from "@fleet-auditor/audit";
import { snsMessage } from "@fleet-auditor/notify/sns-envelope";
import type { ChatbotNotification } from "./chatbot/render-chatbot.ts";
import type { PagerEvent } from "./pager/pagerduty-event.ts";
import type { SlackMessage } from "./slack/render-slack.ts";
import { ACTION_V1 } from "./structured/action-v1-name.ts";
import type { ActionV1 } from "./structured/action-v1-schema.ts";
import { asciiSubject } from "./subject.ts";

/** What was done to an incident, as its notice tells it (`ActionV1` less what the notice adds). */
export type IncidentActionFacts = Omit<ActionV1, "schema" | "text">;

const DONE: Record<ActionV1["action"], string> = {
  acknowledge: "acknowledged",
  unacknowledge: "no longer acknowledged",
  silence: "silenced",
  pagerResolved: "resolved in PagerDuty",
};

/** The line every channel tells an action with: `Incident inc-… acknowledged by alice: on it.` */
function actionText(a: IncidentActionFacts, code: (v: string) => string = (v) => v): string {
  const until = a.silence ? ` until ${shortTime(a.silence.endsAt)}` : "";
  const still =
    a.action === "pagerResolved" ? " while it still fails here: it is not paged again until it changes" : "";
  const why = a.comment ? `: ${oneLine(a.comment, 300)}` : "";
  return `Incident ${code(a.incident.key)} ${DONE[a.action]}${until} by ${oneLine(a.by, 100)}${still}${why}.`;
}

/**
 * The notice of an action on an incident (`format=action`, severity `info`): to the incidents
 * topic, in the incident's thread (Chatbot's `threadId`, the Slack function's parent), and to the
 * critical topic, where the pager acknowledges the pages it names. Its `default` is
 * `fleet-auditor.action/v1`.
 */
export function incidentActionNotice(a: IncidentActionFacts): DigestMessage {
  const where = a.landscape ? ` | ${a.landscape}` : "";
  const text = actionText(a);
  const subject = asciiSubject(`${text.slice(0, 80)}${where} [fleet-auditor]`);
  const structured: ActionV1 = { schema: ACTION_V1, ...a, text };
  const chatbot: ChatbotNotification = {
    version: "1.0",
    source: "custom",
    id: `${a.incident.key}:${a.action}:${a.at}`,
    content: {
      textType: "client-markdown",
      title: `:ballot_box_with_check: ${slackText(text, 250)}`,
      description: slackText(`${DONE[a.action]} at ${shortTime(a.at)}`, 900),
      nextSteps: [],
      keywords: ["action", a.action, ...(a.landscape ? [a.landscape] : [])],
    },
    metadata: {
      threadId: actionThreadId(a),
      summary: slackText(text, 250),
      eventType: `fleet-auditor.${a.audit}`,
      additionalContext: { incidentKey: a.incident.key, action: a.action, at: a.at },
    },
  };
  return {
    subject,
    message: snsMessage({ default: JSON.stringify(structured), email: text, https: JSON.stringify(chatbot) }),
    attributes: { audit: a.audit, severity: "info", kinds: ["action"], format: "action" },
    topics: a.pages.length ? ["incidents", "critical"] : ["incidents"],
    transitions: [],
    omitted: [],
  };
}

/** Chatbot's thread of the incident: the one its incident messages carry. */
function actionThreadId(a: IncidentActionFacts): string {
  const parts = [a.landscape ?? "-", a.audit, "incident", a.incident.thread];
  return `fleet-auditor:${parts.map((p) => p.replace(/[^\w.-]+/g, "_")).join(":")}`.slice(0, 500);
}

/** An action as the Slack function posts it in the incident's thread. */
export function actionSlackMessage(a: ActionV1): SlackMessage {
  const text = slackText(
    actionText(a, (k) => `\`${k}\``),
    2_900,
  );
  return { text: slackText(a.text, 300), blocks: [{ type: "section", text: { type: "mrkdwn", text } }] };
}

/** The pager's events for an action: `acknowledge` for each page it names; nothing else has one. */
export function actionPagerEvents(a: ActionV1): PagerEvent[] {
  if (a.action !== "acknowledge") return [];
  return a.pages.map((dedup_key) => ({ event_action: "acknowledge" as const, dedup_key }));
}
