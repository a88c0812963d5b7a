import { createServer, type IncomingMessage, request } from "node:http";
import type { AddressInfo } from "node:net";
import { batchRefusal, entryBytes, refusal, type SnsEntry, type SnsRefusal } from "./sns-rules.ts";

/** A publish the stand-in let through, as SNS took it, and its size counted AWS's way. */
interface Accepted {
  topicArn: string;
  entry: SnsEntry;
  bytes: number;
}

/** A publish (or a batch entry) the stand-in refused as SNS would. */
interface Refused extends SnsRefusal {
  operation: "Publish" | "PublishBatch";
  entry?: SnsEntry;
}

/** A running stand-in. */
export interface SnsStandIn {
  url: string;
  port: number;
  /** Every message published through it, in order. */
  accepted: Accepted[];
  /** Every refusal, in order: a test that expects some takes them (`refused.splice(0)`). */
  refused: Refused[];
  close(): Promise<void>;
}

/**
 * Real SNS's rules in front of fauxqs, which takes what SNS refuses (it counts only the body):
 * a loopback HTTP server that reads each Publish and PublishBatch (the SDK's query protocol),
 * refuses what SNS would refuse (`sns-rules.ts`) with SNS's own error answer, a failed entry of
 * a batch in `Failed`, and passes everything else to fauxqs unchanged. Not a mock: what passes
 * is delivered by the emulator, and the SDK's error parsing runs as against AWS.
 */
export async function startSnsStandIn(upstream: string): Promise<SnsStandIn> {
  const target = new URL(upstream);
  const accepted: Accepted[] = [];
  const refused: Refused[] = [];
  const publish = async (req: IncomingMessage, form: URLSearchParams, body: Buffer): Promise<Answer> => {
    const entry = entryOf(form, "");
    const refusedWith = refusal(entry);
    if (refusedWith) {
      refused.push({ operation: "Publish", entry, ...refusedWith });
      return errorAnswer(refusedWith);
    }
    const answer = await forward(target, req, body);
    if (answer.status === 200)
      accepted.push({ topicArn: form.get("TopicArn") ?? "", entry, bytes: entryBytes(entry) });
    return answer;
  };

  // Entries SNS would fail go back in `Failed`; the others go to fauxqs, renumbered.
  const publishBatch = async (req: IncomingMessage, form: URLSearchParams): Promise<Answer> => {
    const prefix = "PublishBatchRequestEntries.member.";
    const members = [
      ...new Set(
        [...form.keys()]
          .filter((k) => k.startsWith(prefix))
          .map((k) => Number(k.slice(prefix.length).split(".")[0])),
      ),
    ].sort((a, b) => a - b);
    const entries = members.map((n) => entryOf(form, `${prefix}${n}.`));
    const whole = batchRefusal(entries);
    if (whole) {
      refused.push({ operation: "PublishBatch", ...whole });
      return errorAnswer(whole);
    }
    const failed: string[] = [];
    const passing = new URLSearchParams();
    for (const [k, v] of form) if (!k.startsWith(prefix)) passing.append(k, v);
    let next = 1;
    for (const [i, n] of members.entries()) {
      const entry = entries[i] as SnsEntry;
      const refusedWith = refusal(entry);
      if (refusedWith) {
        refused.push({ operation: "PublishBatch", entry, ...refusedWith });
        failed.push(
          `<member><Id>${xml(entry.Id ?? "")}</Id><Code>${refusedWith.code}</Code><Message>${xml(refusedWith.message)}</Message><SenderFault>true</SenderFault></member>`,
        );
        continue;
      }
      const own = `${prefix}${n}.`;
      for (const [k, v] of form)
        if (k.startsWith(own)) passing.append(`${prefix}${next}.${k.slice(own.length)}`, v);
      next++;
      accepted.push({ topicArn: form.get("TopicArn") ?? "", entry, bytes: entryBytes(entry) });
    }
    if (next === 1) return batchAnswer("", failed.join(""));
    const answer = await forward(target, req, Buffer.from(passing.toString()));
    if (answer.status !== 200 || failed.length === 0) return answer;
    const text = answer.body.toString("utf8");
    const successful = /<Successful>([\s\S]*?)<\/Successful>/.exec(text)?.[1] ?? "";
    const theirs = /<Failed>([\s\S]*?)<\/Failed>/.exec(text)?.[1] ?? "";
    return batchAnswer(successful, theirs + failed.join(""));
  };

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      const form = new URLSearchParams(body.toString("utf8"));
      const action = form.get("Action");
      let answer: Answer;
      if (action === "Publish") answer = await publish(req, form, body);
      else if (action === "PublishBatch") answer = await publishBatch(req, form);
      else answer = await forward(target, req, body);
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    })().catch(() => res.socket?.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    accepted,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** One message of a form: the Publish parameters, or those of one batch entry under `prefix`. */
function entryOf(form: URLSearchParams, prefix: string): SnsEntry {
  const get = (k: string): string | undefined => form.get(`${prefix}${k}`) ?? undefined;
  const attributes: NonNullable<SnsEntry["MessageAttributes"]> = {};
  for (let n = 1; get(`MessageAttributes.entry.${n}.Name`) !== undefined; n++) {
    const at = `MessageAttributes.entry.${n}.Value.`;
    const binary = get(`${at}BinaryValue`);
    attributes[get(`MessageAttributes.entry.${n}.Name`) as string] = {
      DataType: get(`${at}DataType`),
      ...(get(`${at}StringValue`) !== undefined ? { StringValue: get(`${at}StringValue`) } : {}),
      ...(binary !== undefined ? { BinaryValue: Buffer.from(binary, "base64") } : {}),
    };
  }
  return {
    ...(get("Id") !== undefined ? { Id: get("Id") } : {}),
    Message: get("Message"),
    ...(get("Subject") !== undefined ? { Subject: get("Subject") } : {}),
    ...(get("MessageStructure") !== undefined ? { MessageStructure: get("MessageStructure") } : {}),
    MessageAttributes: attributes,
  };
}

function errorAnswer(r: SnsRefusal): Answer {
  const body = `<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>Sender</Type><Code>${r.code}</Code><Message>${xml(r.message)}</Message></Error><RequestId>sns-stand-in</RequestId></ErrorResponse>`;
  return {
    status: 400,
    headers: { "content-type": "text/xml", "x-amzn-requestid": "sns-stand-in" },
    body: Buffer.from(body),
  };
}

function batchAnswer(successful: string, failed: string): Answer {
  const body = `<PublishBatchResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishBatchResult><Successful>${successful}</Successful><Failed>${failed}</Failed></PublishBatchResult><ResponseMetadata><RequestId>sns-stand-in</RequestId></ResponseMetadata></PublishBatchResponse>`;
  return {
    status: 200,
    headers: { "content-type": "text/xml", "x-amzn-requestid": "sns-stand-in" },
    body: Buffer.from(body),
  };
}

function xml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function forward(target: URL, req: IncomingMessage, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const out = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host, "content-length": String(body.length) },
      },
      (res) => {
        void readAll(res).then((b) => {
          const headers = { ...res.headers } as Record<string, string | string[]>;
          delete headers["transfer-encoding"];
          headers["content-length"] = String(b.length);
          resolve({ status: res.statusCode ?? 502, headers, body: b });
        }, reject);
      },
    );
    out.on("error", reject);
    out.end(body);
  });
}
