import type { ReadableStreamDefaultReader, ReadableStreamReadResult } from "node:stream/web";
import { setTimeout as sleep } from "node:timers/promises";
import { KebTimeoutError } from "./errors.ts";
import { RETRY_ERROR_CODES, RETRY_STATUSES, type RetryOptions, retryDelayMs } from "./retry-policy.ts";

/** Time limits of the KEB transport. */
export interface TransportOptions {
  /**
   * Time from sending a request to its response headers, connecting included, ms. Default
   * 15000 (KEB builds a page of 100 with ~200 DB queries). The runtime connects within 10 s.
   */
  headersTimeoutMs?: number;
  /** Longest pause between body chunks, ms. Default 15000. */
  bodyTimeoutMs?: number;
  /** Largest error body read for the error message, bytes. Default 4096. */
  errorBodyBytes?: number;
}

/** One request's method, headers and body. */
export interface TransportRequest {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/** Per-request limits: the caller's signal, the deadline retries must not sleep past, the policy. */
export interface SendOptions {
  signal: AbortSignal;
  /** Epoch ms; a retry that would wait past it is not made and the last answer stands. */
  deadlineAt: number;
  retry?: RetryOptions;
}

/**
 * HTTP for KEB and its token endpoint on the runtime's `fetch` (the undici package weighed
 * 740 KB and ~110 ms of the audit function's cold start): per-phase timeouts, retries of
 * transient failures with jitter and `Retry-After` within a deadline, redirects never
 * followed (a bearer token must not go where a redirect points), bodies read under a cap.
 * Create it once per cold start; the runtime keeps the connections alive.
 */
export class KebTransport {
  readonly #headersTimeoutMs: number;
  readonly #bodyTimeoutMs: number;
  readonly #errorBodyBytes: number;

  constructor(options: TransportOptions = {}) {
    this.#headersTimeoutMs = options.headersTimeoutMs ?? 15_000;
    this.#bodyTimeoutMs = options.bodyTimeoutMs ?? 15_000;
    this.#errorBodyBytes = options.errorBodyBytes ?? 4096;
  }

  /**
   * Sends a request, retrying connection failures, a headers timeout and the statuses in
   * `RETRY_STATUSES`; resolves with the final response whatever its status (its body unread).
   * Throws the last connection error, a `KebTimeoutError` (headers), or the signal's abort.
   */
  async send(url: string, request: TransportRequest, options: SendOptions): Promise<Response> {
    for (let retry = 1; ; retry++) {
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await this.#attempt(url, request, options.signal);
        if (!RETRY_STATUSES.includes(response.status)) return response;
      } catch (err) {
        if (options.signal.aborted || !isTransient(err)) throw err;
        failure = err;
      }
      const delay = retryDelayMs(retry, response?.headers.get("retry-after"), options.retry);
      // Give up at once rather than sleep past the deadline: the caller sees the real answer.
      if (delay === undefined || Date.now() + delay >= options.deadlineAt) {
        if (response) return response;
        throw failure;
      }
      await response?.body?.cancel().catch(() => undefined);
      await sleep(delay, undefined, { signal: options.signal });
    }
  }

  /**
   * The body as text. Throws a `KebTimeoutError` (body) when a chunk does not come within the
   * body timeout, and `tooLarge(bytes)` as soon as the body passes `cap` bytes, the rest unread.
   */
  async readText(response: Response, cap: number, tooLarge: (bytes: string) => Error): Promise<string> {
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > cap) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(String(declared));
    }
    const { text, cut } = await this.#read(response, cap);
    if (cut) throw tooLarge(`more than ${cap}`);
    return text;
  }

  /**
   * The start of an error response's body for the message: KEB's and OAuth2's JSON errors
   * parsed, anything else as text. Never fails: an unreadable body is "".
   */
  async errorBody(response: Response): Promise<unknown> {
    const { text, cut } = await this.#read(response, this.#errorBodyBytes).catch(() => ({
      text: "",
      cut: true,
    }));
    if (cut || !response.headers.get("content-type")?.includes("json")) return text;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  /** Up to `cap` bytes of the body; `cut` when there was more (the rest is not read). */
  async #read(response: Response, cap: number): Promise<{ text: string; cut: boolean }> {
    if (!response.body) return { text: "", cut: false };
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await this.#nextChunk(reader, response.url);
        if (done) break;
        chunks.push(value);
        size += value.byteLength;
        if (size > cap) {
          await reader.cancel().catch(() => undefined);
          return { text: Buffer.concat(chunks).subarray(0, cap).toString("utf8"), cut: true };
        }
      }
    } catch (err) {
      await reader.cancel().catch(() => undefined);
      throw err;
    }
    return { text: Buffer.concat(chunks).toString("utf8"), cut: false };
  }

  async #attempt(url: string, request: TransportRequest, signal: AbortSignal): Promise<Response> {
    const headers = new AbortController();
    const timer = setTimeout(
      () => headers.abort(new KebTimeoutError("headers", url)),
      this.#headersTimeoutMs,
    );
    try {
      return await fetch(url, {
        ...request,
        redirect: "manual",
        signal: AbortSignal.any([signal, headers.signal]),
      });
    } catch (err) {
      if (headers.signal.aborted && !signal.aborted) throw headers.signal.reason;
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  async #nextChunk(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    url: string,
  ): Promise<ReadableStreamReadResult<Uint8Array>> {
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new KebTimeoutError("body", url)), this.#bodyTimeoutMs);
    });
    try {
      return await Promise.race([reader.read(), stalled]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The connection error code of a failed fetch (`fetch failed` carries it as `cause.code`). */
export function connectionErrorCode(err: unknown): string | undefined {
  const own = (err as { code?: unknown } | null)?.code;
  if (typeof own === "string") return own;
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof cause === "string" ? cause : undefined;
}

function isTransient(err: unknown): boolean {
  if (err instanceof KebTimeoutError) return err.phase === "headers";
  const code = connectionErrorCode(err);
  return code !== undefined && RETRY_ERROR_CODES.includes(code);
}
