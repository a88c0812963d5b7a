import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { type AddressInfo, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, getCACertificates, setDefaultCACertificates } from "node:tls";

/** A self-signed certificate for one host name, made for this test run. */
export interface TestCertificate {
  key: string;
  cert: string;
  /** The certificate's PEM file, for `NODE_EXTRA_CA_CERTS` of a child process. */
  certFile: string;
}

/**
 * A certificate for `name` (e.g. `keb.test`), valid for two days, from the `openssl` command:
 * Node makes keys but not certificates, and a key kept in the repository would look like a leak.
 */
export function testCertificate(name: string): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), "fa-tls-"));
  const keyFile = join(dir, "key.pem");
  const certFile = join(dir, "cert.pem");
  try {
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
        ...["-days", "2", "-subj", `/CN=${name}`, "-addext", `subjectAltName=DNS:${name}`],
        ...["-keyout", keyFile, "-out", certFile],
      ],
      { stdio: "ignore" },
    );
  } catch (err) {
    throw new Error(`the openssl command is needed to make a test certificate for ${name}`, { cause: err });
  }
  return { key: readFileSync(keyFile, "utf8"), cert: readFileSync(certFile, "utf8"), certFile };
}

/** Trusts `cert` in this process, beside the usual roots (a test worker's own process). */
export function trustInThisProcess(cert: string): void {
  setDefaultCACertificates([...getCACertificates("default"), cert]);
}

/** TLS on loopback in front of a plain HTTP server: https for a server that speaks only http. */
export interface TlsRelay {
  port: number;
  close(): Promise<void>;
}

/** Ends TLS with `certificate` and relays the plain bytes to `127.0.0.1:port()`. */
export async function startTlsRelay(certificate: TestCertificate, port: () => number): Promise<TlsRelay> {
  const sockets = new Set<{ destroy(): void }>();
  const server = createServer({ key: certificate.key, cert: certificate.cert }, (secure) => {
    const plain = connect(port(), "127.0.0.1");
    for (const s of [secure, plain]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => undefined);
    }
    secure.pipe(plain).pipe(secure);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
