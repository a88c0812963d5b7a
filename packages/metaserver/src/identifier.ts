import { createHash } from "node:crypto";

/** The request fields the ID is computed from. */
export interface IdentityFields {
  id?: string;
  nodename: string;
  key: string;
  verb: string;
  option?: Uint8Array;
  reqBody?: Uint8Array;
  subresource: string;
}

/**
 * `Application.Identifier()`: the `ID` when set; otherwise lowercase hex SHA-256 over the raw
 * bytes of Nodename, Key, Verb, Option, ReqBody and Subresource, concatenated with no separator.
 */
export function identifier(app: IdentityFields): string {
  if (app.id) return app.id;
  const h = createHash("sha256");
  h.update(app.nodename);
  h.update(app.key);
  h.update(app.verb);
  if (app.option) h.update(app.option);
  if (app.reqBody) h.update(app.reqBody);
  h.update(app.subresource);
  return h.digest("hex");
}

/** A SHA-256 ID (v1.13+) or an MD5 ID from a v1.10-1.12 edge. */
export function looksLikeHashId(id: string): "sha256" | "md5" | undefined {
  if (/^[0-9a-f]{64}$/.test(id)) return "sha256";
  if (/^[0-9a-f]{32}$/.test(id)) return "md5";
  return undefined;
}
