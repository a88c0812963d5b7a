import { describe, expect, it } from "vitest";
import {
  QUARANTINE_EXCERPT_BYTES,
  quarantineExcerpt,
} from "../../../packages/use-cases/src/quarantine-excerpt.ts";

describe("the excerpt of a quarantined body", () => {
  it("keeps at most 4 KiB of a 32 KiB body, and says how large it was", () => {
    const body = `{"broken": ${"x".repeat(32 * 1024)}`;
    const q = quarantineExcerpt(body);
    expect(Buffer.byteLength(q.excerpt)).toBe(QUARANTINE_EXCERPT_BYTES);
    expect(body.startsWith(q.excerpt)).toBe(true);
    expect(q).toMatchObject({ bytes: Buffer.byteLength(body), truncated: true });
  });

  it("keeps a small body whole and says so", () => {
    expect(quarantineExcerpt("not json")).toEqual({ excerpt: "not json", bytes: 8, truncated: false });
  });

  it("never cuts a character in two", () => {
    // 4,095 bytes of ASCII, then a 4-byte emoji that would straddle the cap.
    const body = `${"a".repeat(QUARANTINE_EXCERPT_BYTES - 1)}😀tail`;
    const q = quarantineExcerpt(body);
    expect(q.excerpt).toBe("a".repeat(QUARANTINE_EXCERPT_BYTES - 1));
    expect(q.excerpt).not.toContain("\uFFFD");
  });

  it("redacts credentials, one that runs past the cut included", () => {
    const token = `eyJhbGciOiJIUzI1NiJ9.${"e".repeat(40)}.${"s".repeat(40)}`;
    const padded = `${"p".repeat(QUARANTINE_EXCERPT_BYTES - 30)} Bearer ${token}`;
    const q = quarantineExcerpt(`{"password": "hunter22", "auth": "${padded}"}`);
    expect(q.excerpt).not.toContain("hunter22");
    expect(q.excerpt).not.toContain(token.slice(0, 20));
    expect(q.excerpt).toContain("[redacted]");
    expect(q.truncated).toBe(true);
  });
});
