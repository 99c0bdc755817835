/**
 * A run folder's reviews as the gates, calibration and the viewer read them: the run's own reviews.jsonl,
 * checked against its results.json, and — when asked — the reviews of earlier runs carried over to trials
 * with the same provenance digest (the same package, crashlab version, target, scenario, input, seed and
 * limits: the same trial run again, so what people said about it still applies).
 */
import { lstatSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ResultsFile } from "../record/results";
import { humanGateIds, isHumanGate, isKnownHumanGate, type HumanVerdicts } from "../gate/human";
import { machineFault, machineFaultLine, pathFault } from "../files/machine-fault";
import { checkArtifacts, readRunFile, RunFolderError, statRunFile } from "../run-folder/files";
import { shown, shownValue } from "../run-folder/text";
import { evaluateGates, type GateDecision } from "../gate/gates";
import { reviewQueue, type QueueItem, type QueueOptions } from "./queue";
import { humanVerdicts, latestReviews, readReviews, REVIEWS_FILE, ReviewError, reviewableVerifiers, type Review, type ReviewScope, type StoredReview } from "./reviews";

/** The most a results.json read whole may hold (a JSON text that large cannot be parsed as one string). */
const RESULTS_LIMIT = { bytes: 500 << 20, what: "a results.json read whole may hold (the viewer and the review commands read it at once); it was not written by crashlab — run again" };

/**
 * Read and check a run folder's results.json, through the run folder's checks (a link out of the folder, a
 * FIFO, a folder in its place are refused): the schema, a human gate the run could have — an unknown
 * `human.*` gate could never be reviewed, so it could never pass — and every artifact it names.
 */
export function readRunResults(runDir: string): ResultsFile {
  const bytes = readRunFile(runDir, "results.json", RESULTS_LIMIT);
  const file = join(runDir, "results.json");
  if (!bytes) throw new RunFolderError(`${runDir} holds no results.json: pass the folder of one run (results/<run-id>), as printed at the end of \`crashlab run\``);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new RunFolderError(`${file} is not valid JSON (${shown((error as Error).message)}); the run folder is damaged — run again`);
  }
  const doc = ResultsFile.safeParse(parsed);
  if (!doc.success) {
    const issue = doc.error.issues[0]!;
    throw new RunFolderError(`${file}, field ${shown(issue.path.join(".")) || "(root)"}: ${shown(issue.message, 300)}; it was written by another crashlab version or edited — run again with this version`);
  }
  checkHumanGates(file, doc.data.gates.config);
  checkArtifacts(runDir, doc.data.trials);
  return doc.data;
}

/**
 * A results.json's gate configuration holds only human gates the run can have: an unknown `human.*` gate
 * could never be reviewed, so the run could never pass. Every reader that decides or joins runs from
 * results.json (gates, review, the viewer, calibrate, merge, compare) refuses it, naming the file.
 */
export function checkHumanGates(file: string, config: Readonly<Record<string, unknown>>): void {
  const semantic = Object.keys(config).filter((id) => id.startsWith("semantic."));
  const unknown = Object.keys(config).find((id) => isHumanGate(id) && !isKnownHumanGate(id, semantic));
  if (unknown !== undefined)
    throw new RunFolderError(
      `${file}, field gates.config: ${shownValue(unknown)} is not a human gate this run can have (${shown(humanGateIds(semantic).join(", "), 300)}): no review can be written for it, so it could never pass; results.json was edited — run again`,
    );
}

/** The trials and verifiers a run's reviews may name. */
export function reviewScope(results: ResultsFile): ReviewScope {
  return { trial_ids: new Set(results.trials.map((t) => t.trial_id)), verifiers: reviewableVerifiers(results.gates.config) };
}

/** One run as carrying needs it: its id, each trial's provenance digest, its reviews. */
export interface CarrySource {
  run_id: string;
  trials: ReadonlyArray<{ trial_id: string; digest: string }>;
  reviews: readonly Review[];
}

/**
 * The reviews of `earlier` runs that apply to `current`'s trials: a review of an earlier trial whose
 * provenance digest equals a current trial's is carried to that trial, marked with the run it came from
 * (never written back anywhere). Only each earlier run's latest review per trial, verifier and reviewer
 * is carried, and only for verifiers in `verifiers`. Give `earlier` oldest first: when two earlier runs
 * hold a review by the same reviewer of the same trial and verifier, the later run's is listed later and
 * so supersedes the other in `latestReviews`. Pure.
 */
export function carryReviews(current: CarrySource, earlier: readonly CarrySource[], verifiers: ReadonlySet<string>): StoredReview[] {
  const byDigest = new Map<string, string[]>();
  for (const t of current.trials) byDigest.set(t.digest, [...(byDigest.get(t.digest) ?? []), t.trial_id]);
  const carried: StoredReview[] = [];
  for (const run of earlier) {
    if (run.run_id === current.run_id) continue;
    const digestOf = new Map(run.trials.map((t) => [t.trial_id, t.digest]));
    for (const review of latestReviews(run.reviews)) {
      if (!verifiers.has(review.verifier)) continue;
      const digest = digestOf.get(review.trial_id);
      for (const trial_id of digest === undefined ? [] : (byDigest.get(digest) ?? []))
        carried.push({ ...review, line: (review as Partial<StoredReview>).line ?? 0, trial_id, carried_from: run.run_id, carried_trial_id: review.trial_id });
    }
  }
  return carried;
}

/**
 * The run folders beside `runDir` (in the same results folder) that hold reviews and started before it,
 * oldest first: where `--carry` looks for reviews to carry over.
 */
export function earlierRunDirs(runDir: string, startedAt: string): EarlierRuns {
  const parent = dirname(resolve(runDir));
  const self = resolve(runDir);
  const found: Array<{ dir: string; started_at: string }> = [];
  const skipped: SkippedRun[] = [];
  let names: string[];
  try {
    names = readdirSync(parent).sort();
  } catch (error) {
    // A results folder this user may only pass through: no run beside this one can be carried from.
    const fault = machineFault(error) ?? pathFault(error);
    if (!fault) throw error;
    return { dirs: [], skipped: [{ dir: parent, reason: machineFaultLine({ ...fault, path: parent }, undefined) }] };
  }
  for (const name of names) {
    const dir = join(parent, name);
    if (dir === self) continue;
    // A run folder beside this one is a real folder: a link there leads out of the results folder.
    try {
      if (!lstatSync(dir).isDirectory()) continue;
    } catch {
      continue;
    }
    try {
      if (!statRunFile(dir, REVIEWS_FILE) || !statRunFile(dir, "results.json")) continue;
      const results = readRunResults(dir);
      if (results.run.started_at >= startedAt) continue;
      // Its reviews are read now too: a damaged line there is said here, not where they are carried.
      readReviews(dir, reviewScope(results));
      found.push({ dir, started_at: results.run.started_at });
    } catch (error) {
      // One damaged run beside this one — or one this user may not read — keeps its own reviews out, not this run's review.
      if (error instanceof RunFolderError || error instanceof ReviewError) skipped.push({ dir, reason: error.message });
      else {
        const fault = machineFault(error) ?? pathFault(error);
        if (!fault) throw error;
        skipped.push({ dir, reason: machineFaultLine(fault, undefined) });
      }
    }
  }
  return { dirs: found.sort((a, b) => a.started_at.localeCompare(b.started_at) || a.dir.localeCompare(b.dir)).map((f) => f.dir), skipped };
}

/** A run beside this one whose reviews cannot be carried, and why. */
export interface SkippedRun {
  dir: string;
  reason: string;
}

/** The runs `--carry` takes reviews from, oldest first, and those beside them it had to leave out. */
export interface EarlierRuns {
  dirs: string[];
  skipped: SkippedRun[];
}

/** A run folder with its reviews, ready for the gates, calibration and the viewer. */
export interface RunReviews {
  run_dir: string;
  results: ResultsFile;
  scope: ReviewScope;
  /** Every line of this run's own reviews.jsonl, in file order. */
  own: StoredReview[];
  /** Reviews carried over from earlier runs (`carried_from` set), oldest run first. */
  carried: StoredReview[];
  /** What counts: the latest review per trial, verifier and reviewer; this run's own reviews supersede carried ones. */
  latest: StoredReview[];
  /** Each trial's human verdict per verifier (reviewers combined by majority; a tie is unsure). */
  verdicts: HumanVerdicts;
}

export interface LoadReviewsOptions {
  /** Earlier run folders whose reviews are carried over by provenance digest, oldest first. */
  carry_from?: readonly string[];
}

/** Load a run folder's results.json and reviews.jsonl (and, with `carry_from`, earlier runs' reviews). */
export function loadRunReviews(runDir: string, options: LoadReviewsOptions = {}): RunReviews {
  const results = readRunResults(runDir);
  const scope = reviewScope(results);
  const own = readReviews(runDir, scope);
  const source = (r: ResultsFile, reviews: readonly Review[]): CarrySource => ({ run_id: r.run.run_id, trials: r.trials.map((t) => ({ trial_id: t.trial_id, digest: t.provenance.digest })), reviews });
  const earlier = (options.carry_from ?? []).map((dir) => {
    const r = readRunResults(dir);
    return source(r, readReviews(dir, reviewScope(r)));
  });
  const carried = carryReviews(source(results, own), earlier, scope.verifiers);
  const latest = latestReviews([...carried, ...own]);
  return { run_dir: runDir, results, scope, own, carried, latest, verdicts: humanVerdicts(latest) };
}

/** A queued trial with how many reviews it already has (latest per verifier and reviewer, carried ones included). */
export interface RunQueueItem extends QueueItem {
  reviews: number;
}

/**
 * The review queue of a run folder — what the viewer's review mode (`crashlab view --review`) and
 * `crashlab review-queue` show: `reviewQueue` over its results.json, each trial with its review count.
 */
export function reviewQueueForRun(runDir: string, options: QueueOptions & LoadReviewsOptions = {}): { run: RunReviews; queue: RunQueueItem[] } {
  const run = loadRunReviews(runDir, options);
  const counts = new Map<string, number>();
  for (const r of run.latest) counts.set(r.trial_id, (counts.get(r.trial_id) ?? 0) + 1);
  return { run, queue: reviewQueue(run.results.trials, options).map((item) => ({ ...item, reviews: counts.get(item.trial_id) ?? 0 })) };
}

/** The run's gates decided again with its human verdicts (`crashlab gates`): the same pure `evaluateGates`. */
export function decideWithReviews(run: RunReviews): GateDecision {
  return evaluateGates(run.results.trials, run.results.gates.config, run.verdicts);
}
