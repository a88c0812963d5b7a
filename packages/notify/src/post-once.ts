import type { Dispatcher } from "@fleet-auditor/http";
import type { Attempted } from "./deadline-retry.ts";

/** An answer that was not a 2xx: its HTTP status (0 when no answer came) and its body, cut. */
export interface NotAccepted {
  status: number;
  text: string;
}

/**
 * What a client makes of a 2xx answer's body. It must not throw for a body that breaks off: the
 * receiver has the message by then, and only a 2xx ends a retry loop without sending again.
 */
export type ReadAccepted<T> = (body: Dispatcher.ResponseData["body"]) => Promise<T>;

/**
 * One POST through undici, bounded by the deadline, as `retryBeforeDeadline` takes an attempt:
 * a 2xx is what `readAccepted` reads from it; a 429 or a 5xx is retryable (with its
 * `Retry-After`), any other status final; a dropped connection or a timeout is status 0,
 * retryable, `noAnswer` naming why.
 */
export async function postOnce<T>(
  req: { url: URL; headers: Record<string, string>; body: string; dispatcher: Dispatcher },
  deadline: number,
  clock: () => number,
  readAccepted: ReadAccepted<T>,
  noAnswer: (why: string) => string,
): Promise<Attempted<T, NotAccepted>> {
  const remaining = deadline - clock();
  const unanswered = (why: string): Attempted<T, NotAccepted> => ({
    ok: false,
    failure: { status: 0, text: noAnswer(why) },
    retryable: true,
  });
  if (remaining <= 0) return unanswered("no time left");
  try {
    // The dispatcher's own `request`: the process's agent, with its timeouts, body cap and proxy.
    const res = await req.dispatcher.request({
      origin: req.url.origin,
      path: `${req.url.pathname}${req.url.search}`,
      method: "POST",
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.timeout(remaining),
    });
    if (res.statusCode >= 200 && res.statusCode < 300)
      return { ok: true, value: await readAccepted(res.body) };
    const text = (await res.body.text().catch(() => "")).slice(0, 1_000);
    const header = res.headers["retry-after"];
    return {
      ok: false,
      failure: { status: res.statusCode, text },
      retryable: res.statusCode === 429 || res.statusCode >= 500,
      ...(header === undefined ? {} : { retryAfter: String(header) }),
    };
  } catch (err) {
    const e = err as Error & { code?: string };
    return unanswered(e.name === "TimeoutError" ? "timed out" : (e.code ?? e.name));
  }
}
