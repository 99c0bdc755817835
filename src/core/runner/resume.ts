/**
 * A run resumed in its own folder, for the CLI and the library alike: its settings come from its run.json
 * (checked against the settings' schema, since a run folder is input too), over which only what shows or
 * paces the rest may be given now; its journal's rows are checked before anything in the folder changes.
 * A folder written before run.json stored settings holds only its command line: `crashlab run` rebuilds
 * the settings from it, over the PLAN's defaults, as that version did; the library, which reads no command
 * line, refuses it.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { indexJournal, JOURNAL_FILE, JournalError, JournalReader } from "../journal/journal";
import { RunMetaError, type RunMeta } from "../journal/run-meta";
import { ResultsTrial } from "../record/results";
import type { Plan } from "../run/plan";
import { planLayer } from "../settings/plan-defaults";
import { checkedLayer, type Layer } from "../settings/resolve";
import { settingEntries, settingOf } from "../settings/schema";
import { SettingsError } from "../settings/errors";

/** The settings that may be given beside a resume, by flag: how the rest is shown and paced, never what the trials do. */
export function onResumeFlags(): string[] {
  return settingEntries().flatMap(([key, s]) => (s.on_resume ? [`--${key.replace(/_/g, "-")}`] : []));
}

/**
 * The sources a resumed run resolves from: what may change on resume (from `given`), then the settings
 * run.json stored — or, for a folder that stored only its command line, `legacy(argv)` over the PLAN's
 * defaults. A setting `given` that may not change on resume is refused unless it equals the stored one.
 */
export function resumeLayers(dir: string, meta: RunMeta, given: Layer, plan: Plan, legacy?: (argv: readonly string[]) => Layer): Layer[] {
  checkJournal(dir, meta);
  const file = join(dir, "run.json");
  const changes = new Map(given.values);
  if (meta.settings === undefined) {
    // Only the command line reads a stored command line: the library would resume such a run with other settings.
    if (!legacy && meta.argv.length > 0)
      throw new SettingsError(
        `${file} stores only the command line an earlier crashlab ran it with, not its settings: finish that run with \`crashlab run --resume ${dir}\`, or start a new one`,
      );
    const old = legacy && meta.argv.length > 0 ? legacy(meta.argv) : null;
    if (!old) return [given, planLayer(plan.defaults)];
    refuseChanges(changes, old, file);
    return [{ kind: given.kind, values: changes }, old, planLayer(plan.defaults)];
  }
  const stored = checkedLayer("stored", meta.settings as Record<string, unknown>, `${file} settings`, "The run folder was edited or written by another crashlab version — start the run again.");
  refuseChanges(changes, stored, file);
  return [{ kind: given.kind, values: changes }, stored];
}

/** Drop given settings equal to the stored ones; refuse those that would change what the trials do. */
function refuseChanges(changes: Map<string, { value: unknown; label: string }>, stored: Layer, file: string): void {
  const refused: string[] = [];
  for (const [key, given] of changes) {
    if (settingOf(key)?.on_resume) continue;
    if (JSON.stringify(stored.values.get(key)?.value) === JSON.stringify(given.value)) changes.delete(key);
    else refused.push(given.label);
  }
  if (refused.length > 0)
    throw new SettingsError(
      `--resume reruns a run with the settings it started with (${file}); ${refused.join(", ")} cannot be changed on resume (beside --resume only --force, ${onResumeFlags().join(", ")} are taken) — start a new run to change them`,
    );
}

/** Where a resumed run works: the folder it started in, so its relative paths mean what they meant; one that is gone leaves `cwd`. */
export function resumeCwd(meta: RunMeta, cwd: string): string {
  return typeof meta.cwd === "string" && existsSync(meta.cwd) ? meta.cwd : cwd;
}

/**
 * The journal's rows, checked before the resumed run writes anything (its run.json comes first): a row
 * that does not parse or lies outside this shard's slice would otherwise be found only after the run
 * folder was changed.
 */
function checkJournal(dir: string, meta: RunMeta): void {
  const file = join(dir, JOURNAL_FILE);
  if (!existsSync(file)) return;
  if (!statSync(file).isFile()) throw new RunMetaError(`${file} is not a file: the run folder is damaged — start the run again`);
  const entries = indexJournal(file).entries;
  const seen = new Set<string>();
  const slice = meta.shard ? new Set(meta.shard.trials) : null;
  const reader = new JournalReader(file);
  try {
    for (const [i, e] of entries.entries()) {
      const at = `${file}, line ${i + 1}`;
      // A trial journaled twice (two writers at once) is not refused: the resume keeps its first row and says so.
      if (seen.has(e.trial_id)) continue;
      seen.add(e.trial_id);
      if (slice && !slice.has(e.trial_id))
        throw new JournalError(`${at}: trial ${e.trial_id} is not in shard ${meta.shard!.index}/${meta.shard!.count}'s slice (run.json's shard.trials); the journal was edited or another shard's rows were copied in — run that shard again`);
      const row = ResultsTrial.safeParse(reader.read(e));
      if (!row.success) {
        const issue = row.error.issues[0]!;
        throw new JournalError(`${at}: the row of ${e.trial_id} does not match this crashlab version's results schema (field ${issue.path.join(".")}: ${issue.message}); the journal was edited or written by another crashlab version — start the run again`);
      }
    }
  } finally {
    reader.close();
  }
}
