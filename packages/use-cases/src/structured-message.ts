import {
  DIGEST_V1,
  type DigestV1,
  DigestV1Schema,
  HEALTH_V1,
  type HealthV1,
  HealthV1Schema,
  SUMMARY_V1,
  type SummaryV1,
  SummaryV1Schema,
  TEST_V1,
  type TestV1,
  TestV1Schema,
} from "@fleet-auditor/render";
import type { ZodError } from "zod";
import { problemsOf, RunInputError } from "./errors.ts";

/** What a delivered text is: one of this product's structured documents, or anything else. */
export type StructuredMessage =
  | { kind: "digest"; digest: DigestV1 }
  | { kind: "health"; notice: HealthV1 }
  | { kind: "test"; notice: TestV1 }
  | { kind: "summary"; summary: SummaryV1 }
  | { kind: "other"; json: unknown };

/**
 * Reads what SNS delivered to a Lambda subscriber (the publish's `default`): a
 * `fleet-auditor.digest/v1`, a `fleet-auditor.health/v1`, a `fleet-auditor.test/v1` (`notify
 * test`), a `fleet-auditor.summary/v1` (an incident summary), or something else (not JSON, or JSON
 * of another publisher: `json` is undefined for text). A document that says it is one of the four but that its schema refuses (a time that is no time,
 * a link that is not a plain `https:` URL) throws `RunInputError` naming each field
 * (`Message.transitions.0.links.runtime`), never its value: read as the other kind it would be
 * shown or sent with what stands where a time or a link should.
 */
export function structuredMessage(delivered: string): StructuredMessage {
  let json: unknown;
  try {
    json = JSON.parse(delivered);
  } catch {
    json = undefined;
  }
  const digest = DigestV1Schema.safeParse(json);
  if (digest.success) return { kind: "digest", digest: digest.data };
  if (claims(json, DIGEST_V1)) refuse(DIGEST_V1, digest.error, json);
  const health = HealthV1Schema.safeParse(json);
  if (health.success) return { kind: "health", notice: health.data };
  if (claims(json, HEALTH_V1)) refuse(HEALTH_V1, health.error, json);
  const test = TestV1Schema.safeParse(json);
  if (test.success) return { kind: "test", notice: test.data };
  if (claims(json, TEST_V1)) refuse(TEST_V1, test.error, json);
  const summary = SummaryV1Schema.safeParse(json);
  if (summary.success) return { kind: "summary", summary: summary.data };
  if (claims(json, SUMMARY_V1)) refuse(SUMMARY_V1, summary.error, json);
  return { kind: "other", json };
}

function claims(json: unknown, schema: string): boolean {
  return typeof json === "object" && json !== null && (json as { schema?: unknown }).schema === schema;
}

function refuse(schema: string, error: ZodError, json: unknown): never {
  throw new RunInputError([
    { path: "Message", message: `a ${schema} that its schema refuses` },
    ...problemsOf(error, json).map((p) => ({ ...p, path: `Message.${p.path}` })),
  ]);
}
