import { redact } from "@fleet-auditor/http";
import { decodeJwt } from "jose";
import { number, object, optional, string, union } from "zod";
import { parseEndpointUrl } from "../base-url.ts";
import { KebAuthError, KebDeadlineError, KebError, KebHttpError, KebTimeoutError } from "../errors.ts";
import { type KebTransport, timeoutPhase } from "../transport.ts";
import type { TokenProvider } from "./token-provider.ts";

/** Settings common to both OAuth2 grants. */
export interface OAuth2Options {
  /** The issuer's token endpoint, e.g. `https://tenant.accounts.ondemand.com/oauth2/token`. */
  tokenUrl: string;
  clientId: string;
  /**
   * Omit for a public client (password grant only). A function reads a secret that may be rotated
   * where it is kept: it is called for each token fetch (its own cache decides how often the store
   * is asked), and with `fresh: true` once after the token endpoint answers 401, to retry with a
   * value rotated since.
   */
  clientSecret?: string | ClientSecretSource;
  /** `basic` (RFC 6749 default) or `post` (credentials in the form body). Default `basic`. */
  clientAuth?: "basic" | "post";
  scope?: string;
  /**
   * Which token to send to KEB. The `kcp` CLI sends the ID token, which is where IAS puts `groups`
   * by default. Default `access_token`.
   */
  tokenField?: "access_token" | "id_token";
  /** Shared per process with the KEB client; see `KebTransport`. */
  transport: KebTransport;
  /** Overall time for one token fetch including retries, ms. Default 15000. */
  timeoutMs?: number;
  /** Clock, injectable for tests. */
  now?: () => number;
}

/**
 * Reads a secret (the client secret, a password); `fresh` bypasses any cache (the endpoint refused
 * the value last read).
 */
export type ClientSecretSource = (options: { fresh: boolean }) => Promise<string>;

/** What one token request sends: the client secret, if any, and the grant's form fields. */
interface Credentials {
  clientSecret: string | undefined;
  fields: Record<string, string>;
}

const TokenResponse = object({
  access_token: string().min(1),
  token_type: string(),
  expires_in: optional(union([number(), string()])),
  id_token: optional(string().min(1)),
});

// Refresh this long before expiry, or at half the lifetime for short-lived tokens.
const REFRESH_MARGIN_MS = 60_000;
// When neither expires_in nor a JWT exp says how long a token lives.
const DEFAULT_LIFETIME_MS = 300_000;

interface CachedToken {
  value: string;
  refreshAt: number;
}

/** Fetches tokens from an OAuth2 token endpoint, caches them until shortly before expiry, single-flight. */
abstract class OAuth2TokenProvider implements TokenProvider {
  readonly #options: OAuth2Options;
  readonly #tokenUrl: URL;
  readonly #now: () => number;
  #cached: CachedToken | undefined;
  #inflight: Promise<CachedToken> | undefined;
  /** The client secret values used so far (redacted from every error); the last one first. */
  #secretsSeen: string[] = [];

  constructor(options: OAuth2Options) {
    this.#options = options;
    this.#tokenUrl = parseEndpointUrl(options.tokenUrl, "token URL");
    this.#now = options.now ?? Date.now;
  }

  /** The grant's own form fields; a secret among them read afresh when `fresh`. */
  protected abstract grantFields(fresh: boolean): Promise<Record<string, string>>;
  /** The grant's own secrets given as values, redacted from every error. */
  protected grantSecrets(): string[] {
    return [];
  }

  /** A secret read from a source: remembered, so that every error redacts it. */
  protected remember(secret: string): string {
    this.#secretsSeen = [secret, ...this.#secretsSeen.filter((s) => s !== secret)].slice(0, 8);
    return secret;
  }

  /**
   * A cached token, or one fetched now. `signal` is the caller's deadline: when it aborts, this
   * caller stops waiting with `KebDeadlineError`, and a fetch it started is aborted (a fetch is
   * shared by the callers of one run, whose deadline is one).
   */
  async getToken(signal?: AbortSignal): Promise<string> {
    const cached = this.#cached;
    if (cached && this.#now() < cached.refreshAt) return cached.value;
    if (signal?.aborted) throw this.#late(signal.reason);
    this.#inflight ??= this.#fetch(signal).finally(() => {
      this.#inflight = undefined;
    });
    const fresh = await untilAborted(this.#inflight, signal, () => this.#late(signal?.reason));
    this.#cached = fresh;
    return fresh.value;
  }

  invalidate(token: string): boolean {
    if (this.#cached?.value === token) this.#cached = undefined;
    return true;
  }

  toJSON(): string {
    return `${this.constructor.name}(${this.#tokenUrl.origin})`;
  }

  /**
   * A token for the current credentials; when the endpoint refuses them (401, or 400: RFC 6749
   * answers a wrong password `400 invalid_grant`), once more with the secrets read afresh where
   * they are kept, if any changed (rotated since they were read). Values of one's own re-read as
   * themselves: no second request.
   */
  async #fetch(signal?: AbortSignal): Promise<CachedToken> {
    const first = await this.#credentials(false);
    try {
      return await this.#fetchWith(first, signal);
    } catch (err) {
      if (!(err instanceof KebAuthError) || (err.status !== 401 && err.status !== 400)) throw err;
      const fresh = await this.#credentials(true);
      if (sameCredentials(fresh, first)) throw err;
      return this.#fetchWith(fresh, signal);
    }
  }

  async #credentials(fresh: boolean): Promise<Credentials> {
    const source = this.#options.clientSecret;
    const clientSecret = typeof source === "function" ? this.remember(await source({ fresh })) : source;
    return { clientSecret, fields: await this.grantFields(fresh) };
  }

  async #fetchWith(credentials: Credentials, signal?: AbortSignal): Promise<CachedToken> {
    const o = { ...this.#options, clientSecret: credentials.clientSecret };
    const form = new URLSearchParams(credentials.fields);
    if (o.scope) form.set("scope", o.scope);
    const headers: Record<string, string> = {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    };
    if (o.clientSecret !== undefined && (o.clientAuth ?? "basic") === "basic") {
      const pair = `${encodeURIComponent(o.clientId)}:${encodeURIComponent(o.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
    } else {
      form.set("client_id", o.clientId);
      if (o.clientSecret !== undefined) form.set("client_secret", o.clientSecret);
    }
    const timeoutMs = o.timeoutMs ?? 15_000;
    const deadline = AbortSignal.timeout(timeoutMs);
    const requestedAt = this.#now();
    let body: unknown;
    try {
      const response = await o.transport.send(
        this.#tokenUrl.href,
        { method: "POST", headers, body: form.toString() },
        {
          signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
          deadlineAt: Date.now() + timeoutMs,
        },
      );
      const status = response.statusCode;
      if (status >= 400) throw this.#refusal(status, await o.transport.errorBody(response));
      // A token answer is a few KB; one past the transport's cap is not a token endpoint.
      const text = await o.transport.readText(response, (limit) => {
        return new KebAuthError(
          `token endpoint ${this.#tokenUrl.origin} answered with more than ${limit} bytes`,
        );
      });
      try {
        body = JSON.parse(text);
      } catch {
        // An HTML login page or a proxy's error page: say what came back, not "unreachable".
        const what = /^\s*</.test(text) ? "an HTML page" : "a body that is not JSON";
        throw new KebAuthError(
          `token endpoint ${this.#tokenUrl.origin} answered ${status} with ${what}: ${redact(text, this.#secrets()).replace(/\s+/g, " ").slice(0, 120)}`,
          { status },
        );
      }
    } catch (err) {
      throw signal?.aborted ? this.#late(err) : this.#describe(err, deadline);
    }
    const parsed = TokenResponse.safeParse(body);
    if (!parsed.success) {
      throw new KebAuthError(`token endpoint ${this.#tokenUrl.origin} returned no usable token`);
    }
    if (parsed.data.token_type.toLowerCase() !== "bearer") {
      throw new KebAuthError(`token endpoint returned token_type ${parsed.data.token_type}, expected Bearer`);
    }
    const field = o.tokenField ?? "access_token";
    const value = field === "id_token" ? parsed.data.id_token : parsed.data.access_token;
    if (!value)
      throw new KebAuthError(`token endpoint returned no ${field} (is the openid scope requested?)`);
    const lifetime = lifetimeMs(parsed.data.expires_in, value, requestedAt);
    return {
      value,
      refreshAt: requestedAt + Math.max(0, lifetime - Math.min(REFRESH_MARGIN_MS, lifetime / 2)),
    };
  }

  /** What must never appear in an error: the client secret and the grant's own secrets. */
  #secrets(): Array<string | undefined> {
    const fixed = typeof this.#options.clientSecret === "string" ? [this.#options.clientSecret] : [];
    return [...fixed, ...this.#secretsSeen, ...this.grantSecrets()];
  }

  /**
   * What a final answer of 400 or more says: a refusal (configuration), or, for a 5xx or 429, an
   * endpoint that is failing now and may not be later (try again).
   */
  #refusal(status: number, body: unknown): KebAuthError | KebHttpError {
    // RFC 6749 error bodies say what is wrong (`invalid_client`) and never echo the secret.
    const b = body as { error?: unknown; error_description?: unknown } | string | undefined;
    // Not every issuer is careful: some echo the request (the Basic header, the password) into
    // `error_description`. Whatever it says is redacted and cut.
    const raw =
      typeof b === "object" && b !== null
        ? [b.error, b.error_description].filter((x) => typeof x === "string").join(": ")
        : String(b ?? "");
    // On one line, as every reason is told: a gateway's HTML error page is several.
    const detail = redact(raw, this.#secrets()).replace(/\s+/g, " ").trim().slice(0, 300);
    if (status >= 500 || status === 429)
      return new KebHttpError({
        status,
        bodyExcerpt: detail,
        url: this.#tokenUrl.origin,
        request: this.#request(),
      });
    return new KebAuthError(
      `token endpoint ${this.#tokenUrl.origin} answered ${status}${detail ? `: ${detail}` : ""}`,
      { status },
    );
  }

  /** The caller's deadline passed while a token was being fetched. */
  #late(cause: unknown): KebDeadlineError {
    return new KebDeadlineError(`the token endpoint ${this.#tokenUrl.origin} answered`, { cause });
  }

  #describe(err: unknown, deadline: AbortSignal): KebError {
    if (err instanceof KebError) return err;
    if (deadline.aborted) return new KebTimeoutError("deadline", this.#tokenUrl.origin, { cause: err });
    const phase = timeoutPhase(err);
    if (phase) return new KebTimeoutError(phase, this.#tokenUrl.origin, { cause: err });
    const message = redact(err instanceof Error ? err.message : String(err), this.#secrets());
    // No answer at all (refused, reset, a name that does not resolve): as KEB unreachable is.
    return new KebHttpError({
      status: 0,
      bodyExcerpt: "",
      url: this.#tokenUrl.origin,
      request: this.#request(),
      detail: `no answer (${message})`,
      cause: err,
    });
  }

  /** The token request as errors name it: the endpoint's origin, never its query or a secret. */
  #request(): string {
    return `token endpoint ${this.#tokenUrl.origin}`;
  }
}

function sameCredentials(a: Credentials, b: Credentials): boolean {
  return a.clientSecret === b.clientSecret && JSON.stringify(a.fields) === JSON.stringify(b.fields);
}

/** `promise`, or `late()` thrown as soon as `signal` aborts, whichever comes first. */
function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  late: () => Error,
): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(late());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function lifetimeMs(expiresIn: number | string | undefined, token: string, now: number): number {
  const seconds = Number(expiresIn);
  if (expiresIn !== undefined && Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  try {
    const { exp } = decodeJwt(token);
    if (typeof exp === "number") return Math.max(0, exp * 1000 - now);
  } catch {
    // An opaque token: fall through to the default lifetime.
  }
  return DEFAULT_LIFETIME_MS;
}

/** OAuth2 client-credentials grant: a technical client whose tokens carry the KEB group. */
export class ClientCredentialsTokenProvider extends OAuth2TokenProvider {
  constructor(options: OAuth2Options & { clientSecret: string | ClientSecretSource }) {
    super(options);
  }
  protected async grantFields(): Promise<Record<string, string>> {
    return { grant_type: "client_credentials" };
  }
}

/**
 * OAuth2 resource-owner password grant: an IAS technical user in the `runtimeViewer` group. The
 * password is a value, or a function that reads one that may be rotated where it is kept, as
 * `clientSecret`: called for each token fetch, and with `fresh: true` once after the token
 * endpoint refuses it.
 */
export class PasswordTokenProvider extends OAuth2TokenProvider {
  readonly #username: string;
  readonly #password: string | ClientSecretSource;
  constructor(options: OAuth2Options & { username: string; password: string | ClientSecretSource }) {
    super(options);
    this.#username = options.username;
    this.#password = options.password;
  }
  protected async grantFields(fresh: boolean): Promise<Record<string, string>> {
    const source = this.#password;
    const password = typeof source === "function" ? this.remember(await source({ fresh })) : source;
    return { grant_type: "password", username: this.#username, password };
  }
  protected override grantSecrets(): string[] {
    return typeof this.#password === "string" ? [this.#password] : [];
  }
}
