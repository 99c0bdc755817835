/**
 * `crashlab merge <blob…>`: the run folders of `crashlab run --shard i/n`, joined into one run — one
 * results.json, one junit.xml, one report, one gate decision. Blobs of different plans, targets or
 * settings (their plan digests differ), a shard given twice or missing, a trial in two blobs or in
 * none, are refused: a merged run is exactly the unsharded run, or nothing is written.
 */
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { processLives } from "../files/atomic";
import { randomBytes } from "node:crypto";
import { join, relative, resolve } from "node:path";
import { JOURNAL_FILE, JournalReader, JournalWriter, type JournalEntry } from "../journal/journal";
import { checkJournal } from "../runner/journal-check";
import { trialSeed } from "../run/plan";
import { readRunMeta, RUN_META_VERSION, writeRunMeta, type RunMeta } from "../journal/run-meta";
import { summaryText } from "../report/console";
import { writeOutputsFromJournal } from "../report/from-journal";
import { createRunFolder } from "../report/results-folder";
import { scanResultsFile } from "../report/results-reader";
import type { ResultsHeader } from "../report/results";
import { writeRunReport } from "../report/run-folder";
import type { Redact } from "../services/redact";
import { checkRunName, parseFlags } from "./flags";
import { UsageError } from "./usage-error";
import type { ViewIO } from "./view";

export const MERGE_HELP = `crashlab merge — join the run folders of \`crashlab run --shard i/n\` into one run

Usage: crashlab merge <run-dir>… [--results-dir <dir>] [--run-name <name>] [--json] [--quiet]

Every shard 1..n of one plan must be given once. Blobs whose plan digests differ (another package,
target, seed, selection or setting), a missing or repeated shard, a trial in two blobs or a trial no
blob finished (resume that shard with \`crashlab run --resume <its run-dir>\`) are refused and nothing is
written. The merged run gets its own folder under --results-dir (default ./results) with every
shard's artifacts, results.json, junit.xml and report.html, and the gates decide it: exit codes as
\`crashlab run\`'s.`;

/** Why blobs cannot be merged (exit 2). */
export class MergeError extends Error {
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
  if (!existsSync(results)) throw new MergeError(`${dir} holds no results.json: shard ${meta.shard.index}/${meta.shard.count} did not finish — resume it with \`crashlab run --resume ${dir}\``);
  let header: Record<string, unknown>;
  try {
    if (!statSync(results).isFile()) throw new Error("it is not a file");
    const scan = scanResultsFile(results);
    let step = scan.next();
    while (!step.done) step = scan.next();
    header = step.value.header;
  } catch (error) {
    throw new MergeError(`${results} cannot be read (${(error as Error).message}); the shard's run folder is damaged — resume it with \`crashlab run --resume ${dir}\`, or run that shard again`);
  }
  const run = header.run as Record<string, unknown> | undefined;
  const gates = header.gates as Record<string, unknown> | undefined;
  if (!run || typeof run !== "object" || typeof run.started_at !== "string" || !gates || typeof gates.config !== "object" || gates.config === null)
    throw new MergeError(`${results} has no run section (with started_at) or no gates.config; it was edited or written by another crashlab version — run that shard again`);
  // Every row is checked against the shard it sits in: its trial, its seed, its package, its status
  // recomputed from its assessments (a row edited to say "passed" is refused, never merged).
  const h = header as unknown as ResultsHeader;
  const checked = checkJournal(join(dir, JOURNAL_FILE), {
    seeds: new Map((meta.shard.trials as string[]).map((id) => [id, trialSeed(h.run.seed, id)])),
    package_digests: new Set([meta.package_digest ?? h.run.package_digest]),
    gate_config: h.gates.config,
    allow_unplanned: false,
  });
  if (checked.duplicates.length > 0)
    throw new MergeError(`${join(dir, JOURNAL_FILE)} holds trial ${checked.duplicates[0]} twice (two writers at once): resume that shard with \`crashlab run --resume ${dir}\` (it keeps the first row), then merge`);
  return { dir, meta: meta as Blob["meta"], header: h, entries: checked.entries };
}

/** Every artifact file of a shard, relative to its run folder. */
function artifactFiles(dir: string): string[] {
  return ["events", "transcripts", "audio"].flatMap((sub) =>
    existsSync(join(dir, sub)) ? readdirSync(join(dir, sub), { recursive: true, withFileTypes: true }).filter((e) => !e.isDirectory()).map((e) => relative(dir, join(e.parentPath, e.name))) : [],
  );
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
  for (const b of blobs)
    for (const file of artifactFiles(b.dir)) {
      const other = artifactOwner.get(file);
      if (other !== undefined) throw new MergeError(`${file} is in two shards (${other} and ${b.dir}): a trial's artifacts belong to one shard — were the folders copied into each other? Merge the shards as \`crashlab run --shard i/n\` wrote them`);
      artifactOwner.set(file, b.dir);
    }
  const resultsDir = resolve(io.cwd, values["results-dir"] ?? "results");
  // The merged run is written in a hidden folder and renamed into place whole, so a merge killed midway
  // (SIGKILL: no handler runs) never leaves a run folder that looks finished, or half of one; the next merge
  // into the same results folder removes what a killed one left.
  const runDir = createRunFolder(resultsDir, `.${run_id}.merging-${process.pid}`);
  const finalDir = resolve(resultsDir, run_id);
  removeStaleMerges(resultsDir);
  let outputs: Awaited<ReturnType<typeof writeMerged>>;
  try {
    outputs = await writeMerged(runDir);
    renameSync(runDir, finalDir);
  } catch (error) {
    // Nothing half-written: a merge that fails leaves no folder behind.
    rmSync(runDir, { recursive: true, force: true });
    throw error;
  }
  const report = join(finalDir, "report.html");
  if (values.json) io.stdout(readFileSync(join(finalDir, "results.json"), "utf8"));
  else io.stdout(summaryText(outputs.summary, outputs.gates, outputs.decision, { run_id, target: first.header.run.target, results_dir: join(finalDir, "results.json"), interruption: null }) + "\n");
  if (!values.quiet && !values.json) io.stderr(`crashlab: merged ${blobs.length} shard(s), ${first.meta.plan_trials.length} trial(s) → ${finalDir}; report ${report}\n`);
  return outputs.decision.exit_code;

  async function writeMerged(runDir: string) {
    for (const b of blobs)
      for (const sub of ["events", "transcripts", "audio"]) if (existsSync(join(b.dir, sub))) cpSync(join(b.dir, sub), join(runDir, sub), { recursive: true, errorOnExist: true, force: false });
    const journal = new JournalWriter(join(runDir, JOURNAL_FILE));
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
  writeRunMeta(runDir, meta);
  const h = first.header;
  const outputs = writeOutputsFromJournal(
    runDir,
    journal.path,
    first.meta.plan_trials,
    { run_id, plan: h.run.plan, target: h.run.target, seed: h.run.seed, repetitions: h.run.repetitions, started_at, finished_at, gate_config: h.gates.config },
    null,
    { concurrency: h.run.concurrency, real_time: h.run.real_time, package_digest: h.run.package_digest, target_descriptor: h.run.target_descriptor as never, limits: h.run.limits },
    redact,
  );
  await writeRunReport(runDir, redact);
  return outputs;
  }
}

/** Hidden folders of merges killed midway (their process is gone), in the results folder. */
function removeStaleMerges(resultsDir: string): void {
  for (const name of readdirSync(resultsDir)) {
    const pid = /^\..+\.merging-(\d+)$/.exec(name)?.[1];
    if (pid !== undefined && !processLives(Number(pid))) rmSync(join(resultsDir, name), { recursive: true, force: true });
  }
}
