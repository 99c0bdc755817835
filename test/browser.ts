import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import packaged from "@sparticuz/chromium";
import { chromium, type BrowserContext, type Page } from "playwright-core";

/**
 * The chromium the report's browser tests drive through playwright-core (playwright's own browser download
 * cannot be reached here): the system's (Debian's `/usr/bin/chromium`) when there is one, otherwise the
 * headless chromium shipped inside the `@sparticuz/chromium` devDependency, so a machine with only Node.js
 * and `pnpm install` runs them too. `CRASHLAB_PACKAGED_CHROMIUM=1` takes the packaged one even when the
 * system has its own (CI sets it, so that path is the one proven). Nothing is downloaded: the packaged
 * browser is unpacked from the installed package.
 */
export const SYSTEM_CHROMIUM = "/usr/bin/chromium";
export const PACKAGED_CHROMIUM_ENV = "CRASHLAB_PACKAGED_CHROMIUM";

/**
 * Without the background-networking flags chromium reaches for the network at start, which the closed
 * network refuses; each launch gets a fresh profile.
 */
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

/**
 * Flags @sparticuz/chromium recommends (for AWS Lambda) that we leave out. Web security stays on: the tests
 * check that a report works as a user's browser would open it. Features lists: chromium reads one
 * `--enable-features` and one `--disable-features` (the last), so theirs would replace playwright's.
 * `--headless='shell'`: the packaged binary is the headless shell already and playwright passes
 * `--headless`. `--single-process`: needed only inside Lambda's sandbox; one process for the browser and
 * every page makes a crashed page take the whole run down.
 */
const LEFT_OUT = new Set([
  "--disable-web-security",
  "--allow-running-insecure-content",
  "--disable-site-isolation-trials",
  "--enable-features",
  "--disable-features",
  "--headless",
  "--single-process",
]);

const switchName = (arg: string) => arg.split("=")[0]!;

/** Ours, then theirs where ours do not already set the switch and it is not left out. */
export function mergeArgs(ours: readonly string[], theirs: readonly string[]): string[] {
  const set = new Set(ours.map(switchName));
  return [...ours, ...theirs.filter((a) => !set.has(switchName(a)) && !LEFT_OUT.has(switchName(a)))];
}

export type ChromiumSource = "system" | "packaged";

/** The system's chromium unless the environment asks for the packaged one or the system has none. */
export function chooseChromium(env: Record<string, string | undefined>, systemUsable: boolean): ChromiumSource {
  if (env[PACKAGED_CHROMIUM_ENV] === "1") return "packaged";
  return systemUsable ? "system" : "packaged";
}

/** An executable file: a path hidden by a bind-mounted /dev/null (the check) is not one. */
export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export interface Chromium {
  source: ChromiumSource;
  executablePath: string;
  args: string[];
  /** Extra environment for the browser process (the packaged one's libraries and fonts). */
  env: Record<string, string>;
}

const packageRoot = () => join(dirname(createRequire(import.meta.url).resolve("@sparticuz/chromium")), "..", "..");

/**
 * Unpacks the packaged chromium once per package version into `<tmpdir>/crashlab-packaged-chromium-<version>`.
 * The package unpacks into `os.tmpdir()` and treats whatever is there as already unpacked, so it runs in a
 * child whose TMPDIR is a fresh staging folder that is renamed into place only when complete: a run killed
 * mid-way, two worktrees unpacking at once, or another version's leftovers never hand over half a browser.
 * The child is told it runs on Lambda (AL2023): only then does the package also unpack the NSS and expat
 * libraries chromium links against, which a machine without a system browser usually lacks.
 */
async function unpackPackaged(): Promise<string> {
  const version = (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
  const dir = join(tmpdir(), `crashlab-packaged-chromium-${version}`);
  if (existsSync(join(dir, "chromium"))) return dir;
  const staging = mkdtempSync(join(tmpdir(), "crashlab-packaged-chromium-unpack-"));
  try {
    const script = 'import("@sparticuz/chromium").then(async (m) => process.stdout.write(await m.default.executablePath()))';
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], {
      cwd: packageRoot(),
      env: { PATH: process.env.PATH ?? "", TMPDIR: staging, AWS_EXECUTION_ENV: "AWS_Lambda_nodejs20.x" },
    });
    if (stdout !== join(staging, "chromium") || !existsSync(join(staging, "al2023", "lib", "libnss3.so"))) {
      throw new Error(`@sparticuz/chromium ${version} did not unpack into ${staging} as expected (it answered ${JSON.stringify(stdout)}); test/browser.ts relies on where it unpacks`);
    }
    // Its fonts.conf names /tmp/fonts; ours names where the fonts are.
    writeFileSync(join(staging, "fonts.conf"), `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${dir}/fonts</dir>\n  <cachedir>${dir}/fonts-cache</cachedir>\n</fontconfig>\n`);
    try {
      renameSync(staging, dir);
    } catch (e) {
      // Another process put a complete one there first.
      if (!existsSync(join(dir, "chromium"))) throw e;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}

export async function findChromium(env: Record<string, string | undefined> = process.env): Promise<Chromium> {
  if (chooseChromium(env, isExecutableFile(SYSTEM_CHROMIUM)) === "system") {
    return { source: "system", executablePath: SYSTEM_CHROMIUM, args: CHROMIUM_ARGS, env: {} };
  }
  const dir = await unpackPackaged();
  return {
    source: "packaged",
    executablePath: join(dir, "chromium"),
    args: mergeArgs(CHROMIUM_ARGS, packaged.args),
    env: {
      LD_LIBRARY_PATH: [join(dir, "al2023", "lib"), env.LD_LIBRARY_PATH].filter(Boolean).join(":"),
      FONTCONFIG_FILE: join(dir, "fonts.conf"),
    },
  };
}

export interface Browser {
  source: ChromiumSource;
  /** The browser's own version, e.g. "143.0.7499.0" (packaged) or "156.0.8078.114" (Debian). */
  version: string;
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  let found: Chromium;
  try {
    found = await findChromium();
  } catch (e) {
    const why = process.env[PACKAGED_CHROMIUM_ENV] === "1" ? `${PACKAGED_CHROMIUM_ENV}=1 asks for the packaged chromium` : `${SYSTEM_CHROMIUM} is not an executable file`;
    throw new Error(`no chromium to run the report's browser tests: ${why}, and unpacking the one in @sparticuz/chromium failed (is \`pnpm install\` complete?): ${(e as Error).message}`, { cause: e });
  }
  const profile = mkdtempSync(join(tmpdir(), "crashlab-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: found.executablePath,
      headless: true,
      // The fresh profile is the user data dir (playwright passes it as --user-data-dir).
      args: found.args,
      env: { ...process.env, ...found.env },
      viewport: { width: 1360, height: 900 },
    });
    return {
      source: found.source,
      version: context.browser()?.version() ?? "",
      context,
      async close() {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    throw new Error(`could not launch the ${found.source} chromium (${found.executablePath}): ${(e as Error).message}`, { cause: e });
  }
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
