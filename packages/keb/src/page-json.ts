// V8 keeps a string of more than 128 KiB in its large-object space, where making one costs some
// 50 times as much per byte as a smaller one: decoding a page of 100 runtimes (~145 KB) into one
// string took 0.65 ms, more than parsing it. A body in KEB's own layout is parsed in pieces of
// whole runtimes instead, each well under that size even as UTF-16.

const utf8 = new TextDecoder();
// For a piece, which is not the start of the body: a decoder drops a BOM that starts its input,
// and one after `{"data":[` is a character JSON.parse refuses, not a mark to drop.
const utf8Piece = new TextDecoder("utf-8", { ignoreBOM: true });
const HEAD = new TextEncoder().encode('{"data":[');
// In valid JSON these quotes cannot be inside a string, so both marks are structure.
const BETWEEN_RUNTIMES = '},{"instanceID":';
const TAIL_START = '],"count":';
// JSON's integers only (no leading zero): the tail is parsed alone, so an error in it would be
// reported at another position than JSON.parse of the whole body reports it.
const TAIL = /^\],"count":(?:0|[1-9]\d*),"totalCount":(?:0|[1-9]\d*)\}$/;
const PIECE_BYTES = 60_000;

/**
 * `JSON.parse` of a `/runtimes` body given as bytes: the same value, or the same `SyntaxError`.
 * A body laid out as KEB's Go encoder writes it (`{"data":[…],"count":N,"totalCount":N}`, no
 * whitespace) is parsed in pieces cut between runtimes; if a cut turns out not to be between two
 * items of `data` (a piece does not parse), or the layout is any other, the body is parsed whole.
 */
export function parsePageJson(bytes: Uint8Array, pieceBytes = PIECE_BYTES): unknown {
  const whole = (): unknown => JSON.parse(utf8.decode(bytes));
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (body.length <= pieceBytes || !HEAD.every((byte, i) => body[i] === byte)) return whole();
  const end = body.lastIndexOf(TAIL_START);
  const tail = end < HEAD.length ? "" : utf8Piece.decode(body.subarray(end));
  if (!TAIL.test(tail)) return whole();
  const data: unknown[] = [];
  try {
    // Each piece is whole items of `data`, so the pieces parsed as arrays, one after the other,
    // are `data` parsed whole; a cut anywhere else leaves a piece that is not JSON.
    for (let from = HEAD.length; from < end; ) {
      const cut = end - from > pieceBytes ? body.indexOf(BETWEEN_RUNTIMES, from + pieceBytes) : -1;
      // The tail holds no mark: a cut found is before it.
      const to = cut < 0 ? end : cut + 1;
      for (const item of JSON.parse(`[${utf8Piece.decode(body.subarray(from, to))}]`) as unknown[])
        data.push(item);
      from = to + 1;
    }
  } catch {
    return whole();
  }
  const { count, totalCount } = JSON.parse(`{${tail.slice(2)}`) as { count: number; totalCount: number };
  return { data, count, totalCount };
}
