import {
  countOf,
  formatCount,
  fromText,
  humanDuration,
  leftOutLine,
  listedBeside,
  oneLine,
  pastableCommand,
  type RollUpGroup,
  rollUps,
  rollUpText,
  safeLink,
  shortTime,
  silenceCommand,
  slackCode,
  slackCommand,
  slackText,
  type TransitionKind,
} from "@fleet-auditor/audit";
import { SEVERITY_EMOJI } from "../chatbot/render-chatbot.ts";
import type { DigestV1 } from "../structured/digest-v1-schema.ts";
import { digestTitleSource } from "../title/digest-title.ts";
import { fitTitle } from "../title/fit-title.ts";
import { incidentLine, incidentOf } from "../title/incident-line.ts";
import { titleParts } from "../title/title-parts.ts";
import { incidentButtons, type SlackActionButton } from "./incident-buttons.ts";

/** What Slack accepts in one message (Block Kit reference); a message past them is refused. */
export const SLACK_LIMITS = {
  blocks: 50,
  sectionText: 3_000,
  fields: 10,
  fieldText: 2_000,
  headerText: 150,
  buttonText: 75,
  url: 3_000,
  contextElements: 10,
  actionsElements: 25,
} as const;

interface SlackText {
  type: "mrkdwn" | "plain_text";
  text: string;
  emoji?: boolean;
}
interface SlackButton {
  type: "button";
  text: SlackText;
  url: string;
  action_id: string;
}
export type SlackBlock =
  | { type: "header"; text: SlackText }
  | { type: "section"; text?: SlackText; fields?: SlackText[]; accessory?: SlackButton }
  | { type: "divider" }
  | { type: "context"; elements: SlackText[] }
  | { type: "actions"; block_id?: string; elements: Array<SlackButton | SlackActionButton> };

/** An incoming-webhook payload: Block Kit blocks and the `text` notifications show. */
export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

/** How a message is rendered for where it goes. */
export interface SlackMessageOptions {
  /**
   * Buttons to act on a firing incident (Acknowledge, Silence 4h, Silence 24h: `incident-buttons.ts`):
   * only for a bot whose Slack app sends its interactions to the stage's function. An incoming
   * webhook's message, or a message of an app without interactivity, gets none: a click would
   * reach no one.
   */
  incidentActions?: boolean;
}

const TITLE: Record<TransitionKind, string> = {
  firing: "NEW",
  changed: "CHANGED",
  reminder: "STILL FAILING",
  resolved: "RECOVERED",
};
// What the notification's `text` shows of the title.
const TEXT_MAX = 300;
// A command longer than this is left out rather than cut (a cut command runs something else).
const MAX_COMMAND = 1_000;
// Plans (or verbs) named in a group's line; the rest are "…".
const PLANS = 4;

/**
 * The Slack message of a structured digest: a header, the run's summary as fields, a section per
 * group (its runtimes named as far as the digest and the section limit allow, a runbook or
 * console button), a context line and a run report button, and with `incidentActions` a firing
 * incident's buttons (Acknowledge, Silence 4h, Silence 24h); groups past the block limit are
 * counted in one line that points to the report. Every text from KEB or a user is one line,
 * escaped, and its formatting characters replaced (`slackText`); every command is the e-mail's and
 * Chatbot's (audit's `commands.ts`), whole or left out; a link is used only when it is a
 * `safeLink`, so that a digest from another publisher (the Slack function takes any that its
 * schema accepts) cannot mention, link or format either.
 *
 * Where the rest of Slack lives: the use cases' `slack-delivery.ts` picks this message for what SNS
 * delivered, notify's `SlackWebhook` posts it, `functions/slack.ts` wires the two to the alert
 * topic, and `fleet-auditor slack preview` (the CLI's `commands/slack.ts`) prints it.
 */
export function slackMessage(digest: DigestV1, options: SlackMessageOptions = {}): SlackMessage {
  const emoji = SEVERITY_EMOJI[digest.severity];
  // Every word of the title may come from another publisher: escaped before it is fitted, so that
  // neither the header nor the notification's text can mention, link or format.
  const parts = titleParts(digestTitleSource(digest)).map((p) => ({ ...p, text: slackText(p.text, 600) }));
  // The header holds the emoji, a space and the title within Slack's 150 characters.
  const within = (max: number) => ({ max: max - Array.from(emoji).length - 1, ellipsis: "…" });
  const title = fitTitle(parts, within(SLACK_LIMITS.headerText));
  const blocks: SlackBlock[] = [
    { type: "header", text: plain(`${emoji} ${title}`, SLACK_LIMITS.headerText) },
    { type: "section", fields: summaryFields(digest) },
  ];
  const notes = [
    // The incident's key, its start and whether it ended: a page and this thread match by it.
    ...(digest.incident
      ? [incidentLine(incidentOf(digest.incident), digest.at, (k) => slackCode(k, 100))]
      : []),
    ...(digest.leftOut ? [`:no_entry_sign: ${slackText(leftOutLine(digest.leftOut), 600)}`] : []),
    ...(digest.repeats
      ? [
          `:repeat: Run ${slackCode(digest.repeats, 80)} was interrupted after publishing: some of this may repeat its message.`,
        ]
      : []),
    ...(digest.report.stored
      ? []
      : [
          ":warning: The run report could not be stored: what this message only counts is sent again next run.",
        ]),
  ];
  if (notes.length) blocks.push({ type: "context", elements: notes.map((n) => mrkdwn(n)) });
  const rollUp = rollUpGroups(digest);
  const rolled = rollUpLines(digest, rollUp);
  if (rolled.length) blocks.push({ type: "section", text: mrkdwn(rolled.join("\n")) });
  blocks.push({ type: "divider" });

  const tail = [...tailBlocks(digest), ...actionBlocks(digest, options)];
  // Room for the groups: what the tail needs, and one line for groups that do not fit.
  const room = SLACK_LIMITS.blocks - blocks.length - tail.length - 1;
  // A roll-up speaks for most of its groups: the sections go to the other incidents.
  const listed = listedBeside(rollUp);
  const candidates = digest.groups.filter((_, i) => listed[i]);
  const shown = candidates.length <= room + 1 ? candidates : candidates.slice(0, room);
  for (const [i, g] of shown.entries()) blocks.push(groupSection(digest, g, i));
  const sections = new Set(shown);
  const hidden = digest.groups.filter((g) => !sections.has(g));
  if (hidden.length) {
    const count = hidden.reduce((n, g) => n + g.count, 0);
    blocks.push({
      type: "section",
      text: mrkdwn(
        `…and ${formatCount(count)} more in ${countOf(hidden.length, "groups")}: ${reportText(digest)}`,
      ),
    });
  }
  blocks.push(...tail);
  return { text: `${emoji} ${fitTitle(parts, within(TEXT_MAX))}`, blocks };
}

/** The digest's groups as a roll-up counts them. */
function rollUpGroups(d: DigestV1): RollUpGroup[] {
  return d.groups.map((g) => ({
    kind: g.kind,
    state: g.state,
    reason: g.reason,
    place: g.region,
    placeLabel: g.labels ? placeLabelOf(g.labels) : "region",
    count: g.count,
  }));
}

/** The roll-up of an event that spans many groups, as Chatbot and the e-mail word it. */
function rollUpLines(d: DigestV1, groups: readonly RollUpGroup[]): string[] {
  return rollUps(groups).map((r) => {
    const noun = wordsOf(d.groups.find((g) => g.kind === r.kind && g.state === r.state)).noun;
    return `:bar_chart: *${TITLE[r.kind].toLowerCase()}:* ${rollUpText(r, slackText(noun, 40), (v) => slackCode(v, 80))}`;
  });
}

/** The label a group's place is made of: its one label besides state and reason, else "place". */
function placeLabelOf(labels: Readonly<Record<string, string>>): string {
  const place = Object.keys(labels).filter((l) => l !== "state" && l !== "reason");
  return place.length === 1 ? (place[0] as string) : "place";
}

function summaryFields(d: DigestV1): SlackText[] {
  const scan = d.scan.complete
    ? `complete: ${formatCount(d.scan.listed)} listed, ${formatCount(d.scan.flagged)} flagged`
    : `:warning: *INCOMPLETE* (${slackText(d.scan.incompleteReason ?? "unknown", 300)}): nothing was resolved`;
  const fields = [
    field("Audit", slackText(d.audit, 100)),
    ...(d.landscape ? [field("Landscape", slackText(d.landscape, 100))] : []),
    field("Run", `${slackCode(d.runId, 100)} at ${shortTime(d.at)}`),
    field("Scan", scan),
  ];
  for (const kind of ["firing", "changed", "reminder", "resolved"] as const) {
    if (d.counts[kind] > 0) fields.push(field(TITLE[kind].toLowerCase(), formatCount(d.counts[kind])));
  }
  return fields.slice(0, SLACK_LIMITS.fields);
}

function groupSection(d: DigestV1, g: DigestV1["groups"][number], index: number): SlackBlock {
  const emoji = g.kind === "resolved" ? ":white_check_mark:" : SEVERITY_EMOJI[g.severity];
  const reason = g.reason ? ` ${slackCode(g.reason, 80)}` : "";
  const age =
    g.kind === "resolved"
      ? ""
      : `, since ${shortTime(g.since)} (${humanDuration(Date.parse(d.at) - Date.parse(g.since))})`;
  const members = d.transitions.filter((t) => t.kind === g.kind && inGroup(g, t));
  const words = wordsOf(g);
  const named = g.plans.filter((p) => slackText(p.plan, 30));
  const plans = named.length
    ? `; ${words.tally ? `${slackText(words.tally, 30)} ` : ""}${named
        .slice(0, PLANS)
        .map((p) => `${slackText(p.plan, 30)} ${formatCount(p.count)}`)
        .join(", ")}${named.length > PLANS ? ", …" : ""}`
    : "";
  const where = g.region ? ` ${slackText(words.place, 30)} ${slackCode(g.region, 40)}` : "";
  const was = g.from?.length
    ? `\n${fromText(
        g.from.map((f) => [f.was, f.count] as const),
        (w) => slackText(w, 80),
      )}`
    : "";
  let text = `${emoji} *${TITLE[g.kind]} (${formatCount(g.count)})* ${slackCode(g.state, 40)}${reason}${where}${age}${plans}${was}`;
  const more = `\n+${formatCount(g.count)} more: ${reportText(d)}`;
  // How to look and how to silence, as the e-mail and Chatbot say it: whole, or not at all.
  let commands = g.kind === "resolved" ? "" : groupCommands(d, g, members[0]);
  if (text.length + commands.length + more.length > SLACK_LIMITS.sectionText) commands = "";
  const budget = SLACK_LIMITS.sectionText - commands.length - more.length;
  let listed = 0;
  for (const t of members) {
    const row = rowOf(t, members[0]);
    const name = slackText(row.summary || row.key, 60);
    const runtime = t.links.runtime;
    const link = runtime && safeLink(runtime) ? `<${runtime}|${name}>` : name;
    const note = t.kind === "resolved" ? undefined : row.note;
    const detail =
      t.kind === "resolved"
        ? t.ending
          ? ` now ${slackText(t.ending, 60)}`
          : ""
        : note
          ? `: ${slackText(note, 160)}`
          : "";
    const line = `\n• ${link} ${slackCode(row.key, 60)}${detail}`;
    if (text.length + line.length > budget) break;
    text += line;
    listed++;
  }
  text += commands;
  if (g.count > listed) text += `\n+${formatCount(g.count - listed)} more: ${reportText(d)}`;
  const first = members[0];
  // Action IDs must be unique in a message: the index keeps them so whatever the digest's keys.
  const button = first?.links.runbook
    ? buttonTo("Runbook", first.links.runbook, `runbook:${index}:${g.key}`)
    : g.count === 1 && first?.links.runtime
      ? buttonTo("Open runtime", first.links.runtime, `runtime:${index}:${g.key}`)
      : undefined;
  return { type: "section", text: mrkdwn(text), ...(button ? { accessory: button } : {}) };
}

/** `inspect:` (the group's first named member) and `silence:` lines, each command whole. */
function groupCommands(d: DigestV1, g: DigestV1["groups"][number], first: Row | undefined): string {
  const store = d.store ?? {};
  // A digest may come from another publisher: a command it suggests is shown only if it can be pasted.
  const given = first ? rowOf(first).inspect : undefined;
  const inspect = given === undefined ? undefined : pastableCommand(given);
  const silence = g.labels
    ? silenceCommand({ audit: d.audit, labels: Object.entries(g.labels) }, store)
    : undefined;
  const line = (label: string, command: string | undefined): string => {
    const shown = command ? shownCommand(command) : "";
    return shown ? `\n${label}: ${shown}` : "";
  };
  return line("inspect", inspect) + line("silence", silence);
}

type Group = DigestV1["groups"][number];
type Row = DigestV1["transitions"][number];

/**
 * Whether a row is a member of a group: by the labels the group shares, when both carry labels
 * (digests since labels); else by the state, reason and region v1 groups were made of.
 */
function inGroup(g: Group, t: Row): boolean {
  const shared = g.labels;
  const own = t.labels;
  if (shared && own)
    return Object.entries(shared).every(([l, v]) => (Object.hasOwn(own, l) ? own[l] : "") === v);
  return t.state === g.state && t.reason === g.reason && t.region === g.region;
}

// A digest that carries no row or words for channels (a run's digest, or one from another
// publisher) is told by its own fields: its key, and no note, command or words of an audit's.
const NO_WORDS = { noun: "findings", tally: "", place: "in" } as const;

/** The words a group is told with, as its digest carries them. */
function wordsOf(g: Group | undefined): { noun: string; tally: string; place: string } {
  return g?.words ?? NO_WORDS;
}

/**
 * A row as channels render it: its `alert`, whose key and summary are left to the row's
 * `instanceID` and `shootName` when they say the same (and are those for a row without `alert`),
 * and whose note, past its group's first row (`first`), is left to that row's when it is the same.
 */
function rowOf(t: Row, first?: Row): { key: string; summary: string; note?: string; inspect?: string } {
  const { key = t.instanceID, summary = t.shootName, inspect } = t.alert ?? {};
  const note = t.alert?.note ?? (first && first !== t ? first.alert?.note : undefined);
  return {
    key,
    summary,
    ...(note ? { note } : {}),
    ...(inspect !== undefined ? { inspect } : {}),
  };
}

/** A command as inline code, or "" when it is too long to show whole. */
function shownCommand(command: string): string {
  return command.length <= MAX_COMMAND ? slackCommand(command) : "";
}

function tailBlocks(d: DigestV1): SlackBlock[] {
  const context: SlackBlock = {
    type: "context",
    // The run is named in the summary's fields; here, only where its report is.
    elements: [mrkdwn(`fleet-auditor${reportCommandText(d, " · report: ")}`)],
  };
  const report = d.report.url ? buttonTo("Run report", d.report.url, "report") : undefined;
  return report ? [context, { type: "actions", elements: [report] }] : [context];
}

/**
 * An incident message's buttons, last: for a firing incident (a roll-up's message acts on the
 * roll-up's key), when the message goes where a click is answered.
 */
function actionBlocks(d: DigestV1, options: SlackMessageOptions): SlackBlock[] {
  if (!options.incidentActions || d.incident?.status !== "firing") return [];
  const buttons = incidentButtons(d.incident.key);
  return buttons ? [buttons] : [];
}

function reportText(d: DigestV1): string {
  const url = d.report.url;
  if (url && safeLink(url)) return `<${url}|run report>`;
  return reportCommandText(d, "") || "the run report";
}

/** The digest's report command as inline code after `prefix`, or "" when it cannot be shown. */
function reportCommandText(d: DigestV1, prefix: string): string {
  const command = pastableCommand(d.report.command);
  const shown = command ? shownCommand(command) : "";
  return shown ? `${prefix}${shown}` : "";
}

function field(label: string, value: string): SlackText {
  return mrkdwn(`*${label}*\n${value}`, SLACK_LIMITS.fieldText);
}

function mrkdwn(text: string, max: number = SLACK_LIMITS.sectionText): SlackText {
  return { type: "mrkdwn", text: Array.from(text).slice(0, max).join("") };
}

function plain(text: string, max: number): SlackText {
  return { type: "plain_text", text: oneLine(text, max), emoji: true };
}

function buttonTo(label: string, url: string, id: string): SlackButton | undefined {
  if (url.length > SLACK_LIMITS.url || !safeLink(url)) return undefined;
  return {
    type: "button",
    text: plain(label, SLACK_LIMITS.buttonText),
    url,
    action_id: id.slice(0, 255),
  };
}
