import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { answerFault, type HttpFault } from "./http-fault.ts";
import { forTheFile, onLoopback } from "./loopback.ts";

/** One answer the stand-in gives instead of accepting, for the next matching post. */
type SlackFault = HttpFault;

/** A post as the stand-in saw it, accepted or not. */
interface SlackAttempt {
  at: number;
  status: number;
  payload: unknown;
  /** Why the stand-in refused it as Slack would (`invalid_blocks: …`). */
  problem?: string;
}

export interface FakeSlack {
  /** The incoming webhook URL (its path is the secret part, as Slack's is). */
  url: string;
  faults: SlackFault[];
  attempts: SlackAttempt[];
  /** The payloads Slack would have shown. */
  accepted(): unknown[];
  close(): Promise<void>;
}

const SECRET_PATH = "/services/T0FLEET/B0AUDIT/sEcReTwEbHoOkToKeN42";

/**
 * A Slack incoming webhook on loopback that refuses what Slack refuses: more than 50 blocks,
 * section text over 3,000 characters, more than 10 fields or one over 2,000, a header over 150,
 * unknown block types, duplicate action IDs, and mrkdwn that was not escaped (a bare `<` that is
 * no link, a raw mention, a bare `&`) with 400 `invalid_blocks`; and answers faults in order.
 */
async function startFakeSlack(): Promise<FakeSlack> {
  const attempts: SlackAttempt[] = [];
  const faults: SlackFault[] = [];
  const server = createServer((req, res) => void handle(req, res));
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const at = Date.now();
    if (req.method !== "POST" || req.url !== SECRET_PATH) {
      attempts.push({ at, status: 404, payload: null });
      res.writeHead(404, { "content-type": "text/plain" }).end("no_service");
      return;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      attempts.push({ at, status: 400, payload: null, problem: "invalid_payload" });
      res.writeHead(400, { "content-type": "text/plain" }).end("invalid_payload");
      return;
    }
    const fault = faults.shift();
    if (fault) {
      attempts.push({ at, status: fault.status, payload });
      answerFault(res, fault);
      return;
    }
    const problem = refusal(payload);
    if (problem) {
      attempts.push({ at, status: 400, payload, problem });
      res.writeHead(400, { "content-type": "text/plain" }).end(`invalid_blocks: ${problem}`);
      return;
    }
    attempts.push({ at, status: 200, payload });
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
  };
  const { origin, close } = await onLoopback(server);
  return {
    url: `${origin}${SECRET_PATH}`,
    faults,
    attempts,
    accepted: () => attempts.filter((a) => a.status === 200).map((a) => a.payload),
    close,
  };
}

/** A fake Slack for one test file. */
export function useFakeSlack(): { slack: FakeSlack } {
  return forTheFile("slack", startFakeSlack);
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Why Slack would refuse this payload, or undefined when it would take it. */
export function refusal(payload: unknown): string | undefined {
  if (!isObj(payload)) return "payload is not an object";
  if (typeof payload.text !== "string" || payload.text === "") return "text is missing";
  const blocks = payload.blocks;
  if (!Array.isArray(blocks)) return "blocks is not an array";
  if (blocks.length > 50) return `${blocks.length} blocks, more than 50`;
  const actionIds = new Set<string>();
  const blockIds = new Set<string>();
  for (const [i, block] of blocks.entries()) {
    if (!isObj(block)) return `block ${i} is not an object`;
    // A block_id: at most 255 characters, unique in the message.
    if (block.block_id !== undefined) {
      if (typeof block.block_id !== "string" || block.block_id.length > 255 || blockIds.has(block.block_id))
        return `block ${i}: block_id`;
      blockIds.add(block.block_id);
    }
    const problem = blockRefusal(block, actionIds);
    if (problem) return `block ${i} (${String(block.type)}): ${problem}`;
  }
  return undefined;
}

function blockRefusal(block: Obj, actionIds: Set<string>): string | undefined {
  switch (block.type) {
    case "header":
      return textRefusal(block.text, { max: 150, plain: true });
    case "divider":
      return undefined;
    case "section": {
      if (block.text === undefined && block.fields === undefined) return "neither text nor fields";
      if (block.text !== undefined) {
        const p = textRefusal(block.text, { max: 3000 });
        if (p) return `text: ${p}`;
      }
      if (block.fields !== undefined) {
        if (!Array.isArray(block.fields) || block.fields.length > 10) return "more than 10 fields";
        for (const f of block.fields) {
          const p = textRefusal(f, { max: 2000 });
          if (p) return `field: ${p}`;
        }
      }
      return block.accessory === undefined ? undefined : buttonRefusal(block.accessory, actionIds);
    }
    case "context": {
      const elements = block.elements;
      if (!Array.isArray(elements) || elements.length === 0 || elements.length > 10)
        return "1 to 10 elements";
      for (const e of elements) {
        const p = textRefusal(e, { max: 3000 });
        if (p) return p;
      }
      return undefined;
    }
    case "actions": {
      const elements = block.elements;
      if (!Array.isArray(elements) || elements.length === 0 || elements.length > 25)
        return "1 to 25 elements";
      for (const e of elements) {
        const p = buttonRefusal(e, actionIds);
        if (p) return p;
      }
      return undefined;
    }
    default:
      return `unknown block type ${String(block.type)}`;
  }
}

/**
 * A button as Block Kit's reference allows it: plain text of at most 75 characters; a `url` (at
 * most 3,000 characters) or none (a button the app is sent a click of); a `value` of at most 2,000
 * characters; an `action_id` of at most 255, unique in the message; `style` primary or danger.
 */
function buttonRefusal(button: unknown, actionIds: Set<string>): string | undefined {
  if (!isObj(button) || button.type !== "button") return "not a button";
  const p = textRefusal(button.text, { max: 75, plain: true });
  if (p) return `button text: ${p}`;
  if (
    button.url !== undefined &&
    (typeof button.url !== "string" || button.url.length > 3000 || !/^https?:\/\//.test(button.url))
  )
    return "button url";
  if (button.value !== undefined && (typeof button.value !== "string" || button.value.length > 2000))
    return "button value";
  if (button.style !== undefined && button.style !== "primary" && button.style !== "danger")
    return "button style";
  if (typeof button.action_id !== "string" || button.action_id.length > 255) return "action_id";
  if (actionIds.has(button.action_id)) return "duplicate action_id";
  actionIds.add(button.action_id);
  return undefined;
}

function textRefusal(text: unknown, rule: { max: number; plain?: boolean }): string | undefined {
  if (!isObj(text) || typeof text.text !== "string") return "not a text object";
  if (rule.plain && text.type !== "plain_text") return "must be plain_text";
  if (!rule.plain && text.type !== "mrkdwn" && text.type !== "plain_text") return "unknown text type";
  if (text.text.length === 0) return "empty text";
  if (text.text.length > rule.max) return `text of ${text.text.length} characters, more than ${rule.max}`;
  if (text.type === "mrkdwn") return markupRefusal(text.text);
  return undefined;
}

/** Unescaped markup: a `<` that opens no link, any mention or user reference, a bare `&`. */
function markupRefusal(text: string): string | undefined {
  // Links, and a user's mention by ID (`<@U123>`, "Formatting text for app surfaces"): what this
  // product writes itself; any other `<` or `>` is outside text that was not escaped.
  const withoutLinks = text
    .replace(/<https?:\/\/[^\s<>|]+(\|[^<>]*)?>/g, "")
    .replace(/<@[UW][A-Z0-9]{1,40}>/g, "");
  if (/[<>]/.test(withoutLinks)) return `unescaped < or > in ${JSON.stringify(text.slice(0, 80))}`;
  if (/&(?!amp;|lt;|gt;)/.test(text)) return `unescaped & in ${JSON.stringify(text.slice(0, 80))}`;
  return undefined;
}
