import { REDACTED, redact, redirectOrigin, withoutCredentials } from "@fleet-auditor/http";
import { describe, expect, it } from "vitest";

describe("redact", () => {
  it("removes a known secret as given, URL-encoded and in base64", () => {
    const secret = "s3cr3t/with+chars";
    const text = `a ${secret} b ${encodeURIComponent(secret)} c ${Buffer.from(secret).toString("base64")}`;
    expect(redact(text, [secret])).toBe(`a ${REDACTED} b ${REDACTED} c ${REDACTED}`);
  });

  it("removes what looks like a credential even when it is not known", () => {
    const echoed = [
      "Authorization: Bearer abc.def-ghi",
      "authorization: Basic YXVkaXRvcjpzZWNyZXQ=",
      "grant_type=password&username=u&password=hunter2&client_secret=xyz",
      '{"access_token":"opaque-value","token": "t0k"}',
      "jwt eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl",
      "GET https://user:pa55@keb.example/runtimes",
    ].join("\n");
    const out = redact(echoed);
    for (const leaked of [
      "abc.def-ghi",
      "YXVkaXRvcjpzZWNyZXQ=",
      "hunter2",
      "xyz",
      "opaque-value",
      "t0k",
      "c2lnbmF0dXJl",
      "pa55",
      "user:",
    ]) {
      expect(out, leaked).not.toContain(leaked);
    }
    expect(out).toContain("GET https://keb.example/runtimes");
    expect(out).toContain("username=u");
  });

  it("leaves ordinary text, words like token before a colon, and short values alone", () => {
    expect(redact("KEB refused the token: HTTP 401: Jwt verification fails")).toBe(
      "KEB refused the token: HTTP 401: Jwt verification fails",
    );
    expect(redact("page 3 failed with HTTP 503: no healthy upstream", ["abc"])).toBe(
      "page 3 failed with HTTP 503: no healthy upstream",
    );
  });

  it("strips user:pass@ from a URL", () => {
    expect(withoutCredentials(new URL("https://u:p@keb.example/x"))).toBe("https://keb.example/x");
  });

  it("quotes a redirect as its origin alone, resolved against the request", () => {
    const request = "https://keb.example/runtimes?page=1";
    expect(redirectOrigin("https://u:p@login.example:8443/oauth?token=abc#x", request)).toBe(
      "https://login.example:8443",
    );
    expect(redirectOrigin("/login?next=Bearer%20abc", request)).toBe("https://keb.example");
    expect(redirectOrigin("//other.example/x?y", request)).toBe("https://other.example");
    expect(redirectOrigin("javascript:alert(1)", request)).toBe("an unreadable location");
    expect(redirectOrigin("http://[::1", request)).toBe("an unreadable location");
    expect(redirectOrigin(null, request)).toBe("nowhere");
  });
});
