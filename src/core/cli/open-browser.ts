/** Opening a URL in the user's browser with the platform's opener, for `crashlab view`. */

import { spawn } from "node:child_process";
import { join } from "node:path";
import { onPath } from "./on-path";

/** How each platform opens a file in the user's browser (the first found on PATH is used). */
const OPENERS: Readonly<Record<string, ReadonlyArray<{ name: string; args: (url: string) => string[] }>>> = {
  linux: [{ name: "xdg-open", args: (u) => [u] }],
  darwin: [{ name: "open", args: (u) => [u] }],
  win32: [{ name: "explorer.exe", args: (u) => [u] }],
};

export type OpenResult = { opened: true; with: string } | { opened: false; reason: string };

/**
 * Hand a URL to the platform's opener, detached (the browser outlives crashlab). Resolves once the
 * opener has started, or with the reason it could not: the caller then prints the URL instead.
 */
export async function openInBrowser(url: string, env: Record<string, string | undefined>, platform: string = process.platform): Promise<OpenResult> {
  const candidates = OPENERS[platform] ?? OPENERS.linux!;
  const found = candidates.map((c) => ({ ...c, file: onPath(c.name, env.PATH ?? "") })).find((c) => c.file !== null);
  if (!found) return { opened: false, reason: `no opener found (looked for ${candidates.map((c) => c.name).join(", ")} on PATH)` };
  return new Promise((resolve) => {
    const child = spawn(found.file!, found.args(url), { detached: true, stdio: "ignore", env: env as NodeJS.ProcessEnv });
    child.once("error", (error) => resolve({ opened: false, reason: `${found.name} failed to start: ${error.message}` }));
    child.once("spawn", () => {
      child.unref();
      resolve({ opened: true, with: found.name });
    });
  });
}
