import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { forTheFile, onLoopback } from "./loopback.ts";

// AWS Secrets Manager on loopback, `GetSecretValue` only, in its JSON protocol (POST /,
// `X-Amz-Target: secretsmanager.GetSecretValue`, `application/x-amz-json-1.1`): the current value
// of a secret by its ARN or name; a secret it does not know, or one created without a value (as
// the stack creates them), answers `ResourceNotFoundException` as Secrets Manager does. Any other
// operation is refused, so that code that sends one fails here as it would without its grant.

export interface FakeSecretsManager {
  /** The endpoint (`AWS_ENDPOINT_URL_SECRETS_MANAGER`). */
  url: string;
  /** Sets (or rotates) a secret's current value; `undefined`: created, no value yet. */
  put(secretId: string, value: string | undefined): void;
  /** Every request's operation and `SecretId`, in order. */
  requests: Array<{ operation: string; secretId: string }>;
  close(): Promise<void>;
}

/** Starts the stand-in on 127.0.0.1. */
async function startFakeSecretsManager(): Promise<FakeSecretsManager> {
  const secrets = new Map<string, { value: string | undefined; version: string }>();
  const requests: FakeSecretsManager["requests"] = [];
  const server = createServer((req, res) => void handle(req, res));
  const answer = (res: ServerResponse, status: number, body: Record<string, unknown>): void => {
    const type = typeof body.__type === "string" ? { "x-amzn-errortype": body.__type } : {};
    res.writeHead(status, { "content-type": "application/x-amz-json-1.1", ...type });
    res.end(JSON.stringify(body));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const target = String(req.headers["x-amz-target"] ?? "");
    const operation = target.replace(/^secretsmanager\./, "");
    let body: { SecretId?: unknown; VersionStage?: unknown; VersionId?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    } catch {
      return answer(res, 400, { __type: "SerializationException", message: "not JSON" });
    }
    const secretId = String(body.SecretId ?? "");
    requests.push({ operation, secretId });
    if (req.method !== "POST" || !target.startsWith("secretsmanager."))
      return answer(res, 400, { __type: "UnknownOperationException", message: `unknown: ${target}` });
    if (operation !== "GetSecretValue")
      return answer(res, 400, {
        __type: "AccessDeniedException",
        message: `${operation} is not served here`,
      });
    if (!secretId)
      return answer(res, 400, { __type: "ValidationException", message: "SecretId is required" });
    const secret = secrets.get(secretId);
    if (!secret)
      return answer(res, 400, {
        __type: "ResourceNotFoundException",
        message: "Secrets Manager can't find the specified secret.",
      });
    if (secret.value === undefined)
      return answer(res, 400, {
        __type: "ResourceNotFoundException",
        message: "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT",
      });
    return answer(res, 200, {
      ARN: secretId.startsWith("arn:")
        ? secretId
        : `arn:aws:secretsmanager:us-east-1:123456789012:secret:${secretId}-AbC123`,
      Name: secretId,
      VersionId: secret.version,
      SecretString: secret.value,
      VersionStages: ["AWSCURRENT"],
      CreatedDate: Date.now() / 1000,
    });
  };
  const { origin, close } = await onLoopback(server);
  return {
    url: origin,
    put: (secretId, value) => secrets.set(secretId, { value, version: randomUUID() }),
    requests,
    close,
  };
}

/** A stand-in for the test file's lifetime. */
export function useFakeSecretsManager(): { sm: FakeSecretsManager } {
  return forTheFile("sm", startFakeSecretsManager);
}
