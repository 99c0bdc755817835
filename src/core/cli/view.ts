import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { readResults, writeRunReport } from "../report/run-folder";
import { openInBrowser } from "./open-browser";
import { UsageError } from "./options";

/** What `view` needs of the CLI's IO (main's CliIO satisfies it; importing main here would be a circle). */
export interface ViewIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env?: Record<string, string | undefined>;
}

export const VIEW_HELP = `crashlab view — open a run's report.html (the overview, or one trial's conversation viewer)

Usage: crashlab view <run-dir> [--trial <id>]

  <run-dir>        one run's folder, e.g. results/20261130-120000-ab12 (holds results.json)
  --trial <id>     open this trial's conversation viewer, e.g. harbor_001#2
  --print          print the file:// URL only, do not start a browser
  -h, --help       this help

The report opens with xdg-open (Linux) or open (macOS). Without one, or with --print, the file:// URL is
printed to paste into a browser. A run folder without report.html gets one built from its artifacts.`;

/** The file:// URL of a run's report, optionally at one trial. */
export function reportUrl(runDir: string, trial?: string): string {
  const url = pathToFileURL(join(runDir, "report.html"));
  if (trial) url.hash = new URLSearchParams({ trial }).toString();
  return url.href;
}

/** Open a report in the user's browser; when that cannot happen, say so and print the URL (exit 0 either way). */
export async function openReport(url: string, io: ViewIO, print = false): Promise<void> {
  if (print) {
    io.stdout(`${url}\n`);
    return;
  }
  const result = await openInBrowser(url, io.env ?? {});
  if (result.opened) io.stderr(`crashlab: opened ${url} with ${result.with}\n`);
  else io.stdout(`crashlab: could not open a browser (${result.reason}); open this URL yourself:\n${url}\n`);
}

export async function viewCommand(argv: string[], io: ViewIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { trial: { type: "string" }, print: { type: "boolean" }, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) {
    io.stdout(VIEW_HELP + "\n");
    return 0;
  }
  if (parsed.positionals.length !== 1) throw new UsageError("usage: crashlab view <run-dir> [--trial <id>]");
  const runDir = resolve(io.cwd, parsed.positionals[0]!);
  if (!existsSync(runDir) || !statSync(runDir).isDirectory()) throw new UsageError(`${runDir} is not a folder: pass one run's folder, e.g. results/<run-id>`);
  const results = readResults(runDir);
  const trial = parsed.values.trial;
  if (trial !== undefined && !results.trials.some((t) => t.trial_id === trial)) {
    const ids = results.trials.map((t) => t.trial_id);
    throw new UsageError(`run ${results.run.run_id} has no trial "${trial}"; its trials are ${ids.slice(0, 6).join(", ")}${ids.length > 6 ? ", …" : ""} (a trial id is <case>#<repetition>)`);
  }
  const report = join(runDir, "report.html");
  // A folder there would be "opened" as a listing, and could never be rebuilt in place.
  if (existsSync(report) && !statSync(report).isFile()) throw new UsageError(`${report} is not a file: move it away, and \`crashlab view\` builds the report again from the run's artifacts`);
  if (!existsSync(report)) {
    io.stderr(`crashlab: ${runDir} has no report.html; building it from the run's artifacts\n`);
    await writeRunReport(runDir);
  }
  await openReport(reportUrl(runDir, trial), io, parsed.values.print ?? false);
  return 0;
}
