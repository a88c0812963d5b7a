/**
 * Supplies bearer tokens for KEB. KEB's gateway (Istio) wants a JWT from the landscape's issuer
 * whose `groups` claim holds `runtimeViewer` (or operator/admin).
 */
export interface TokenProvider {
  /**
   * A token to send now. Concurrent callers share one fetch. `signal` is the caller's (the run's)
   * deadline: when it aborts, the fetch is aborted and `KebDeadlineError` thrown.
   */
  getToken(signal?: AbortSignal): Promise<string>;
  /**
   * KEB answered 401 to `token`: forget it if it is the cached one. Returns true when the next
   * `getToken` can yield a different token (so one retry is worth it).
   */
  invalidate(token: string): boolean;
}

/** A fixed bearer token, for local use and tests. It cannot be refreshed. */
export class StaticTokenProvider implements TokenProvider {
  readonly #token: string;
  constructor(token: string) {
    if (token.trim() === "") throw new TypeError("static token must not be empty");
    this.#token = token;
  }
  getToken(): Promise<string> {
    return Promise.resolve(this.#token);
  }
  invalidate(): boolean {
    return false;
  }
  /** Keeps the token out of `console.log` and JSON logs. */
  toJSON(): string {
    return "StaticTokenProvider(***)";
  }
}
