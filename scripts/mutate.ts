/**
 * Mutation testing of the grading core (`pnpm mutate`). The grader is what users trust: a bug in a gate
 * or a check does not crash, it quietly turns a failing agent into a pass. So every file below is mutated
 * (StrykerJS, settings in stryker.config.json) against the fast unit tests that exercise it, one file at
 * a time, and must reach the threshold: killed ÷ (all − mutants annotated as equivalent), with no mutant
 * in code that no test reaches.
 *
 *   pnpm mutate                          # every grading-core file (incremental: reuses earlier results)
 *   pnpm mutate gates rates              # only the targets whose path contains one of these words
 *   pnpm mutate --changed-since main     # only targets whose file or tests differ from that commit (if only
 *                                        # this check changed: one small file, to show it still works)
 *   pnpm mutate --force                  # ignore the incremental results and test every mutant again
 *   pnpm mutate --survivors              # list every surviving mutant (else: only for failing files)
 *   pnpm mutate --concurrency 1          # test runners per file (default 2; the machine has 2 cores)
 *   pnpm mutate --start-within 30        # start no file after 30 minutes; list those left (CI's time limit)
 *
 * Results: reports/mutation/summary.md (the table), reports/mutation/html/<file>.html (every mutant), and
 * reports/mutation/incremental/<file>.json (what the next run reuses). Exit 1 when a file is below the
 * threshold or has unreached mutants, 2 on a usage error.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Stryker } from "@stryker-mutator/core";
import ts from "typescript";

/** A grading-core file, optionally only some of its functions, and the unit tests that must kill its mutants. */
interface Target {
  file: string;
  /** Top-level functions to mutate (the rest of the file is not grading); default the whole file. */
  functions?: string[];
  tests: string[];
}

export const THRESHOLD = 90;

const TIMELINE_TESTS = [
  "test/timeline-metrics.test.ts",
  "test/timeline-segments.test.ts",
  "test/timeline-intervals.test.ts",
  "test/timeline-turns.test.ts",
  "test/timeline-delegation.test.ts",
  "test/caller-actions.test.ts",
];

export const TARGETS: Target[] = [
  { file: "src/core/gate/gates.ts", tests: ["test/gates.test.ts"] },
  { file: "src/core/stats/rates.ts", tests: ["test/stats.test.ts"] },
  { file: "src/core/run/summary.ts", tests: ["test/summary.test.ts"] },
  { file: "src/core/timeline/metrics.ts", tests: TIMELINE_TESTS },
  { file: "src/core/timeline/segments.ts", tests: TIMELINE_TESTS },
  { file: "src/core/timeline/intervals.ts", tests: TIMELINE_TESTS },
  { file: "src/core/timeline/caller-actions.ts", tests: TIMELINE_TESTS },
  { file: "src/core/verify/deterministic.ts", tests: ["test/grading.test.ts", "test/procedure-grading.test.ts", "test/grounding.test.ts", "test/reported-world.test.ts", "test/tool-path.test.ts", "test/claims-results.test.ts"] },
  { file: "src/core/verify/tool-path.ts", tests: ["test/tool-path.test.ts", "test/grading.test.ts"] },
  { file: "src/core/verify/disclosure.ts", tests: ["test/claims-results.test.ts"] },
  { file: "src/core/verify/match.ts", tests: ["test/grading.test.ts"] },
  { file: "src/core/verify/procedure.ts", tests: ["test/procedure-steps.test.ts", "test/procedure-grading.test.ts"] },
  { file: "src/core/verify/turns.ts", tests: ["test/conversation-turns.test.ts"] },
  { file: "src/core/verify/state.ts", tests: ["test/grading.test.ts", "test/procedure-grading.test.ts"] },
  { file: "src/core/verify/timing.ts", tests: ["test/timing-verifiers.test.ts"] },
  { file: "src/core/language/cues.ts", tests: ["test/transcript-cues.test.ts"] },
  { file: "src/core/language/vocabulary.ts", tests: ["test/language-vocabulary.test.ts", "test/language-claims.test.ts", "test/language-vocabulary-rules.test.ts"] },
  { file: "src/core/judge/verifiers.ts", tests: ["test/judge-reply.test.ts", "test/judge-verdicts.test.ts", "test/judge-request.test.ts"] },
  { file: "src/core/judge/judge.ts", functions: ["interpretReply", "aggregateVotes"], tests: ["test/judge-reply.test.ts"] },
  { file: "src/core/world/world.ts", tests: ["test/world-engine.test.ts"] },
  { file: "src/core/world/state-check.ts", tests: ["test/world-engine.test.ts"] },
  { file: "src/core/world/errors.ts", tests: ["test/world-engine.test.ts"] },
  { file: "src/core/language/reader.ts", tests: ["test/language-reader.test.ts", "test/language-reader-cases.test.ts", "test/transcript-cues.test.ts"] },
  { file: "src/core/verify/grounding.ts", tests: ["test/grounding.test.ts", "test/grading.test.ts", "test/grounding-cases.test.ts", "test/claims-results.test.ts", "test/grounding-rules-a.test.ts", "test/grounding-rules-b.test.ts"] },
  { file: "src/core/language/values.ts", tests: ["test/grounding.test.ts", "test/language-values.test.ts"] },
  { file: "src/core/language/claims.ts", tests: ["test/grounding.test.ts", "test/language-claims.test.ts"] },
  { file: "src/core/language/kinds.ts", tests: ["test/schema-kinds.test.ts", "test/schema-kinds-rules.test.ts"] },
];

const REPORTS = "reports/mutation";
/** The file `--changed-since` checks when only the mutation check itself changed: small, and quick to test. */
const SMOKE_TARGET = "src/core/verify/timing.ts";

interface FileScore {
  file: string;
  mutants: number;
  killed: number;
  survived: number;
  no_coverage: number;
  timeout: number;
  equivalent: number;
  errors: number;
  score: number;
  seconds: number;
  survivors: string[];
}

function usage(message: string): never {
  console.error(`pnpm mutate: ${message}\nusage: pnpm mutate [words…] [--changed-since <commit>] [--force] [--survivors] [--concurrency N] [--start-within MINUTES]`);
  process.exit(2);
}

function parseArgs(argv: string[]) {
  const words: string[] = [];
  let changedSince: string | null = null;
  let force = false;
  let survivors = false;
  let concurrency = 2;
  let startWithinMinutes = Infinity;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--changed-since") changedSince = argv[++i] ?? usage("--changed-since needs a commit");
    else if (a === "--force") force = true;
    else if (a === "--survivors") survivors = true;
    else if (a === "--concurrency") {
      concurrency = Number(argv[++i]);
      if (!Number.isInteger(concurrency) || concurrency < 1) usage("--concurrency needs a whole number ≥ 1");
    } else if (a === "--start-within") {
      startWithinMinutes = Number(argv[++i]);
      if (!(startWithinMinutes > 0)) usage("--start-within needs a number of minutes > 0");
    } else if (a.startsWith("-")) usage(`unknown flag ${a}`);
    else words.push(a);
  }
  return { words, changedSince, force, survivors, concurrency, startWithinMinutes };
}

/** Files that differ between `commit` and the working tree (committed, staged or not). */
function changedFiles(commit: string): Set<string> {
  try {
    const out = execFileSync("git", ["diff", "--name-only", commit, "--"], { encoding: "utf8" });
    return new Set(out.split("\n").filter(Boolean));
  } catch {
    usage(`cannot compare with ${JSON.stringify(commit)}: is it a commit of this repository?`);
  }
}

/** The `file:start-end` ranges Stryker mutates: the named functions' lines, or the whole file. */
function mutateSpecs(target: Target): string[] {
  if (!target.functions) return [target.file];
  const text = readFileSync(target.file, "utf8");
  const source = ts.createSourceFile(target.file, text, ts.ScriptTarget.Latest, true);
  const found = new Map<string, string>();
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && target.functions.includes(statement.name.text)) {
      const line = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
      found.set(statement.name.text, `${target.file}:${line(statement.getStart(source))}-${line(statement.getEnd())}`);
    }
  }
  const missing = target.functions.filter((f) => !found.has(f));
  if (missing.length) throw new Error(`${target.file} has no top-level function ${missing.join(", ")}: update TARGETS in scripts/mutate.ts`);
  return target.functions.map((f) => found.get(f)!);
}

/**
 * Lines whose Stryker directive is not `disable next-line <Mutators>: <why>`: a blanket or unexplained
 * disable would hide mutants from the score instead of recording why they cannot be killed.
 */
function unexplainedDisables(file: string): number[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .flatMap((line, i) => (/Stryker (disable|restore)/.test(line) && !/Stryker disable next-line \w+(,\w+)*: \S.{10,}/.test(line) ? [i + 1] : []));
}

/**
 * Stryker reuses a surviving static mutant (code run when the module loads) forever, even after a test
 * that kills it is added (stryker-js#6119): static mutants carry no per-test coverage to compare. They are
 * few, so they are dropped from the incremental results and tested again on every run.
 */
function forgetStaticSurvivors(incrementalFile: string): void {
  if (!existsSync(incrementalFile)) return;
  const report = JSON.parse(readFileSync(incrementalFile, "utf8")) as { files: Record<string, { mutants: Array<{ status: string; static?: boolean }> }> };
  for (const file of Object.values(report.files)) file.mutants = file.mutants.filter((m) => !(m.static && (m.status === "Survived" || m.status === "NoCoverage")));
  writeFileSync(incrementalFile, JSON.stringify(report));
}

const slug = (file: string) => file.replace(/^src\/core\//, "").replace(/\.ts$/, "").replace(/\//g, "-");

async function mutateOne(target: Target, options: { force: boolean; concurrency: number }): Promise<FileScore> {
  const started = Date.now();
  const name = slug(target.file);
  const incrementalFile = join(REPORTS, "incremental", `${name}.json`);
  forgetStaticSurvivors(incrementalFile);
  const results = await new Stryker({
    mutate: mutateSpecs(target),
    testFiles: target.tests,
    incremental: true,
    incrementalFile,
    force: options.force,
    concurrency: options.concurrency,
    htmlReporter: { fileName: join(REPORTS, "html", `${name}.html`) },
  }).runMutationTest();
  const count = (...statuses: string[]) => results.filter((r) => statuses.includes(r.status)).length;
  const equivalent = count("Ignored");
  const killed = count("Killed", "Timeout");
  const considered = results.length - equivalent;
  const survivors = results
    .filter((r) => r.status === "Survived" || r.status === "NoCoverage")
    .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column)
    .map((r) => {
      const replacement = r.replacement.length > 80 ? `${r.replacement.slice(0, 77)}...` : r.replacement;
      return `  ${target.file}:${r.location.start.line}:${r.location.start.column} ${r.status === "NoCoverage" ? "NOT REACHED " : ""}${r.mutatorName}: ${replacement.replace(/\s+/g, " ")}`;
    });
  return {
    file: target.file + (target.functions ? ` (${target.functions.join(", ")})` : ""),
    mutants: results.length,
    killed,
    survived: count("Survived"),
    no_coverage: count("NoCoverage"),
    timeout: count("Timeout"),
    equivalent,
    errors: count("RuntimeError", "CompileError"),
    score: considered === 0 ? 100 : Math.floor((killed / considered) * 1000) / 10,
    seconds: Math.round((Date.now() - started) / 1000),
    survivors,
  };
}

function table(scores: FileScore[]): string {
  const rows = scores.map(
    (s) => `| \`${s.file}\` | ${s.mutants} | ${s.killed} | ${s.survived} | ${s.no_coverage} | ${s.equivalent} | **${s.score.toFixed(1)}%** |`,
  );
  return ["| file | mutants | killed | survived | not reached | equivalent | score |", "|---|---|---|---|---|---|---|", ...rows].join("\n");
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let targets = TARGETS;
  if (args.words.length) {
    targets = targets.filter((t) => args.words.some((w) => t.file.includes(w)));
    if (!targets.length) usage(`no grading-core file matches ${args.words.join(", ")}; files: ${TARGETS.map((t) => t.file).join(", ")}`);
  }
  if (args.changedSince !== null) {
    const changed = changedFiles(args.changedSince);
    // A target is touched when its file or one of its tests changed (a weaker test can let mutants live).
    targets = targets.filter((t) => changed.has(t.file) || t.tests.some((f) => changed.has(f)));
    // When the check itself changed (this script, the Stryker settings or its patch), one small file shows
    // it still kills and scores: every file from scratch takes hours on CI's machine (README), which is
    // `pnpm mutate`'s job on a developer's machine, with its incremental results.
    const machinery = [...changed].some((f) => f === "scripts/mutate.ts" || f === "stryker.config.json" || f.startsWith("patches/@stryker-mutator"));
    if (machinery && !targets.length) {
      targets = TARGETS.filter((t) => t.file === SMOKE_TARGET);
      console.log(`mutation: the mutation check itself changed since ${args.changedSince}; ${SMOKE_TARGET} shows it still works (pnpm mutate checks every file)`);
    }
    if (!targets.length) {
      console.log(`mutation: no grading-core file or its tests changed since ${args.changedSince}`);
      return;
    }
  }
  // An empty test list would make Stryker run the whole suite (slow audio and browser tests included).
  for (const t of targets) {
    const absent = t.tests.filter((f) => !existsSync(f));
    if (absent.length) usage(`${t.file}: test file(s) ${absent.join(", ")} do not exist; update TARGETS in scripts/mutate.ts`);
    const unexplained = unexplainedDisables(t.file);
    if (unexplained.length) usage(`${t.file}: a Stryker directive must disable named mutators on the next line and say why they are equivalent ("// Stryker disable next-line Mutator: why"); line(s) ${unexplained.join(", ")}`);
  }
  mkdirSync(REPORTS, { recursive: true });
  const scores: FileScore[] = [];
  const began = Date.now();
  const notStarted: string[] = [];
  for (const target of targets) {
    if (Date.now() - began > args.startWithinMinutes * 60_000) {
      notStarted.push(target.file);
      continue;
    }
    process.stdout.write(`mutation: ${target.file} … `);
    const score = await mutateOne(target, args);
    scores.push(score);
    console.log(`${score.score.toFixed(1)}% of ${score.mutants - score.equivalent} (${score.survived} survived, ${score.no_coverage} not reached; ${score.seconds} s)`);
  }
  const failing = scores.filter((s) => s.score < THRESHOLD || s.no_coverage > 0);
  const text = table(scores);
  writeFileSync(join(REPORTS, "summary.md"), `${text}\n`);
  console.log(`\n${text}\n`);
  for (const s of scores) {
    if (s.survivors.length && (args.survivors || failing.includes(s))) console.log(`${s.file}: ${s.survivors.length} mutant(s) left\n${s.survivors.join("\n")}\n`);
  }
  if (notStarted.length) {
    // Said, not failed: the files were not measured, so there is no score to fail on; CI's log shows them.
    console.log(`mutation: NOT CHECKED (${args.startWithinMinutes} minutes had passed): ${notStarted.join(", ")}; run: pnpm mutate ${notStarted.map((f) => f.replace(/^.*\//, "").replace(/\.ts$/, "")).join(" ")}\n`);
  }
  const total = scores.reduce((sum, s) => sum + s.seconds, 0);
  if (failing.length) {
    console.log(`mutation: ${failing.length} file(s) below ${THRESHOLD}% or with mutants no test reaches (${total} s); see ${REPORTS}/html/`);
    process.exitCode = 1;
  } else console.log(`mutation: every file at or above ${THRESHOLD}% (${total} s)`);
}

await main();
