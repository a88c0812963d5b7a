import { isLoopbackHost } from "@fleet-auditor/http";
import { describe, expect, it } from "vitest";

describe("isLoopbackHost", () => {
  it("takes localhost, its subdomains, 127.0.0.0/8 and ::1 (bracketed or not) as loopback", () => {
    for (const host of ["localhost", "keb.localhost", "127.0.0.1", "127.255.0.9", "::1", "[::1]"])
      expect(isLoopbackHost(host), host).toBe(true);
  });

  it("takes no other host as loopback, however it looks", () => {
    for (const host of [
      "localhost.example.com",
      "128.0.0.1",
      "10.0.0.1",
      "::2",
      "0.0.0.0",
      "127.0.0.1.nip.io",
    ])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});
