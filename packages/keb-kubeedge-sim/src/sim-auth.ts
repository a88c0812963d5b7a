import { exportJWK, generateKeyPair, type JWK, errors as joseErrors, jwtVerify, SignJWT } from "jose";

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

/** A client of the simulated issuer. */
interface SimClient {
  id: string;
  /** Omit for a public client (password grant only). */
  secret?: string;
  /** Groups put into client-credentials tokens. */
  groups?: string[];
}

/** A user of the simulated issuer, for the password grant. */
interface SimUser {
  username: string;
  password: string;
  groups: string[];
}

/** Settings of the simulated identity provider. */
export interface SimAuthOptions {
  clients?: SimClient[];
  users?: SimUser[];
  /** Token lifetime, seconds. Default 3600. */
  tokenTtlSeconds?: number;
  /** Groups that may read `/runtimes` (Istio's policy). Default the three runtime groups. */
  allowedGroups?: string[];
  /** A careless issuer: refusals echo the request (form and Authorization header) in `error_description`. */
  echoRequests?: boolean;
}

/** The answer of the token endpoint: a status and a JSON body. */
export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * An OAuth2 issuer and the Istio checks in front of KEB: ES256 JWTs with a `groups` claim;
 * 401 for a bad or expired token, 403 without a token or without an allowed group.
 */
export class SimAuth {
  readonly issuer: string;
  readonly #options: SimAuthOptions;
  #keys: KeyPair;
  /** Tokens issued so far, by grant. */
  readonly issued = { client_credentials: 0, password: 0 };
  /** Every token issued so far (access and ID tokens): what a test must never find in an output. */
  readonly tokens: string[] = [];

  private constructor(issuer: string, keys: KeyPair, options: SimAuthOptions) {
    this.issuer = issuer;
    this.#keys = keys;
    this.#options = options;
  }

  static async create(issuer: string, options: SimAuthOptions): Promise<SimAuth> {
    return new SimAuth(issuer, await generateKeyPair("ES256"), options);
  }

  /** New signing keys: every token issued so far now fails verification (401), as after a key rotation. */
  async rotateKeys(): Promise<void> {
    this.#keys = await generateKeyPair("ES256");
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: [{ ...(await exportJWK(this.#keys.publicKey)), alg: "ES256", use: "sig" }] };
  }

  /** Handles `POST /oauth2/token` with a form body and an optional Basic header. */
  async token(form: URLSearchParams, authorization: string | undefined): Promise<TokenAnswer> {
    let clientId = form.get("client_id") ?? undefined;
    let secret = form.get("client_secret") ?? undefined;
    if (authorization?.startsWith("Basic ")) {
      const [id, pw] = Buffer.from(authorization.slice(6), "base64").toString().split(":");
      clientId = decodeURIComponent(id ?? "");
      secret = decodeURIComponent(pw ?? "");
    }
    const echo = this.#options.echoRequests
      ? ` (request: ${form.toString()}; authorization: ${authorization ?? "-"})`
      : "";
    const client = this.#options.clients?.find((c) => c.id === clientId);
    if (!client || client.secret !== secret) {
      return {
        status: 401,
        body: { error: "invalid_client", error_description: `client authentication failed${echo}` },
      };
    }
    const grant = form.get("grant_type");
    let subject: string;
    let groups: string[];
    if (grant === "client_credentials") {
      if (client.secret === undefined) return { status: 400, body: { error: "unauthorized_client" } };
      subject = client.id;
      groups = client.groups ?? [];
    } else if (grant === "password") {
      const user = this.#options.users?.find((u) => u.username === form.get("username"));
      if (!user || user.password !== form.get("password")) {
        return {
          status: 400,
          body: { error: "invalid_grant", error_description: `wrong user or password${echo}` },
        };
      }
      subject = user.username;
      groups = user.groups;
    } else {
      return { status: 400, body: { error: "unsupported_grant_type" } };
    }
    this.issued[grant]++;
    const ttl = this.#options.tokenTtlSeconds ?? 3600;
    const sign = (extra: Record<string, unknown>) =>
      new SignJWT({ groups, ...extra })
        .setProtectedHeader({ alg: "ES256" })
        .setIssuer(this.issuer)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime(`${ttl}s`)
        .setJti(crypto.randomUUID())
        .sign(this.#keys.privateKey);
    const body: Record<string, unknown> = {
      access_token: await sign({}),
      token_type: "bearer",
      expires_in: ttl,
    };
    if (grant === "password" && (form.get("scope") ?? "").split(" ").includes("openid")) {
      body.id_token = await sign({ aud: client.id });
    }
    this.tokens.push(...[body.access_token, body.id_token].filter((t): t is string => typeof t === "string"));
    return { status: 200, body };
  }

  /** Istio's verdict on a request's Authorization header: undefined to let it through. */
  async check(authorization: string | undefined): Promise<{ status: 401 | 403; text: string } | undefined> {
    if (!authorization?.startsWith("Bearer ")) return { status: 403, text: "RBAC: access denied" };
    try {
      const { payload } = await jwtVerify(authorization.slice(7), this.#keys.publicKey, {
        issuer: this.issuer,
      });
      const allowed = this.#options.allowedGroups ?? ["runtimeAdmin", "runtimeOperator", "runtimeViewer"];
      const groups = Array.isArray(payload.groups) ? payload.groups : [];
      if (!groups.some((g) => allowed.includes(String(g))))
        return { status: 403, text: "RBAC: access denied" };
      return undefined;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) return { status: 401, text: "Jwt is expired" };
      return { status: 401, text: "Jwt verification fails" };
    }
  }
}
