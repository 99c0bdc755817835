/**
 * The review commands: `crashlab review` (append one review), `crashlab review-queue` (what to review
 * first), `crashlab gates` (decide a run again with its reviews; writes nothing) and `crashlab calibrate`
 * (the semantic judge against people, clause by clause).
 */
import { join, resolve } from "node:path";
import { appendReview, REVIEWS_FILE, type Review } from "../review/reviews";
import { decideWithReviews, earlierRunDirs, loadRunReviews, reviewQueueForRun } from "../review/run-reviews";
import { calibrate, type ClauseCalibration } from "../review/calibrate";
import { DEFAULT_REVIEW_SAMPLE } from "../review/queue";
import { decimalNumber, oneOf, parseFlags, wholeNumber } from "./flags";
import { UsageError } from "./usage-error";
import { shown } from "../run-folder/text";
import type { CliIO } from "./io";

export const REVIEW_HELP = `crashlab review — record one person's verdict on one trial (appends a line to reviews.jsonl)

Usage: crashlab review <run-dir> --trial <id> --verifier <id> --verdict <v> --reviewer <name> [options]

  --trial <id>            the trial, as results.json names it (e.g. book_table#2)
  --verifier <id>         a semantic clause the judge decides (semantic.task_understanding, …) or a
                          human dimension: human.naturalness, human.prosody, human.pronunciation,
                          human.pacing
  --verdict <v>           passed, failed or unsure
  --reviewer <name>       who reviewed (compared exactly; a later review by the same reviewer of the same
                          trial and verifier supersedes the earlier one)
  --note <text>           why (default: empty)
  --utterance <id>        anchor the review to one utterance, or
  --start-ms <ms> --end-ms <ms>
                          to a span of the conversation
  -h, --help              this help

The review is checked against the run's results.json before it is written (one append; nothing is
written when it is refused, exit 2). See docs/review.md.`;

export const REVIEW_QUEUE_HELP = `crashlab review-queue — which trials of a run to review first

Usage: crashlab review-queue <run-dir> [--review-sample N] [--seed S] [--json]

Every trial that did not pass (failed, then inconclusive, then infrastructure errors), then a sample of
passing trials spread over cases and acoustic conditions (one from each case and condition in turn, in
an order drawn from the seed). Each trial shows how many reviews it already has.

  --review-sample <n>     passing trials to sample, 0–1,000,000 (default ${DEFAULT_REVIEW_SAMPLE})
  --seed <n>              the sample's seed, >= 0 (default 1): the same seed gives the same queue
  --json                  print the queue as JSON
  -h, --help              this help`;

export const GATES_HELP = `crashlab gates — decide a run's gates again, with its reviews

Usage: crashlab gates <run-dir> [--carry] [--json]

Reads results.json and reviews.jsonl and applies the run's gate configuration, human gates
(human.<dimension>, human.semantic.<clause>) included, to its trials and their human verdicts. Writes
nothing: results.json keeps the decision the run ended with.

  --carry                 also count the reviews of earlier runs in the same results folder on trials with
                          the same provenance digest (this run's own reviews supersede them)
  --json                  print the decision as JSON
  -h, --help              this help

Exit codes: as \`crashlab run\`: 0 every required gate passed, 1 a required gate failed or a required
human gate has too few reviews, 3 infrastructure errors only, 4 a verifier error only, 129/130/143 the
run was interrupted (no pass decision), 2 usage or input error (a bad reviews.jsonl line, a missing or
damaged results.json).`;

export const CALIBRATE_HELP = `crashlab calibrate — the semantic judge's verdicts against people's, clause by clause

Usage: crashlab calibrate <run-dir>… [--min-kappa K] [--json]

Pairs each trial's judge verdict on semantic.<clause> (passed or failed) with people's verdict on the
same id in reviews.jsonl, pooling every run given: pairs, raw agreement, Cohen's kappa with a 95%
interval (large-sample standard error of Fleiss, Cohen & Everitt 1969), the 2×2 table and the
disagreements with a link to each trial's report. People unsure and a judge without a verdict
(inconclusive, error, not run) are counted apart. Kappa is undefined (null) without pairs or when both
gave one and the same verdict throughout.

  --min-kappa <k>         exit 1 when a clause's kappa is below k, -1–1; a clause whose kappa is undefined
                          fails too (its calibration cannot be shown), and so does finding no clause
  --json                  print the calibration as JSON
  -h, --help              this help

Exit codes: 0, 1 (--min-kappa not met), 2 usage or input error.`;

const DECISION_WORD: Record<string, string> = { pass: "PASS", fail: "FAIL", infrastructure: "NO DECISION (infrastructure errors)", evaluation_error: "NO DECISION (evaluation error)", interrupted: "INTERRUPTED" };

export async function reviewCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(
    argv,
    {
      trial: { type: "string" },
      verifier: { type: "string" },
      verdict: { type: "string" },
      reviewer: { type: "string" },
      note: { type: "string" },
      utterance: { type: "string" },
      "start-ms": { type: "string" },
      "end-ms": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    1,
  );
  if (values.help) {
    io.stdout(REVIEW_HELP + "\n");
    return 0;
  }
  const usage = "usage: crashlab review <run-dir> --trial ID --verifier ID --verdict passed|failed|unsure --reviewer NAME [--note TEXT]";
  if (positionals.length !== 1) throw new UsageError(usage);
  for (const flag of ["trial", "verifier", "verdict", "reviewer"] as const) if (values[flag] === undefined) throw new UsageError(`--${flag} is required; ${usage}`);
  const verdict = oneOf("--verdict", values.verdict!, ["passed", "failed", "unsure"] as const);
  const span = values["start-ms"] !== undefined || values["end-ms"] !== undefined;
  if (span && values.utterance !== undefined) throw new UsageError("give --utterance or --start-ms with --end-ms, not both: a review has one anchor");
  if (span && (values["start-ms"] === undefined || values["end-ms"] === undefined)) throw new UsageError("--start-ms and --end-ms go together: give both");
  const range = { min: 0, max: Number.MAX_SAFE_INTEGER };
  let anchor: Review["anchor"];
  if (values.utterance !== undefined) anchor = { utterance_id: values.utterance };
  else if (span) {
    const start_ms = wholeNumber("--start-ms", values["start-ms"]!, range);
    const end_ms = wholeNumber("--end-ms", values["end-ms"]!, range);
    if (end_ms < start_ms) throw new UsageError(`--end-ms ${end_ms} is before --start-ms ${start_ms}`);
    anchor = { start_ms, end_ms };
  }
  const dir = resolve(io.cwd, positionals[0]!);
  const run = loadRunReviews(dir);
  const review: Review = { trial_id: values.trial!, verifier: values.verifier!, verdict, reviewer: values.reviewer!, note: values.note ?? "", at: new Date().toISOString(), ...(anchor ? { anchor } : {}) };
  appendReview(dir, review, run.scope);
  io.stdout(`${join(positionals[0]!, REVIEWS_FILE)}: ${review.reviewer} says ${review.trial_id} ${review.verdict} on ${review.verifier}\n`);
  return 0;
}

export async function reviewQueueCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, { "review-sample": { type: "string" }, seed: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } }, 1);
  if (values.help) {
    io.stdout(REVIEW_QUEUE_HELP + "\n");
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("usage: crashlab review-queue <run-dir> [--review-sample N] [--seed S] [--json]");
  const sample = values["review-sample"] === undefined ? DEFAULT_REVIEW_SAMPLE : wholeNumber("--review-sample", values["review-sample"], { min: 0, max: 1_000_000 });
  const seed = values.seed === undefined ? 1 : wholeNumber("--seed", values.seed, { min: 0, max: Number.MAX_SAFE_INTEGER });
  const { run, queue } = reviewQueueForRun(resolve(io.cwd, positionals[0]!), { sample, seed });
  if (values.json) {
    io.stdout(JSON.stringify({ run_id: run.results.run.run_id, sample, seed, queue }, null, 2) + "\n");
    return 0;
  }
  const rows = [["trial", "why", "status", "case / condition", "reviews"], ...queue.map((q) => [q.trial_id, q.reason === "sample" ? "sample" : "did not pass", q.status, `${q.case_id} / ${q.condition ?? "none"}`, String(q.reviews)])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const sampled = queue.filter((q) => q.reason === "sample").length;
  const lines = [`review queue of ${run.results.run.run_id}: ${queue.length - sampled} trial(s) that did not pass, then ${sampled} sampled passing trial(s) (seed ${seed})`];
  for (const r of rows) lines.push(`  ${r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd()}`);
  io.stdout(lines.join("\n") + "\n");
  return 0;
}

export async function gatesCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, { carry: { type: "boolean" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } }, 1);
  if (values.help) {
    io.stdout(GATES_HELP + "\n");
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("usage: crashlab gates <run-dir> [--carry] [--json]");
  const dir = resolve(io.cwd, positionals[0]!);
  // Read once without carrying to learn when the run started, which decides what is earlier.
  const own = loadRunReviews(dir);
  const earlier = values.carry ? earlierRunDirs(dir, own.results.run.started_at) : null;
  for (const s of earlier?.skipped ?? []) io.stderr(`crashlab: not carrying reviews from ${s.dir}: ${shown(s.reason, 400)}\n`);
  const run = earlier ? loadRunReviews(dir, { carry_from: earlier.dirs }) : own;
  const results = run.results;
  const gates = decideWithReviews(run);
  // An interrupted run has no pass decision, whatever people say about the trials it finished.
  const interrupted = results.run.interrupted;
  const decision = interrupted
    ? { ok: false, decision: "interrupted", exit_code: results.gates.exit_code, message: `the run was interrupted${results.run.interrupted_by ? ` by ${results.run.interrupted_by}` : ""}: no pass decision (the gates on its finished trials say: ${gates.message})` }
    : { ok: gates.ok, decision: gates.decision, exit_code: gates.exit_code, message: gates.message };
  const carriedRuns = [...new Set(run.carried.map((r) => r.carried_from!))];
  if (values.json) {
    io.stdout(
      JSON.stringify(
        { run_id: results.run.run_id, reviews: { lines: run.own.length, carried: run.carried.length, carried_from: carriedRuns, counted: run.latest.length }, ...decision, gates: gates.gates },
        null,
        2,
      ) + "\n",
    );
    return decision.exit_code;
  }
  const lines = [
    `gates of ${results.run.run_id} with ${run.latest.length} review(s) (${run.own.length} line(s) in ${REVIEWS_FILE}${values.carry ? `, ${run.carried.length} carried from ${carriedRuns.length} earlier run(s)` : ""})`,
  ];
  const silent = gates.gates.filter((g) => !g.rule.required && g.verdicts === 0);
  for (const g of gates.gates.filter((x) => !silent.includes(x))) lines.push(`gate ${g.rule.required ? "required" : "advisory"} ${g.ok ? "PASS" : g.human && g.human.status !== "assessed" ? "NOT ASSESSED" : "FAIL"}  ${g.message}`);
  lines.push(`decision: ${DECISION_WORD[decision.decision] ?? decision.decision} (exit ${decision.exit_code}) — ${decision.message}`);
  io.stdout(lines.join("\n") + "\n");
  return decision.exit_code;
}

const fixed = (x: number | null, digits = 2) => (x === null ? "undefined" : x.toFixed(digits));

function clauseText(c: ClauseCalibration): string[] {
  const m = c.confusion;
  const lines = [
    `${c.verifier}: ${c.n} pair(s), agreement ${c.agreement === null ? "undefined" : `${(c.agreement * 100).toFixed(1)}%`}, kappa ${fixed(c.kappa)}${c.kappa_ci95 ? ` (95% CI ${fixed(c.kappa_ci95[0])} to ${fixed(c.kappa_ci95[1])})` : ""}; ${c.unsure} unsure, ${c.judge_inconclusive} without a judge verdict`,
    `  judge passed: people passed ${m.judge_passed_human_passed}, failed ${m.judge_passed_human_failed}`,
    `  judge failed: people passed ${m.judge_failed_human_passed}, failed ${m.judge_failed_human_failed}`,
  ];
  for (const d of c.disagreements.slice(0, 20)) lines.push(`  disagree: ${d.trial_id} (${d.run_id}) judge ${d.judge}, people ${d.human} — ${d.link}`);
  if (c.disagreements.length > 20) lines.push(`  … ${c.disagreements.length - 20} more disagreement(s) (--json lists all)`);
  return lines;
}

export async function calibrateCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, { "min-kappa": { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } }, 10_000);
  if (values.help) {
    io.stdout(CALIBRATE_HELP + "\n");
    return 0;
  }
  if (positionals.length === 0) throw new UsageError("usage: crashlab calibrate <run-dir>… [--min-kappa K] [--json]");
  const minKappa = values["min-kappa"] === undefined ? null : decimalNumber("--min-kappa", values["min-kappa"], { min: -1, max: 1 });
  const runs = positionals.map((p) => {
    const run = loadRunReviews(resolve(io.cwd, p));
    return { run_id: run.results.run.run_id, run_dir: p, trials: run.results.trials, verdicts: run.verdicts };
  });
  const seen = new Map<string, string>();
  for (const [i, r] of runs.entries()) {
    if (seen.has(r.run_id)) throw new UsageError(`${positionals[i]} and ${seen.get(r.run_id)} are the same run (${r.run_id}): give each run folder once, or its labels count twice`);
    seen.set(r.run_id, positionals[i]!);
  }
  const result = calibrate(runs);
  const short = minKappa === null ? [] : result.clauses.filter((c) => c.kappa === null || c.kappa < minKappa);
  const failing = minKappa !== null && (result.clauses.length === 0 || short.length > 0);
  const verdict =
    minKappa === null
      ? ""
      : result.clauses.length === 0
        ? `FAIL (exit 1): no clause has a human verdict, so no calibration can be shown`
        : short.length
          ? `FAIL (exit 1): ${short.map((c) => `${c.verifier} kappa ${fixed(c.kappa)}`).join(", ")} ${short.length === 1 ? "is" : "are"} below ${minKappa} or undefined`
          : `PASS (exit 0): every clause's kappa >= ${minKappa}`;
  if (values.json) {
    io.stdout(JSON.stringify({ ...result, ...(minKappa === null ? {} : { min_kappa: minKappa, ok: !failing }) }, null, 2) + "\n");
    return failing ? 1 : 0;
  }
  const lines = [`calibration of the semantic judge against people over ${runs.length} run(s): ${runs.map((r) => r.run_id).join(", ")}`];
  if (result.clauses.length === 0) lines.push(`no semantic clause has a human verdict in ${REVIEWS_FILE}: review trials on semantic.<clause> ids first (docs/review.md)`);
  for (const c of result.clauses) lines.push(...clauseText(c));
  if (verdict) lines.push(`min kappa ${minKappa}: ${verdict}`);
  io.stdout(lines.join("\n") + "\n");
  return failing ? 1 : 0;
}
