/**
 * `crashlab merge <blob…>`: the run folders of `crashlab run --shard i/n`, joined into one run — one
 * results.json, one junit.xml, one report, one gate decision. Blobs of different plans, targets or
 * settings (their plan digests differ), a shard given twice or missing, a trial in two blobs or in
 * none, are refused: a merged run is exactly the unsharded run, or nothing is written.
 */
import { constants, copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { processLives } from "../files/atomic";
import { machineFault } from "../files/machine-fault";
import { listRunFiles, openRunFile, RunFolderError, type ListedFile } from "../run-folder/files";
import { shown } from "../run-folder/text";
import { indexJournal, JOURNAL_FILE, JournalError, JournalReader, JournalWriter, type JournalEntry } from "../journal/journal";
import { checkJournal } from "../runner/journal-check";
import { checkHumanGates } from "../review/run-reviews";
import { trialSeed } from "../run/plan";
import { readRunMeta, RUN_META_VERSION, writeRunMeta, type RunMeta } from "../journal/run-meta";
import { summaryText } from "../report/console";
import { writeOutputsFromJournal } from "../report/from-journal";
import { createRunFolder } from "../report/results-folder";
import { scanResultsFile } from "../report/results-reader";
import type { ResultsHeader } from "../report/results";
import { ResultsFile, ResultsTrial } from "../record/results";
import { writeRunReport } from "../report/run-folder";
import type { Redact } from "../services/redact";
import { checkRunName, parseFlags } from "./flags";
import { UsageError } from "./usage-error";
import type { ViewIO } from "./view";
import { UserError } from "../user-error";

export const MERGE_HELP = `crashlab merge — join the run folders of \`crashlab run --shard i/n\` into one run

Usage: crashlab merge <run-dir>… [--results-dir <dir>] [--run-name <name>] [--json] [--quiet]

Every shard 1..n of one plan must be given once. Blobs whose plan digests differ (another package,
target, seed, selection or setting), a missing or repeated shard, a trial in two blobs or a trial no
blob finished (resume that shard with \`crashlab run --resume <its run-dir>\`) are refused and nothing is
written. The merged run gets its own folder under --results-dir (default ./results) with every
shard's artifacts, results.json, junit.xml and report.html, and the gates decide it: exit codes as
\`crashlab run\`'s.`;

/** Why blobs cannot be merged (exit 2). */
export class MergeError extends UserError {
  override readonly name = "MergeError";
}

interface Blob {
  dir: string;
  meta: RunMeta & { shard: NonNullable<RunMeta["shard"]>; plan_trials: string[] };
  header: ResultsHeader;
  entries: JournalEntry[];
}

function readBlob(dir: string): Blob {
  const meta = readRunMeta(dir);
  if (!meta.shard || !meta.plan_trials) throw new MergeError(`${dir} is not a shard's run folder (its run.json names no --shard): merge joins the folders of \`crashlab run --shard i/n\``);
  const strings = (x: unknown) => Array.isArray(x) && x.every((s) => typeof s === "string");
  const { index, count, trials } = meta.shard as { index: unknown; count: unknown; trials: unknown };
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(count) || !strings(trials) || !strings(meta.plan_trials))
    throw new MergeError(`${join(dir, "run.json")}: its shard needs a whole index and count and a list of trial ids, and plan_trials a list of trial ids; the run folder was edited or damaged — run that shard again`);
  const results = join(dir, "results.json");
  // Through the run folder's checks: a link out of the folder, a FIFO or a folder in its place is refused.
  const opened = openRunFile(dir, "results.json");
  if (!opened) throw new MergeError(`${dir} holds no results.json: shard ${meta.shard.index}/${meta.shard.count} did not finish — resume it with \`crashlab run --resume ${dir}\``);
  let header: Record<string, unknown>;
  let hasTrials: boolean;
  const scan = scanResultsFile(opened);
  try {
    let step = scan.next();
    while (!step.done) step = scan.next();
    header = step.value.header;
    hasTrials = step.value.has_trials;
  } catch (error) {
    if (machineFault(error)) throw error;
    throw new MergeError(`${results} cannot be read (${shown((error as Error).message)}); the shard's run folder is damaged — resume it with \`crashlab run --resume ${dir}\`, or run that shard again`);
  } finally {
    scan.return(undefined as never);
  }
  const run = header.run as Record<string, unknown> | undefined;
  const gates = header.gates as Record<string, unknown> | undefined;
  if (!run || typeof run !== "object" || typeof run.started_at !== "string" || !gates || typeof gates.config !== "object" || gates.config === null)
    throw new MergeError(`${results} has no run section (with started_at) or no gates.config; it was edited or written by another crashlab version — run that shard again`);
  // The merged results.json is built from the first shard's header: all of it must be what this version writes.
  const parsed = ResultsHeader.safeParse(header);
  const issue = parsed.success ? (hasTrials ? null : { path: ["trials"], message: "expected an array of trials" }) : parsed.error.issues[0]!;
  if (issue) throw new MergeError(`${results}, field ${shown(issue.path.map(String).join(".")) || "(root)"}: ${shown(issue.message, 300)}; it was edited or written by another crashlab version — run that shard again`);
  const h = header as unknown as ResultsHeader;
  // The merged run is decided with these gates: one it could never pass is refused here, not merged.
  checkHumanGates(results, h.gates.config);
  journalEntries(dir);
  // Every row is checked against the shard it sits in: its trial, its seed, its package, its status
  // recomputed from its assessments (a row edited to say "passed" is refused, never merged).
  const checked = checkJournal(join(dir, JOURNAL_FILE), {
    seeds: new Map(meta.shard!.trials.map((id) => [id, trialSeed(h.run.seed, id)])),
    package_digests: new Set([meta.package_digest ?? h.run.package_digest]),
    gate_config: h.gates.config,
    allow_unplanned: false,
    scope: `in shard ${meta.shard!.index}/${meta.shard!.count}'s slice (run.json's shard.trials)`,
  });
  return { dir, meta: meta as Blob["meta"], header: h, entries: checked.entries };
}

const ResultsHeader = ResultsFile.omit({ trials: true });

/**
 * A shard's journal, every row checked now: a row the merged results.json could not hold would otherwise
 * be found only after the merged folder was begun.
 */
function journalEntries(dir: string): JournalEntry[] {
  const file = join(dir, JOURNAL_FILE);
  let entries: JournalEntry[];
  try {
    entries = indexJournal(file).entries;
  } catch (error) {
    if (error instanceof JournalError || error instanceof RunFolderError || machineFault(error)) throw error;
    throw new MergeError(`${file} cannot be read (${shown((error as Error).message)}); the shard's run folder is damaged — run that shard again`);
  }
  const seen = new Set<string>();
  const reader = entries.length > 0 ? new JournalReader(file) : null;
  try {
    for (const [i, e] of entries.entries()) {
      if (seen.has(e.trial_id)) throw new JournalError(`${file}, line ${i + 1}: trial ${e.trial_id} is journaled twice; a trial is journaled once — the run folder was edited or two runs wrote into it`);
      seen.add(e.trial_id);
      const row = ResultsTrial.safeParse(reader!.read(e));
      if (!row.success) {
        const issue = row.error.issues[0]!;
        throw new JournalError(`${file}, line ${i + 1}: the row of ${shown(e.trial_id)} does not match this crashlab version's results schema (field ${shown(issue.path.join("."))}: ${shown(issue.message, 300)}); run that shard again`);
      }
    }
  } finally {
    reader?.close();
  }
  return entries;
}

/**
 * Every artifact file of a shard, relative to its run folder, with where it really is: through the run
 * folder's checks, so a link out of the shard, a FIFO or a device there is refused before anything is
 * copied, and what is copied is the file itself, never a link.
 */
function artifactFiles(dir: string): ListedFile[] {
  return ["events", "transcripts", "audio"].flatMap((sub) => listRunFiles(dir, sub));
}

export async function mergeCommand(argv: string[], io: ViewIO, redact: Redact): Promise<number> {
  const { values, positionals } = parseFlags(argv, { "results-dir": { type: "string" }, "run-name": { type: "string" }, json: { type: "boolean" }, quiet: { type: "boolean" }, help: { type: "boolean", short: "h" } }, Infinity);
  if (values.help) {
    io.stdout(MERGE_HELP + "\n");
    return 0;
  }
  checkRunName(values["run-name"]);
  if (positionals.length === 0) throw new UsageError("usage: crashlab merge <run-dir>… (the run folders of `crashlab run --shard i/n`, every shard once)");
  const blobs = positionals.map((p) => readBlob(resolve(io.cwd, p)));
  const first = blobs[0]!;
  for (const b of blobs.slice(1))
    if (b.meta.plan_digest !== first.meta.plan_digest)
      throw new MergeError(
        `${b.dir} and ${first.dir} are shards of different runs (plan digests ${b.meta.plan_digest.slice(0, 19)}… and ${first.meta.plan_digest.slice(0, 19)}…): their package, target, seed, selection or settings differ — merge shards of one command only`,
      );
  const count = first.meta.shard.count;
  const seen = new Map<number, string>();
  for (const b of blobs) {
    if (b.meta.shard.count !== count) throw new MergeError(`${b.dir} is shard ${b.meta.shard.index}/${b.meta.shard.count}, ${first.dir} is of ${count}: merge the shards of one split`);
    const twice = seen.get(b.meta.shard.index);
    if (twice) throw new MergeError(`shard ${b.meta.shard.index}/${count} is given twice (${twice} and ${b.dir}): give each shard once`);
    seen.set(b.meta.shard.index, b.dir);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) throw new MergeError(`shard(s) ${missing.map((i) => `${i}/${count}`).join(", ")} missing: give the run folders of all ${count} shards`);
  // One plan, split once: the same trial list in every run.json, each trial in exactly one slice.
  for (const b of blobs.slice(1))
    if (b.meta.plan_trials.length !== first.meta.plan_trials.length || b.meta.plan_trials.some((id, i) => id !== first.meta.plan_trials[i]))
      throw new MergeError(`${join(b.dir, "run.json")} and ${join(first.dir, "run.json")} list different plan_trials although their plan digests agree: a run.json was edited — run that shard again`);
  const slice = new Map<string, Blob>();
  for (const b of blobs)
    for (const id of b.meta.shard.trials) {
      const other = slice.get(id);
      if (other) throw new MergeError(`trial ${id} is in the slices of two shards (${join(other.dir, "run.json")} and ${join(b.dir, "run.json")}): a run.json was edited — run those shards again`);
      slice.set(id, b);
    }
  const unsliced = first.meta.plan_trials.filter((id) => !slice.has(id));
  if (unsliced.length > 0)
    throw new MergeError(`${join(first.dir, "run.json")} lists ${unsliced.slice(0, 3).join(", ")}${unsliced.length > 3 ? ", …" : ""} in plan_trials, but no shard's slice holds ${unsliced.length === 1 ? "it" : "them"}: a run.json was edited — run those shards again`);
  // Every trial of the plan finished in exactly one blob.
  const owner = new Map<string, { blob: Blob; entry: JournalEntry }>();
  for (const b of blobs)
    for (const e of b.entries) {
      const other = owner.get(e.trial_id);
      if (other) throw new MergeError(`trial ${e.trial_id} is in two blobs (${other.blob.dir} and ${b.dir}): shards of one split never share a trial — these blobs were edited or mixed`);
      if (!b.meta.shard.trials.includes(e.trial_id)) throw new MergeError(`trial ${e.trial_id} in ${b.dir} is not in shard ${b.meta.shard.index}/${count}'s slice: the blob was edited`);
      owner.set(e.trial_id, { blob: b, entry: e });
    }
  const unfinished = first.meta.plan_trials.filter((id) => !owner.has(id));
  if (unfinished.length > 0) {
    const where = new Map<string, string[]>();
    for (const id of unfinished) {
      const b = blobs.find((x) => x.meta.shard.trials.includes(id))!;
      where.set(b.dir, [...(where.get(b.dir) ?? []), id]);
    }
    throw new MergeError(
      `${unfinished.length} trial(s) of the plan finished in no blob (${[...where.entries()].map(([dir, ids]) => `${ids.slice(0, 3).join(", ")}${ids.length > 3 ? ", …" : ""} in ${dir}`).join("; ")}): resume those shards with \`crashlab run --resume <run-dir>\`, then merge`,
    );
  }

  // The merged run: its own folder, every blob's artifacts, one journal in plan order.
  const name = values["run-name"];
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..+/, "").replace("T", "-");
  const run_id = `${name ? `${name}-` : ""}merged-${stamp}-${randomBytes(2).toString("hex")}`;
  // Two shards holding the same artifact file would overwrite each other: refuse before writing anything.
  const artifactOwner = new Map<string, string>();
  const copies: ListedFile[] = [];
  for (const b of blobs)
    for (const listed of artifactFiles(b.dir)) {
      const file = listed.rel;
      copies.push(listed);
      const other = artifactOwner.get(file);
      if (other !== undefined) throw new MergeError(`${file} is in two shards (${other} and ${b.dir}): a trial's artifacts belong to one shard — were the folders copied into each other? Merge the shards as \`crashlab run --shard i/n\` wrote them`);
      artifactOwner.set(file, b.dir);
    }
  // The merged run is written in a hidden folder and renamed into place whole, so a merge that fails, or is
  // killed midway (SIGKILL: no handler runs), never leaves a run folder that looks finished, or half of one;
  // the next merge into the same results folder removes what a killed one left.
  const resultsDir = resolve(io.cwd, values["results-dir"] ?? "results");
  const scratch = createRunFolder(resultsDir, `.${run_id}.merging-${process.pid}`);
  removeStaleMerges(resultsDir);
  try {
    return await writeMerged(scratch, join(resultsDir, run_id));
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }

  async function writeMerged(scratch: string, runDir: string): Promise<number> {
    for (const { rel, real } of copies) {
      mkdirSync(dirname(join(scratch, rel)), { recursive: true, mode: 0o700 });
      copyFileSync(real, join(scratch, rel), constants.COPYFILE_EXCL);
    }
    const journal = new JournalWriter(join(scratch, JOURNAL_FILE));
    const readers = new Map(blobs.map((b) => [b.dir, new JournalReader(join(b.dir, JOURNAL_FILE))]));
    try {
      for (const id of first.meta.plan_trials) {
        const { blob, entry } = owner.get(id)!;
        journal.appendLine(JSON.stringify(readers.get(blob.dir)!.read(entry)));
      }
    } finally {
      journal.close();
      for (const r of readers.values()) r.close();
  }
  const started_at = blobs.map((b) => b.header.run.started_at).sort()[0]!;
  const finished_at = blobs.map((b) => b.header.run.finished_at).sort().at(-1)!;
  const meta: RunMeta = { run_meta_version: RUN_META_VERSION, run_id, started_at, plan_digest: first.meta.plan_digest, argv: [], resumes: [], plan_trials: first.meta.plan_trials };
  writeRunMeta(scratch, meta);
  const h = first.header;
  const outputs = writeOutputsFromJournal(
    scratch,
    journal.path,
    first.meta.plan_trials,
    { run_id, plan: h.run.plan, target: h.run.target, seed: h.run.seed, repetitions: h.run.repetitions, started_at, finished_at, gate_config: h.gates.config },
    null,
    { concurrency: h.run.concurrency, real_time: h.run.real_time, package_digest: h.run.package_digest, target_descriptor: h.run.target_descriptor as never, limits: h.run.limits },
    redact,
  );
  await writeRunReport(scratch, redact);
  renameSync(scratch, runDir);
  const report = join(runDir, "report.html");
  const results = join(runDir, "results.json");
  if (values.json) io.stdout(readFileSync(results, "utf8"));
  else io.stdout(summaryText(outputs.summary, outputs.gates, outputs.decision, { run_id, target: h.run.target, results_dir: results, interruption: null }) + "\n");
  if (!values.quiet && !values.json) io.stderr(`crashlab: merged ${blobs.length} shard(s), ${first.meta.plan_trials.length} trial(s) → ${runDir}; report ${report}\n`);
  return outputs.decision.exit_code;
  }
}

/** Hidden folders of merges killed midway (their process is gone), in the results folder. */
function removeStaleMerges(resultsDir: string): void {
  for (const name of readdirSync(resultsDir)) {
    const pid = /^\..+\.merging-(\d+)$/.exec(name)?.[1];
    if (pid !== undefined && !processLives(Number(pid))) rmSync(join(resultsDir, name), { recursive: true, force: true });
  }
}
