import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, paginateScan } from "@aws-sdk/lib-dynamodb";
import { startEmbeddedDynamo } from "@fleet-auditor/store";

/**
 * Every item of every table (or of the given ones) as text, binary attributes gunzipped where
 * they are gzip (the run reports): what a secret search must read, since the raw files of a store
 * compress their contents and would hide one.
 */
export async function everythingStored(client: DynamoDBDocumentClient, only?: string[]): Promise<string> {
  const out: string[] = [];
  const tables = only ?? (await client.send(new ListTablesCommand({}))).TableNames ?? [];
  for (const table of tables) {
    for await (const page of paginateScan({ client }, { TableName: table })) {
      out.push(JSON.stringify(page.Items ?? [], binaryAsText));
    }
  }
  return out.join("\n");
}

/** Everything under an embedded state directory: its files as they are, and its store's items. */
export async function everythingInStateDir(dir: string): Promise<string> {
  const texts: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name !== "LOCK") texts.push(readFileSync(path).toString("latin1"));
    }
  };
  if (existsSync(dir)) walk(dir);
  if (existsSync(join(dir, "dynamodb"))) {
    const db = await startEmbeddedDynamo({ dir: join(dir, "dynamodb"), tables: [] });
    try {
      texts.push(await everythingStored(db.client));
    } finally {
      await db.close();
    }
  }
  return texts.join("\n");
}

function binaryAsText(_key: string, value: unknown): unknown {
  if (!(value instanceof Uint8Array)) return value;
  const bytes = Buffer.from(value);
  try {
    return gunzipSync(bytes).toString("utf8");
  } catch {
    return bytes.toString("latin1");
  }
}

/** The forms a secret takes in transit: as is, URL-encoded either way, base64, JSON-escaped. */
function secretForms(secret: string, clientId?: string): string[] {
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    Buffer.from(secret).toString("base64"),
    JSON.stringify(secret).slice(1, -1),
  ]);
  if (clientId) {
    forms.add(Buffer.from(`${clientId}:${secret}`).toString("base64"));
    forms.add(
      Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64"),
    );
  }
  return [...forms];
}

/**
 * The first place where a text holds a secret, whole or any 12 characters of one of its forms
 * (a secret cut by a length cap still leaks its part); undefined when it holds none.
 */
export function findSecret(
  text: string,
  secrets: ReadonlyArray<{ value: string; clientId?: string }>,
): string | undefined {
  for (const { value, clientId } of secrets) {
    for (const form of secretForms(value, clientId)) {
      const window = Math.min(12, form.length);
      for (let i = 0; i + window <= form.length; i++) {
        const piece = form.slice(i, i + window);
        const at = text.indexOf(piece);
        if (at >= 0)
          return `${JSON.stringify(piece)} of ${JSON.stringify(value)} in …${text.slice(Math.max(0, at - 80), at + 80)}…`;
      }
    }
  }
  return undefined;
}
