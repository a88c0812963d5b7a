import { MetaserverParseError } from "./errors.ts";

// Go's encoding/json decodes []byte with base64.StdEncoding: padded, standard alphabet only.
const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes a Go `[]byte` JSON field: padded standard base64. `null`, absent and `""` mean absent
 * (undefined). URL-safe or unpadded input is an error, as it is for Go.
 */
export function decodeBytes(value: unknown, field: string): Uint8Array | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  if (typeof value !== "string")
    throw new MetaserverParseError("MS_BASE64", `${field}: expected a base64 string, got ${typeof value}`);
  if (!STD_BASE64.test(value))
    throw new MetaserverParseError("MS_BASE64", `${field}: not padded standard base64`);
  return new Uint8Array(Buffer.from(value, "base64"));
}

/** The bytes as UTF-8 text. */
export function utf8(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("utf8");
}

/** Standard padded base64 of bytes (for building messages in tests and demos). */
export function encodeBytes(bytes: Uint8Array | string): string {
  return Buffer.from(typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes).toString("base64");
}
