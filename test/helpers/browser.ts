import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import chromium from "@sparticuz/chromium";
import { type Browser, chromium as playwright } from "playwright-core";

// A real Chromium for the tests and benchmarks, from the npm registry alone: @sparticuz/chromium
// ships its binary brotli-packed inside the package (so `npm ci` brings it), playwright-core drives
// it. Built for Amazon Linux, it runs on Debian as it is (glibc, no library of its own needed
// there). This machine has no network: the flags below keep Chromium from reaching for Google
// (component updates, sync, safe browsing lists and the like) at every start.

/** Flags added to the package's own: no sandbox (we run as root), and no background traffic. */
const QUIET = [
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--metrics-recording-only",
];

/**
 * The package's flags less those made for a Lambda that screenshots any site: two that weaken
 * what a page may do (a test holds a page to its Content-Security-Policy), and `--single-process`,
 * with which closing one page ends the whole browser.
 */
const LEFT_OUT = new Set(["--disable-web-security", "--allow-running-insecure-content", "--single-process"]);

/**
 * Unpacks Chromium (once per package version: about 2 s) into a folder of its own and returns
 * the binary's path and the environment that gives it the package's fonts.
 *
 * The package unpacks into the temporary folder's root (`/tmp/chromium`, `/tmp/fonts`) and takes an
 * existing file there as done. Two processes unpacking at once would launch a half-written
 * binary, and a stale one of another version would be taken silently; so it is unpacked into a
 * fresh folder, renamed into place in one step, and named by the package's size and version.
 */
async function unpacked(): Promise<{ executable: string; env: Record<string, string> }> {
  const packed = join(new URL(import.meta.resolve("@sparticuz/chromium")).pathname, "../../bin/chromium.br");
  const dir = join(tmpdir(), `fleet-auditor-chromium-${statSync(packed).size}`);
  if (!existsSync(join(dir, "chromium"))) {
    mkdirSync(tmpdir(), { recursive: true });
    const staging = mkdtempSync(join(tmpdir(), "fleet-auditor-chromium-unpacking-"));
    // The package unpacks into `os.tmpdir()`, read when it starts: pointed at the staging folder
    // for that synchronous start only, then put back before anything else runs.
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = staging;
    let unpacking: Promise<string>;
    try {
      unpacking = chromium.executablePath();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    await unpacking;
    // Its fonts' config names `/tmp/fonts`: this one names where they are.
    writeFileSync(
      join(staging, "fonts.conf"),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><dir>${join(dir, "fonts")}</dir><cachedir>${join(dir, "fonts-cache")}</cachedir></fontconfig>\n`,
    );
    try {
      renameSync(staging, dir);
    } catch {
      // Another process put its own in place first: the same files, use those.
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return {
    executable: join(dir, "chromium"),
    // Only the package's fonts (Open Sans): pages and screenshots look the same on every machine.
    env: { FONTCONFIG_FILE: join(dir, "fonts.conf") },
  };
}

/** Launches headless Chromium, quiet on a machine without network. Close it when done. */
export async function launchChromium(): Promise<Browser> {
  const { executable, env } = await unpacked();
  return playwright.launch({
    executablePath: executable,
    args: [...chromium.args.filter((a) => !LEFT_OUT.has(a)), ...QUIET],
    env: { ...process.env, ...env } as Record<string, string>,
    headless: true,
  });
}
