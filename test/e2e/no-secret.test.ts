import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.ts";
import { useKebSimulator } from "../helpers/keb.ts";

// Every configured secret is recognisable; servers echo requests into their errors in every way
// they do in the wild; nothing printed, stored or sent may hold one.

const TOKEN = "tok-Zq81-recognisable-token";
const CLIENT_SECRET = "cs-Wm42-recognisable-secret";
const PASSWORD = "pw-Kx77-recognisable-password";

const open = useKebSimulator({ fleet: { size: 200, seed: 5, flagged: 20 } });
const guarded = useKebSimulator({
  fleet: { size: 200, seed: 5, flagged: 20 },
  auth: {
    clients: [{ id: "auditor", secret: "the-right-secret", groups: ["runtimeViewer"] }],
    users: [{ username: "tech-user", password: "the-right-password", groups: ["runtimeViewer"] }],
    echoRequests: true,
  },
});

/** Everything a run left behind: its output and every file under its state directory. */
function everything(dir: string, out: { stdout: string; stderr: string }): string {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(readFileSync(path).toString("latin1"));
    }
  };
  walk(dir);
  return [out.stdout, out.stderr, ...files].join("\n");
}

function expectNoSecret(text: string): void {
  for (const secret of [TOKEN, CLIENT_SECRET, PASSWORD, "hunter2pass"]) {
    for (const form of [secret, encodeURIComponent(secret), Buffer.from(secret).toString("base64")]) {
      expect(text, `leaked ${secret}`).not.toContain(form);
    }
  }
  expect(text).not.toContain(Buffer.from(`auditor:${CLIENT_SECRET}`).toString("base64"));
}

describe("no secret in any output", () => {
  it("a KEB error body echoing the request headers leaves no token in stdout, stderr, the ledger or the store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-secret-"));
    open.sim.faults.add({
      times: Number.POSITIVE_INFINITY,
      page: 1,
      action: {
        kind: "status",
        status: 502,
        body: `upstream error; request was GET /runtimes Authorization: Bearer ${TOKEN} x-token=${TOKEN}`,
      },
    });
    const run = [
      "run",
      "--audit",
      "failing",
      "--keb-url",
      open.sim.url.replace("http://", "http://admin:hunter2pass@"),
      "--state-dir",
      dir,
    ];
    const out = await cli([...run, "--output", "json"], { env: { KEB_TOKEN: TOKEN } });
    open.sim.faults.clear();
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stdout).incompleteReason).toMatch(
      /HTTP 502: upstream error; request was GET \/runtimes Authorization: Bearer \[redacted\]/,
    );
    const listed = await cli(["runs", "list", "--output", "json", "--state-dir", dir]);
    expectNoSecret(
      everything(dir, { stdout: out.stdout + listed.stdout, stderr: out.stderr + listed.stderr }),
    );
  });

  it("a token endpoint echoing the request leaves no client secret in any output", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-secret-"));
    const env = {
      KEB_TOKEN_URL: guarded.sim.tokenUrl as string,
      KEB_CLIENT_ID: "auditor",
      KEB_CLIENT_SECRET: CLIENT_SECRET,
    };
    for (const clientAuth of ["basic", "post"]) {
      const out = await cli(
        ["run", "--audit", "failing", "--keb-url", guarded.sim.url, "--state-dir", dir, "--output", "json"],
        {
          env: { ...env, KEB_CLIENT_AUTH: clientAuth },
        },
      );
      expect(out.code).toBe(1);
      expect(JSON.parse(out.stdout).incompleteReason).toMatch(
        /invalid_client: client authentication failed \(request: /,
      );
      expectNoSecret(everything(dir, out));
    }
  });

  it("a token endpoint echoing a password grant leaves no password in any output", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-secret-"));
    const out = await cli(
      ["run", "--audit", "failing", "--keb-url", guarded.sim.url, "--state-dir", dir, "--output", "json"],
      {
        env: {
          KEB_TOKEN_URL: guarded.sim.tokenUrl as string,
          KEB_CLIENT_ID: "auditor",
          KEB_CLIENT_SECRET: "the-right-secret",
          KEB_USERNAME: "tech-user",
          KEB_PASSWORD: PASSWORD,
          KEB_CLIENT_AUTH: "post",
        },
      },
    );
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout).incompleteReason).toMatch(/invalid_grant: wrong user or password/);
    expectNoSecret(everything(dir, out));
  });
});
