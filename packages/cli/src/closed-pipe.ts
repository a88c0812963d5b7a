/**
 * Lets a reader stop reading: `fleet-auditor runs show ID -o json | head -c 10` closes the pipe
 * before the CLI has written, and the write fails with EPIPE. Node would throw that as an
 * unhandled 'error' event and die with a stack trace; kubectl, kcp and the AWS CLI end quietly.
 * Here the output that nobody reads is dropped, and the command ends with its own exit code
 * (a partial run is still 2), saying nothing. Any other error on the stream is thrown as before.
 */
export function dropOutputOnClosedPipe(stream: NodeJS.WritableStream): void {
  let closed = false;
  stream.on("error", (err: NodeJS.ErrnoException) => {
    // Once the pipe is gone, later writes fail too (ERR_STREAM_DESTROYED): the same cause.
    if (closed || err.code === "EPIPE") {
      closed = true;
      return;
    }
    throw err;
  });
}
