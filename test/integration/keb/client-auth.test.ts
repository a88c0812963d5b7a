import { createServer } from "node:http";
import {
  ClientCredentialsTokenProvider,
  KebAuthError,
  type OAuth2Options,
  PasswordTokenProvider,
  StaticTokenProvider,
} from "@fleet-auditor/keb";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { useKebSimulator } from "../../helpers/keb.ts";
import { onLoopback } from "../../helpers/loopback.ts";

const SECRET = "s3cr3t-client-value";
const PASSWORD = "p4ssw0rd-user-value";

const kit = useKebSimulator({
  fleet: { size: 30, seed: 11 },
  auth: {
    clients: [
      { id: "auditor", secret: SECRET, groups: ["runtimeViewer"] },
      { id: "no-group", secret: SECRET, groups: ["someOtherGroup"] },
      { id: "kcp-cli" },
    ],
    users: [{ username: "tech-user", password: PASSWORD, groups: ["runtimeViewer"] }],
  },
});

const common = (): Pick<OAuth2Options, "tokenUrl" | "transport"> => ({
  tokenUrl: kit.sim.tokenUrl,
  transport: kit.transport,
});
const page = { states: ["all" as const] };

describe("authentication to KEB", () => {
  it("is refused by the gateway without a token (403) or with a bad one (401)", async () => {
    expect((await kit.raw("/runtimes")).status).toBe(403);
    const bad = await kit.raw("/runtimes", { authorization: "Bearer not-a-jwt" });
    expect(bad).toMatchObject({ status: 401, text: "Jwt verification fails" });
    const err = await kit
      .client({ tokenProvider: new StaticTokenProvider("not-a-jwt") })
      .listPage(page)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KebAuthError);
    expect(err).toMatchObject({ code: "KEB_AUTH", status: 401 });
  });

  it("works with the client-credentials grant, client_secret_basic and client_secret_post", async () => {
    for (const clientAuth of ["basic", "post"] as const) {
      const tokens = new ClientCredentialsTokenProvider({
        ...common(),
        clientId: "auditor",
        clientSecret: SECRET,
        clientAuth,
      });
      const result = await kit.client({ tokenProvider: tokens }).listPage(page);
      expect(result.totalCount).toBe(30);
    }
  });

  it("works with the password grant of a technical user, sending the ID token when asked", async () => {
    const tokens = new PasswordTokenProvider({
      ...common(),
      clientId: "kcp-cli",
      username: "tech-user",
      password: PASSWORD,
      scope: "openid email",
      tokenField: "id_token",
    });
    const token = await tokens.getToken();
    expect(decodeJwt(token)).toMatchObject({ aud: "kcp-cli", groups: ["runtimeViewer"], sub: "tech-user" });
    await expect(kit.client({ tokenProvider: tokens }).listPage(page)).resolves.toMatchObject({
      totalCount: 30,
    });
  });

  it("caches the token and fetches it once for concurrent callers", async () => {
    const tokens = new ClientCredentialsTokenProvider({
      ...common(),
      clientId: "auditor",
      clientSecret: SECRET,
    });
    const before = kit.sim.auth?.issued.client_credentials ?? 0;
    const client = kit.client({ tokenProvider: tokens });
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => client.listPage({ ...page, page: 1 + (i % 2), pageSize: 15 })),
    );
    await client.listPage(page);
    expect((kit.sim.auth?.issued.client_credentials ?? 0) - before).toBe(1);
  });

  it("refreshes shortly before expiry", async () => {
    let now = Date.now();
    const tokens = new ClientCredentialsTokenProvider({
      ...common(),
      clientId: "auditor",
      clientSecret: SECRET,
      now: () => now,
    });
    const first = await tokens.getToken();
    now += 3000 * 1000; // 50 min into a 60 min token: still good
    expect(await tokens.getToken()).toBe(first);
    now += 9.5 * 60 * 1000; // under a minute left
    expect(await tokens.getToken()).not.toBe(first);
  });

  it("fetches a new token once when KEB answers 401, and carries on", async () => {
    const tokens = new ClientCredentialsTokenProvider({
      ...common(),
      clientId: "auditor",
      clientSecret: SECRET,
    });
    const client = kit.client({ tokenProvider: tokens });
    await client.listPage(page);
    const before = kit.sim.auth?.issued.client_credentials ?? 0;
    await kit.sim.auth?.rotateKeys(); // every cached token now fails verification
    await expect(client.listPage(page)).resolves.toMatchObject({ totalCount: 30 });
    expect((kit.sim.auth?.issued.client_credentials ?? 0) - before).toBe(1);
  });

  it("reports a token without the runtime group as KEB_AUTH 403", async () => {
    const tokens = new ClientCredentialsTokenProvider({
      ...common(),
      clientId: "no-group",
      clientSecret: SECRET,
    });
    const err = await kit
      .client({ tokenProvider: tokens })
      .listPage(page)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "KEB_AUTH", status: 403 });
  });

  it("reports a refused client or user without the secret in the message", async () => {
    const badClient = new ClientCredentialsTokenProvider({
      ...common(),
      clientId: "auditor",
      clientSecret: `${SECRET}-wrong`,
    });
    const e1 = await badClient.getToken().catch((e: unknown) => e);
    expect(e1).toMatchObject({ code: "KEB_AUTH", status: 401 });
    expect((e1 as Error).message).toContain("invalid_client");
    const badUser = new PasswordTokenProvider({
      ...common(),
      clientId: "kcp-cli",
      username: "tech-user",
      password: "nope",
    });
    const e2 = await badUser.getToken().catch((e: unknown) => e);
    expect((e2 as Error).message).toContain("invalid_grant");
    for (const err of [e1, e2]) {
      const text = `${(err as Error).message} ${JSON.stringify(err)} ${String((err as Error).stack)}`;
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(PASSWORD);
    }
    expect(JSON.stringify({ provider: badClient })).not.toContain(SECRET);
  });

  it("reads a password kept elsewhere for each fetch, afresh once when the issuer refuses it, and never repeats it", async () => {
    const kept = { value: "rotated-away-pw", reads: [] as boolean[] };
    const tokens = new PasswordTokenProvider({
      ...common(),
      clientId: "kcp-cli",
      username: "tech-user",
      password: async ({ fresh }) => {
        kept.reads.push(fresh);
        return fresh ? PASSWORD : kept.value;
      },
    });
    // The value read first is refused (400 invalid_grant); the one read afresh is taken.
    await expect(tokens.getToken()).resolves.toMatch(/^ey/);
    expect(kept.reads).toEqual([false, true]);
    // A value that is wrong wherever it is read: one refusal, no retry with the same value.
    const wrong = new PasswordTokenProvider({
      ...common(),
      clientId: "kcp-cli",
      username: "tech-user",
      password: async () => "still-wrong-pw",
    });
    const err = await wrong.getToken().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "KEB_AUTH", status: 400 });
    expect(`${(err as Error).message} ${JSON.stringify(err)}`).not.toContain("still-wrong-pw");
  });

  it("says the token endpoint answered an HTML page, not that it is unreachable", async () => {
    kit.sim.faults.add({ path: "/oauth2/token", action: { kind: "invalid-json" } });
    const provider = new ClientCredentialsTokenProvider({
      ...common(),
      clientId: "auditor",
      clientSecret: SECRET,
    });
    const err = await provider.getToken().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "KEB_AUTH", status: 200 });
    expect((err as Error).message).toMatch(/answered 200 with an HTML page: <html>/);
    expect((err as Error).message).not.toContain("unreachable");
  });

  it("tells a gateway's error page in one line, as every reason is told", async () => {
    kit.sim.faults.add({
      path: "/oauth2/token",
      times: Number.POSITIVE_INFINITY,
      action: {
        kind: "status",
        status: 502,
        body: "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<h1>502 Bad Gateway</h1>\n</body>\n</html>\n",
      },
    });
    const provider = new ClientCredentialsTokenProvider({
      ...common(),
      clientId: "auditor",
      clientSecret: SECRET,
    });
    const err = await provider.getToken().catch((e: unknown) => e);
    kit.sim.faults.clear();
    expect(err).toMatchObject({ status: 502 });
    expect((err as Error).message).toMatch(
      /token endpoint http:\/\/127\.0\.0\.1:\d+ failed with HTTP 502: <html> <head><title>502 Bad Gateway<\/title>/,
    );
    expect((err as Error).message).not.toMatch(/\s$|\n/);
  });

  it("tells a token endpoint that is down or failing (5xx, 429, no answer) as KEB_HTTP, to try again, and one that refuses as KEB_AUTH", async () => {
    const provider = (tokenUrl = kit.sim.tokenUrl) =>
      new ClientCredentialsTokenProvider({
        ...common(),
        tokenUrl,
        clientId: "auditor",
        clientSecret: SECRET,
      });
    for (const status of [500, 503, 429]) {
      kit.sim.faults.add({
        path: "/oauth2/token",
        times: Number.POSITIVE_INFINITY,
        action: { kind: "status", status, body: "busy" },
      });
      const err = await provider()
        .getToken()
        .catch((e: unknown) => e);
      kit.sim.faults.clear();
      expect(err, String(status)).toMatchObject({ code: "KEB_HTTP", status });
    }
    // Nothing listens there: no answer at all.
    const closed = await onLoopback(createServer());
    await closed.close();
    const down = await provider(`${closed.origin}/oauth2/token`)
      .getToken()
      .catch((e: unknown) => e);
    expect(down).toMatchObject({ code: "KEB_HTTP", status: 0 });
    expect((down as Error).message).toMatch(/^token endpoint http:\/\/127\.0\.0\.1:\d+ failed with /);
    // A wrong path or a refused client is configuration: KEB_AUTH.
    for (const status of [404, 401, 403]) {
      kit.sim.faults.add({ path: "/oauth2/token", action: { kind: "status", status, body: "no" } });
      const err = await provider()
        .getToken()
        .catch((e: unknown) => e);
      kit.sim.faults.clear();
      expect(err, String(status)).toMatchObject({ code: "KEB_AUTH", status });
    }
  });

  it("refuses a token endpoint over plain http to a remote host", () => {
    expect(
      () =>
        new ClientCredentialsTokenProvider({
          tokenUrl: "http://idp.example.com/oauth2/token",
          transport: kit.transport,
          clientId: "a",
          clientSecret: "b",
        }),
    ).toThrow(/plain http is allowed only to a loopback host/);
  });
});
