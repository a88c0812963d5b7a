import { type DigestMessage, oneLine, shortTime, slackCode, slackText } from "@fleet-auditor/audit";
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

/** How a channel writes the key and what a person wrote: plain, or (Slack) code and escaped text. */
interface ActionMarkup {
  code(key: string): string;
  text(written: string, max: number): string;
}
const PLAIN: ActionMarkup = { code: (k) => k, text: (v, max) => oneLine(v, max) };
// Each part escaped on its own: escaping the whole line would turn the key's code span into
// look-alike backticks.
const SLACK: ActionMarkup = { code: (k) => slackCode(k, 100), text: (v, max) => slackText(v, max) };

/** The line every channel tells an action with: `Incident inc-… acknowledged by alice: on it.` */
function actionText(a: IncidentActionFacts, markup: ActionMarkup = PLAIN): string {
  const until = a.silence ? ` until ${shortTime(a.silence.endsAt)}` : "";
  const still =
    a.action === "pagerResolved" ? " while it still fails here: it is not paged again until it changes" : "";
  const why = a.comment ? `: ${markup.text(a.comment, 300)}` : "";
  return `Incident ${markup.code(a.incident.key)} ${DONE[a.action]}${until} by ${markup.text(a.by, 100)}${still}${why}.`;
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
  // Bounded by its parts (a key, a name, a comment): far below a section's 3,000 characters.
  const text = actionText(a, SLACK);
  return { text: slackText(a.text, 300), blocks: [{ type: "section", text: { type: "mrkdwn", text } }] };
}

/** The pager's events for an action: `acknowledge` for each page it names; nothing else has one. */
export function actionPagerEvents(a: ActionV1): PagerEvent[] {
  if (a.action !== "acknowledge") return [];
  return a.pages.map((dedup_key) => ({ event_action: "acknowledge" as const, dedup_key }));
}
