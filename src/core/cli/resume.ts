/**
 * `crashlab run --resume <run-dir>` and `--last-failed`, the command line's side. A resumed run is the
 * same run: the settings stored in its run.json (src/core/runner/resume.ts), its id and start; the trials
 * its journal holds are not run again. A folder written before run.json stored settings is resumed from
 * the command line it stored, parsed as it was then.
 */
import { join } from "node:path";
import { lastRun, type RunMeta } from "../journal/run-meta";
import type { Layer } from "../settings/resolve";
import { parseRunArgs, UsageError } from "./options";

/** The settings an older run folder's stored command line gives, as a source named after its run.json. */
export function storedCommandLine(dir: string, meta: RunMeta): (argv: readonly string[]) => Layer {
  return (argv) => {
    const file = join(dir, "run.json");
    try {
      const parsed = parseRunArgs(argv);
      return { kind: "stored", values: new Map([...parsed.flags.values].map(([k, v]) => [k, { value: v.value, label: `${v.label} (${file})` }])) };
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      throw new UsageError(`${file}: the command line it stored (${meta.argv.join(" ")}) does not parse: ${error.message}; the run folder was edited or written by another crashlab version — start the run again`);
    }
  };
}

/** `--last-failed`: the cases of the most recent run under the results folder with a trial that did not pass. */
export function lastFailedCases(resultsDir: string): { run_id: string; cases: string[] } {
  const last = lastRun(resultsDir);
  if (!last) throw new UsageError(`--last-failed found no earlier run in ${resultsDir} (no folder with a run.json); run once without it first, or point --results-dir at the runs`);
  const cases = [...new Set(last.entries.filter((e) => e.status !== "passed").map((e) => e.case_id))];
  return { run_id: last.meta.run_id, cases };
}
