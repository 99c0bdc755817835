import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

/**
 * Debian's chromium driven by playwright-core (playwright's own browser download cannot be reached here).
 * Without the background-networking flags chromium reaches for the network at start, which the closed
 * network refuses; each launch gets a fresh profile.
 */
export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "crashlab-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    // The fresh profile is the user data dir (playwright passes it as --user-data-dir).
    args: CHROMIUM_ARGS,
    viewport: { width: 1360, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What a page did that a self-contained report must not: console errors, uncaught exceptions, requests off file://. */
export interface PageWatch {
  errors: string[];
  requests: string[];
}

export function watch(page: Page): PageWatch {
  const w: PageWatch = { errors: [], requests: [] };
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") w.errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => w.errors.push(`pageerror: ${e.message}`));
  page.on("request", (r) => {
    if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) w.requests.push(r.url());
  });
  return w;
}
