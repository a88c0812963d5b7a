import { CreateTopicCommand, SNSClient, SubscribeCommand } from "@aws-sdk/client-sns";
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import { type FauxqsServer, startFauxqs } from "fauxqs";
import { afterAll, beforeAll } from "vitest";
import { type SnsStandIn, startSnsStandIn } from "./sns-stand-in.ts";

const credentials = { accessKeyId: "test", secretAccessKey: "test" };

/** What an SQS subscriber of the topic received (the SNS envelope, parsed). */
export interface Delivered {
  Subject: string;
  /** fauxqs delivers the whole `MessageStructure=json` document; real SNS would pick `sqs`/`default`. */
  Message: string;
  MessageAttributes?: Record<string, { Type: string; Value: string }>;
}

/**
 * A real SNS/SQS API (fauxqs) with a topic and subscribers with optional filter policies, behind
 * real SNS's rules (`sns-stand-in.ts`): every publish of the file, the harness client's and a
 * function's pointed at `server.port`, is refused as SNS would refuse it (size counted AWS's way,
 * subject, attribute types) before fauxqs, which takes it all, sees it.
 */
export interface SnsHarness {
  /** Where SNS clients point (`AWS_ENDPOINT_URL_SNS`): the rules, then fauxqs. */
  server: { port: number };
  /** The emulator itself, behind the rules. */
  fauxqs: FauxqsServer;
  /**
   * What was published and what was refused. Refusals fail the file after its tests unless a
   * test that expects them takes them (`standIn.refused.splice(0)`).
   */
  standIn: SnsStandIn;
  /** An SNS client on `server.port`. */
  sns: SNSClient;
  topicArn: string;
  /** Creates another topic; returns its ARN. */
  topic(name: string): Promise<string>;
  /** Creates a queue subscribed to the topic (the harness's own by default); returns a function that drains it. */
  subscriber(
    name: string,
    filterPolicy?: Record<string, unknown>,
    topicArn?: string,
  ): Promise<() => Promise<Delivered[]>>;
}

/** Starts fauxqs on loopback for one test file. */
export function useSns(): SnsHarness {
  const h = {} as SnsHarness;
  let sqs: SQSClient;
  beforeAll(async () => {
    h.fauxqs = await startFauxqs({ port: 0, host: "127.0.0.1", logger: false });
    const endpoint = `http://127.0.0.1:${h.fauxqs.port}`;
    h.standIn = await startSnsStandIn(endpoint);
    h.server = { port: h.standIn.port };
    h.sns = new SNSClient({ endpoint: h.standIn.url, region: "us-east-1", credentials });
    sqs = new SQSClient({ endpoint, region: "us-east-1", credentials, useQueueUrlAsEndpoint: false });
    h.topicArn = (await h.sns.send(new CreateTopicCommand({ Name: "alerts" }))).TopicArn as string;
  });
  afterAll(async () => {
    h.sns?.destroy();
    sqs?.destroy();
    await h.standIn?.close();
    await h.fauxqs?.stop();
    const refused = h.standIn?.refused ?? [];
    if (refused.length > 0) {
      const what = refused.map(
        (r) => `${r.operation} ${r.code}: ${r.message} (subject ${JSON.stringify(r.entry?.Subject)})`,
      );
      throw new Error(
        `SNS would have refused ${refused.length} publish(es) that fauxqs took:\n${what.join("\n")}`,
      );
    }
  });
  h.topic = async (name) => (await h.sns.send(new CreateTopicCommand({ Name: name }))).TopicArn as string;
  h.subscriber = async (name, filterPolicy, topicArn) => {
    const url = (await sqs.send(new CreateQueueCommand({ QueueName: name }))).QueueUrl as string;
    const attrs = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["QueueArn"] }),
    );
    await h.sns.send(
      new SubscribeCommand({
        TopicArn: topicArn ?? h.topicArn,
        Protocol: "sqs",
        Endpoint: attrs.Attributes?.QueueArn,
        Attributes: filterPolicy ? { FilterPolicy: JSON.stringify(filterPolicy) } : {},
      }),
    );
    return async () => {
      const out: Delivered[] = [];
      for (;;) {
        const got = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
        );
        if (!got.Messages?.length) return out;
        for (const m of got.Messages) out.push(JSON.parse(m.Body ?? "{}") as Delivered);
        const { DeleteMessageBatchCommand } = await import("@aws-sdk/client-sqs");
        await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: url,
            Entries: got.Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
          }),
        );
      }
    };
  };
  return h;
}
