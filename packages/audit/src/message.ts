import type { CommandStore } from "./commands.ts";
import type { Severity } from "./finding.ts";
import type { LeftOutNews } from "./left-out.ts";
import type { LinkTemplates } from "./links.ts";
import type { Presenter } from "./presenter.ts";
import type { TransitionKind, TransitionRef } from "./snapshot.ts";

// The delivery contract of one SNS publish: what it says about the run (`DigestContext`) and its
// parts (`DigestMessage`). The render package builds messages to it, the publishers send them and
// the use cases commit what they told; none of them imports another to get it. The envelope (keys,
// attributes and size as SNS counts them) is notify's `sns-envelope.ts`.

/** The run a digest reports on, and how its messages point further. */
export interface DigestContext {
  audit: string;
  /** The labels that make a group (the audit's `groupBy`). */
  groupBy: readonly string[];
  /** How the audit's findings read. */
  presenter: Presenter;
  runId: string;
  /** When the run happened (ISO). */
  at: string;
  complete: boolean;
  incompleteReason: string | null;
  listed: number;
  flagged: number;
  /** What `listed` counts, in the head of a message. Default "runtimes". */
  listedWhat?: string;
  /** The landscape's name (`LANDSCAPE`, e.g. `prod-eu`): in every subject and title. */
  landscape?: string;
  links?: LinkTemplates;
  /**
   * The run report holding every transition. `stored` is false when it could not be written:
   * then a message says so, and what it only counts is sent again next run.
   */
  report: { stored: boolean; command: string };
  /** Where the commands a message suggests act (the run's own store); default the CLI's. */
  store?: CommandStore;
  /** Groups larger than this are one line (`GROUP_COLLAPSE_AT`, default 20). */
  collapseAt?: number;
  /**
   * A run that published and was interrupted before its commit: this digest may repeat what it
   * sent, and says so.
   */
  repeats?: string;
  /**
   * Findings this run left out (`left-out.ts`) that no earlier message told: one line in this
   * digest, never again while they persist. A run with nothing else to tell still sends it.
   */
  leftOut?: LeftOutNews;
  /**
   * The incident this message tells alone: its Chatbot thread is the incident's, and the
   * structured digest says which incident and whether it is over.
   */
  incident?: {
    key: string;
    status: "firing" | "resolved";
    startsAt: string;
    /** The `groupBy` values it opened with: what its titles lead with. */
    values?: Readonly<Record<string, string>>;
    /** Members still firing after the run: 0 when it ended (a pager's `resolved` need not be an end). */
    firing?: number;
    /**
     * The chat thread it is posted in when that is not its own: an earlier episode's, since it
     * opened flapping (`flapping`: the episodes with its values in the window, it included).
     */
    thread?: string;
    flapping?: number;
  };
  /**
   * The message goes to channels that render it out of process (the incidents and critical topics:
   * the Slack and pager functions): its structured digest carries each named row as every
   * channel renders it (`alert`) and each group's words, so that they need no audit's code. The
   * run's digest (e-mail, programs) does not: its size budget goes to naming transitions.
   */
  forChannels?: true;
}

/**
 * What a message is: the run's digest (the e-mail's), one incident's news (chat, threaded by its
 * `incidentKey`), a notice about the auditor's health, a test of one route (`notify test`), or a
 * window's incident summary (the weekly one, or one asked for from the console).
 */
type MessageFormat = "digest" | "incident" | "health" | "test" | "summary";

/**
 * Where a message goes: `alerts` (the run's digests: e-mail), `incidents` (one message per
 * incident with news: Chatbot, the Slack function), `critical` (the pager: critical incidents'
 * openings and ends). Topics route; no route rests on SNS filtering a `MessageStructure=json`
 * publish.
 */
export type MessageTopic = "alerts" | "incidents" | "critical";

/** Every topic, in the order they are told of. */
export const MESSAGE_TOPICS: readonly MessageTopic[] = ["alerts", "incidents", "critical"];

/**
 * The topics of a message: its own `topics`, else its format's (a digest and a summary go to the
 * alerts topic, an incident's news to the incidents topic, a health notice to every one).
 */
export function topicsOf(m: Pick<DigestMessage, "topics" | "attributes">): readonly MessageTopic[] {
  if (m.topics) return m.topics;
  const format = m.attributes.format ?? "digest";
  return format === "digest" || format === "summary"
    ? ["alerts"]
    : format === "incident"
      ? ["incidents"]
      : ["alerts", "incidents", "critical"];
}

/**
 * What a message is about: transitions, the auditor's own health (`degraded`, `recovered`; and on
 * a stage's first day, `baseline` and `not-configured`), a test of a route, or a window's incidents
 * (`summary`).
 */
type MessageKind =
  | TransitionKind
  | "degraded"
  | "recovered"
  | "baseline"
  | "not-configured"
  | "test"
  | "summary";

/** One SNS publish: everything `MessageStructure=json` needs, plus which transitions it carries. */
export interface DigestMessage {
  /**
   * The same run in a few KB, naming no transition: the counts and where the report is. Sent
   * instead when SNS refuses this message as too long, so that a run never fails to publish
   * for its size; it tells (`toldBy`) only what it counts, and that only with a stored report.
   */
  short?: ShortDigest;
  subject: string;
  /**
   * The JSON-structured message: `default` (the structured digest, `fleet-auditor.digest/v1`, for
   * Lambda, SQS and every other protocol without a key), `email` (plain text) and `https` (AWS
   * Chatbot), as `snsMessage` of `@fleet-auditor/notify/sns-envelope` composes it.
   */
  message: string;
  attributes: { audit: string; severity: Severity; kinds: MessageKind[]; format?: MessageFormat };
  /** Where it goes, when not where its format sends it (`topicsOf`): the pager's messages. */
  topics?: readonly MessageTopic[];
  /** The run's transitions this message names one by one. */
  transitions: TransitionRef[];
  /** Transitions this message only counts (in a group line or "+N more"); see `delivery.ts`. */
  omitted: TransitionRef[];
}

/** A digest's short alternative: a message of its own, with no alternative. */
export type ShortDigest = Omit<DigestMessage, "short">;
