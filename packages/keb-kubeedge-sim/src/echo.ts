import type { IncomingMessage } from "node:http";
import type { FaultAction } from "./faults.ts";

/** The `echo` fault. */
export type EchoFault = Extract<FaultAction, { kind: "echo" }>;

/** An echo's answer: status, content type, body and the headers that carry it too. */
export interface EchoAnswer {
  status: number;
  type: string;
  body: string;
  headers: Record<string, string>;
}

const FILLER = "upstream refused the request; ";

/**
 * What a careless gateway or debug page answers: the request (every header, the Authorization
 * header first, then its form body and its line) repeated at the start, in the middle and
 * at the end of the text, with `padding` characters of filler between, so that whatever a client
 * cuts (an excerpt, a header shown in part, a body read up to a cap) holds some of it. The text
 * goes into the body in the fault's style and, URL-encoded, into `Location` and another header.
 */
export function echoAnswer(fault: EchoFault, url: URL, req: IncomingMessage, form: string): EchoAnswer {
  // The credentials first: an echo cut after a few characters still holds them.
  const headers = Object.entries(req.headers).sort(
    ([a], [b]) => Number(b === "authorization") - Number(a === "authorization"),
  );
  const request = [
    ...headers.map(([k, v]) => `${k}: ${String(v)}`),
    ...(form ? [form] : []),
    `${req.method} ${url.pathname}${url.search}`,
  ].join("\n");
  const filler = FILLER.repeat(Math.ceil((fault.padding ?? 0) / FILLER.length)).slice(0, fault.padding ?? 0);
  const text = [request, filler, request, filler, request].join("\n");
  const encoded = encodeURIComponent(text);
  const carriers: Record<string, string> = {
    location: `/login?next=${encoded}`,
    "x-upstream-request": encoded,
  };
  switch (fault.style) {
    case "json":
      // KEB's `error` and OAuth2's `error_description`: the fields each client quotes.
      return {
        status: fault.status,
        type: "application/json",
        body: JSON.stringify({ error: text, error_description: text }),
        headers: carriers,
      };
    case "html":
      return {
        status: fault.status,
        type: "text/html",
        body: `<html><body><h1>${fault.status}</h1><pre>${text}</pre></body></html>`,
        headers: carriers,
      };
    case "location":
      return { status: fault.status, type: "text/plain", body: "", headers: carriers };
    default:
      return { status: fault.status, type: "text/plain", body: text, headers: carriers };
  }
}
