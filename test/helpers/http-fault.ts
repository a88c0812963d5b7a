import type { ServerResponse } from "node:http";

/** One answer a stand-in gives instead of accepting: a status, a body, a `Retry-After`, or a body broken off. */
export interface HttpFault {
  status: number;
  body?: string;
  retryAfter?: string;
  /** Send the headers and half the body, then drop the connection. */
  breakOff?: boolean;
}

/** Answers as the fault says: its status, body and `Retry-After`, or half the body and a dropped connection. */
export function answerFault(res: ServerResponse, fault: HttpFault, contentType = "text/plain"): void {
  const body = fault.body ?? "";
  res.writeHead(fault.status, {
    "content-type": contentType,
    ...(fault.retryAfter ? { "retry-after": fault.retryAfter } : {}),
    ...(fault.breakOff ? { "content-length": String(Buffer.byteLength(body) * 2 + 2) } : {}),
  });
  if (!fault.breakOff) {
    res.end(body);
    return;
  }
  res.write(body);
  setTimeout(() => res.socket?.destroy(), 5);
}
