/**
 * `crashlab compare <base> <head>`: is the candidate worse than the baseline? Reads two run folders'
 * results.json a trial at a time (and run.json's list of package files), compares them
 * (src/core/compare/compare.ts) and prints a console table, JSON (--json) or an HTML page (--html FILE).
 * Gates: --fail-on-regression (a regression of a required verifier; with --strict also a `cannot tell`)
 * and baseline-relative limits on P90 response latency and duration; exit 1 when one fails, as `run`
 * does for its gates.
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { compareRuns, DEFAULT_SENSITIVITY, latencyText, type Comparison, type CompareRun, type CompareTrial, type RateChange } from "../compare/compare";
import type { RunProvenance } from "../compare/provenance";
import { readRunMeta, RUN_META_FILE } from "../journal/run-meta";
import { escapeHtml, STYLE } from "../report/html";
import { writeFileAtomic } from "../files/atomic";
import { machineFault } from "../files/machine-fault";
import { scanResultsFile } from "../report/results-reader";
import { checkHumanGates } from "../review/run-reviews";
import { checkArtifacts, openRunFile, RunFolderError } from "../run-folder/files";
import { shown } from "../run-folder/text";
import { ResultsFile, ResultsTrial } from "../record/results";
import { decimalNumber, parseFlags } from "./flags";
import { UsageError } from "./usage-error";
import type { ViewIO } from "./view";

export const COMPARE_HELP = `crashlab compare — is the candidate run worse than the baseline run?

Usage: crashlab compare <base-run-dir> <head-run-dir> [options]

Trials are aligned by case. Per case and overall: the pass rate of the trials and of each required
verifier, base → head, answered "regression" (significant drop, Fisher's exact test, two-sided, below
--alpha), "no regression detected" (not significant, and these repetitions would have seen a drop of
--detect-drop with probability --power) or "cannot tell" (they would not have: the repetitions needed
are named); a case that passed every base repetition and failed every head one is shown first,
whatever the p-value. Also the P50/P90 response latency (over every answered request, late answers
included; "not measured" unless both runs measured it) and duration; overall what the target consumed;
whether the two targets are identical (then the comparison measures noise) or which parts differ; and
any trial whose service reported another model than the one asked for. See docs/compare.md.

  --alpha <p>                          significance level, 0–1 (default 0.05)
  --detect-drop <d>                    the pass-rate drop that must be seen, 0–1 (default 0.5: a case
                                       falling by half of all trials, e.g. 100% → 50%)
  --power <p>                          how surely it must be seen, 0–1 (default 0.8)
  --fail-on-regression                 exit 1 when a required verifier regressed (a case or overall)
  --strict                             with --fail-on-regression: exit 1 on "cannot tell" too
  --max-p90-latency-increase <pct>     exit 1 when the head's P90 response latency exceeds the base's by more
                                       than pct percent (e.g. 10; negative: it must improve)
  --max-p90-duration-increase <pct>    the same for the P90 trial duration
  --json                               print the comparison as JSON
  --html <file>                        also write it as an HTML page
  -h, --help                           this help

Exit codes: 0 no gate failed (or none asked for), 1 a comparison gate failed, 2 usage or input error.`;

/** run.json's list of the files that ran, when the folder has one that says (older runs do not). */
function runProvenance(dir: string): RunProvenance {
  if (!existsSync(join(dir, RUN_META_FILE))) return { package_files: null };
  const files = readRunMeta(dir).package?.files;
  return { package_files: Array.isArray(files) ? files.filter((f) => f && typeof f.path === "string" && typeof f.sha256 === "string") : null };
}

const ResultsHeader = ResultsFile.omit({ trials: true });

function readRun(dir: string): CompareRun {
  const file = join(dir, "results.json");
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a folder: pass the folders of two finished runs (results/<run-id>)`);
  // Through the run folder's checks: a link out of the folder, a FIFO or a folder in results.json's place is refused.
  const opened = openRunFile(dir, "results.json");
  if (!opened) throw new UsageError(`${dir} holds no results.json: pass the folders of two finished runs (results/<run-id>)`);
  const trials: CompareTrial[] = [];
  const ids = new Set<string>();
  const scan = scanResultsFile(opened);
  let step: ReturnType<typeof scan.next>;
  try {
    step = scan.next();
    for (let i = 0; !step.done; step = scan.next(), i++) {
      const parsed = ResultsTrial.safeParse(JSON.parse(step.value));
      if (!parsed.success) throw new UsageError(`${file}, field trials.${i}.${shown(parsed.error.issues[0]!.path.join("."))}: ${shown(parsed.error.issues[0]!.message, 300)}; it was written by another crashlab version or edited`);
      const t = parsed.data;
      // A run folder holding a link out of it is refused by every reader, this one too.
      checkArtifacts(dir, [t]);
      // A trial counted twice would weigh twice in every rate.
      if (ids.has(t.trial_id)) throw new UsageError(`${file}, field trials.${i}.trial_id: trial ${shown(t.trial_id)} is listed twice; it was edited — run again`);
      ids.add(t.trial_id);
      const latencies = t.metrics.audio?.response_latencies_ms;
      trials.push({
        trial_id: t.trial_id,
        case_id: t.case_id,
        status: t.status,
        verdicts: Object.fromEntries(t.assessments.map((a) => [a.verifier, t.status !== "infrastructure_error" && (a.status === "passed" || a.status === "not_applicable")])),
        // Measured latencies (late answers included); an older results.json without them did not measure any.
        response_latencies_ms: Array.isArray(latencies) ? latencies.filter((x): x is number => typeof x === "number") : null,
        duration_ms: t.duration_ms,
        audio_ms: t.metrics.consumption.frontend.audio_duration_ms,
        backend_tokens: t.metrics.consumption.backend?.total ?? null,
        provenance: {
          package: t.provenance.parts.package,
          crashlab_version: t.provenance.parts.crashlab_version,
          target: t.provenance.parts.target,
          target_parts: t.provenance.target_parts ? { ...t.provenance.target_parts } : null,
          models: t.provenance.models ?? null,
        },
      });
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof RunFolderError || machineFault(error)) throw error;
    throw new UsageError(`${file} cannot be read (${shown((error as Error).message)}); the run folder is damaged`);
  } finally {
    scan.return(undefined as never);
  }
  const header = step.value.header as { run?: { run_id: string; target: string; seed: number }; gates?: { config?: unknown } };
  const config = header.gates?.config;
  if (!header.run || typeof header.run !== "object" || !config || typeof config !== "object" || Array.isArray(config))
    throw new UsageError(`${file} has no run section or no gates.config object; it was written by another crashlab version or edited`);
  const doc = ResultsHeader.safeParse(header);
  const issue = doc.success ? (step.value.has_trials ? null : { path: ["trials"], message: "expected an array of trials" }) : doc.error.issues[0]!;
  if (issue) throw new UsageError(`${file}, field ${shown(issue.path.map(String).join(".")) || "(root)"}: ${shown(issue.message, 300)}; it was written by another crashlab version or edited`);
  checkHumanGates(file, config as Record<string, unknown>);
  const required = Object.entries(config as Record<string, { required?: unknown }>).filter(([, r]) => r !== null && typeof r === "object" && r.required === true).map(([v]) => v);
  return { run_id: header.run.run_id, target: header.run.target, seed: header.run.seed, required, trials, provenance: runProvenance(dir) };
}

const pct = (x: number | null) => (x === null ? "—" : `${x > 0 ? "+" : ""}${(x * 100).toFixed(1)}%`);
const rateText = (r: RateChange) => `${r.base.passes}/${r.base.trials} → ${r.head.passes}/${r.head.trials}`;
const ms = (x: number | null) => (x === null ? "—" : `${Math.round(x)}`);

const NOT_ASKED = "no comparison gate was asked for (--fail-on-regression, --max-p90-latency-increase, --max-p90-duration-increase)";

const mark = (r: RateChange) => (r.answer === "regression" ? " ▼" : r.answer === "cannot tell" ? " ?" : r.improvement ? " ▲" : "");
const answerText = (r: RateChange) => (r.answer === "cannot tell" ? `cannot tell (${r.repetitions_needed ?? `>${r.needed_more_than}`} reps needed)` : r.answer);

/** What differs between the two targets, or that nothing did, in one line. */
function provenanceLine(c: Comparison): string {
  const p = c.provenance;
  if (p.identical) return "targets: identical (same package files and target digest in both runs): nothing in the target changed, so the comparison measures noise";
  const files = p.package_files;
  const fileNote = files && files.changed.length + files.added.length + files.removed.length > 0 ? ` (${[...files.changed.map((f) => `${f} changed`), ...files.added.map((f) => `${f} added`), ...files.removed.map((f) => `${f} removed`)].slice(0, 6).join(", ")})` : "";
  return `targets differ: ${p.differs.map((d) => (d === "package files" ? `package files${fileNote}` : d)).join(", ") || "the runs' records do not say what ran"}`;
}

/** Trials whose service reported another model than asked for, and models that differ between the runs. */
function modelLines(c: Comparison): string[] {
  const lines: string[] = [];
  for (const [side, o] of [["base", c.provenance.observed.base], ["head", c.provenance.observed.head]] as const)
    if (o.mismatched_trials > 0) lines.push(`⚠ ${side}: in ${o.mismatched_trials} trial(s) the service reported another model than asked for — ${o.mismatches.join("; ")}`);
  for (const m of c.provenance.model_changes) lines.push(`⚠ models differ between the runs: ${m}`);
  return lines;
}

function decisionLine(c: Comparison, gates: string[], asked: boolean, strict: boolean): string {
  if (gates.length) return `decision: FAIL (exit 1) — ${gates.join("; ")}`;
  if (!asked) return `decision: none (exit 0) — ${NOT_ASKED}`;
  // "No regression detected" only when every rate was answered so: a cannot-tell is said as one, never as a pass of it.
  const unsure = c.required_cannot_tell.length;
  if (unsure > 0 && !strict) return `decision: PASS (exit 0) — cannot tell: ${unsure} required rate(s) had too few repetitions to see the drop that matters (--strict fails on them); none regressed significantly`;
  const others = c.cannot_tell.length;
  if (c.regressions.length) return `decision: PASS (exit 0) — ${c.regressions.length} rate(s) regressed, none of a required verifier${others ? `; ${others} other rate(s) cannot tell at these repetitions` : ""}`;
  if (others) return `decision: PASS (exit 0) — no required verifier regressed; ${others} other rate(s) cannot tell at these repetitions`;
  return "decision: PASS (exit 0) — no regression detected";
}

function consoleText(c: Comparison, gates: string[], asked: boolean, strict: boolean): string {
  const s = c.sensitivity;
  const lines = [`compare ${c.base.run_id} (${c.base.target}, seed ${c.base.seed}) → ${c.head.run_id} (${c.head.target}, seed ${c.head.seed}); Fisher's exact test, alpha ${s.alpha}; a ${Math.round(s.drop * 100)}-point drop must be seen with power ${s.power}`];
  if (c.flipped.length) lines.push(`‼ passed every repetition, now fails every one (whatever the p-value):\n${c.flipped.map((f) => `  ${f}`).join("\n")}`);
  lines.push(provenanceLine(c), ...modelLines(c));
  const verifiers = Object.keys(c.overall.verifiers);
  const table: string[][] = [["case", "passed trials", "answer", "p", ...verifiers, "response latency ms", "P90 duration ms"]];
  for (const row of [{ case_id: "overall", ...c.overall }, ...c.cases])
    table.push([
      row.case_id,
      rateText(row.status) + mark(row.status),
      answerText(row.status),
      String(row.status.p_value),
      ...verifiers.map((v) => rateText(row.verifiers[v]!) + mark(row.verifiers[v]!)),
      latencyText(row.latency_ms),
      `${ms(row.duration_ms.base.p90)} → ${ms(row.duration_ms.head.p90)} (${pct(row.duration_ms.p90_change)})`,
    ]);
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  for (const r of table) lines.push(`  ${r.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()}`);
  if (c.only_in_base.length || c.only_in_head.length) lines.push(`  not compared: ${c.only_in_base.length} case(s) only in base, ${c.only_in_head.length} only in head`);
  lines.push(c.regressions.length ? `regressions (significant drops):\n${c.regressions.map((r) => `  ${r}`).join("\n")}` : "regressions: none");
  if (c.cannot_tell.length) lines.push(`cannot tell (too few repetitions to see the drop that matters):\n${c.cannot_tell.map((r) => `  ${r}`).join("\n")}`);
  if (c.improvements.length) lines.push(`improvements:\n${c.improvements.map((r) => `  ${r}`).join("\n")}`);
  lines.push(decisionLine(c, gates, asked, strict));
  return lines.join("\n");
}

function htmlPage(c: Comparison, gates: string[], asked: boolean, strict: boolean): string {
  const verifiers = Object.keys(c.overall.verifiers);
  const tone = (r: RateChange) => (r.answer === "regression" ? "t-failed" : r.answer === "cannot tell" ? "t-warn" : r.improvement ? "t-passed" : "");
  const cell = (r: RateChange) => `<td class="${tone(r)}">${escapeHtml(rateText(r))}<br><span class="muted">${escapeHtml(answerText(r))} · p = ${r.p_value}</span></td>`;
  const rows = [{ case_id: "overall", ...c.overall }, ...c.cases]
    .map((r) => `<tr><td><code>${escapeHtml(r.case_id)}</code></td>${cell(r.status)}${verifiers.map((v) => cell(r.verifiers[v]!)).join("")}<td class="n">${escapeHtml(latencyText(r.latency_ms))}</td><td class="n">${ms(r.duration_ms.base.p90)} → ${ms(r.duration_ms.head.p90)} (${pct(r.duration_ms.p90_change)})</td></tr>`)
    .join("");
  const list = (title: string, xs: string[], none: string) => `<h2>${title}</h2>${xs.length ? `<ul>${xs.map((x) => `<li>${escapeHtml(x)}</li>`).join("")}</ul>` : `<p class="muted">${none}</p>`}`;
  const word = gates.length ? "FAIL" : asked ? "PASS" : c.regressions.length ? "REGRESSED" : c.cannot_tell.length ? "CANNOT TELL" : "NO REGRESSION DETECTED";
  const toneWord = gates.length ? "t-failed" : asked ? "t-passed" : c.regressions.length || c.cannot_tell.length ? "t-warn" : "t-neutral";
  const s = c.sensitivity;
  const warnings = [...c.flipped.map((f) => `passed every repetition, now fails every one: ${f}`), ...modelLines(c)];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>crashlab compare</title><style>${STYLE}</style></head><body><div id="app">
<h1>${escapeHtml(c.base.run_id)} → ${escapeHtml(c.head.run_id)}</h1><p class="meta">base ${escapeHtml(c.base.target)} (seed ${c.base.seed}, ${c.base.trials} trials) · head ${escapeHtml(c.head.target)} (seed ${c.head.seed}, ${c.head.trials} trials) · Fisher's exact test, two-sided, alpha ${s.alpha} · a ${Math.round(s.drop * 100)}-point drop seen with power ${s.power}</p>
<div class="decision ${toneWord}"><div class="decision-word">${word}</div><div><div>${escapeHtml(decisionLine(c, gates, asked, strict).replace(/^decision: /, ""))}</div><p>${escapeHtml(provenanceLine(c))}</p>${warnings.length ? `<ul class="reasons">${warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join("")}</ul>` : ""}</div></div>
<div class="scroll"><table><thead><tr><th>case</th><th>passed trials</th>${verifiers.map((v) => `<th>${escapeHtml(v)}</th>`).join("")}<th class="n">response latency ms</th><th class="n">P90 duration ms</th></tr></thead><tbody>${rows}</tbody></table></div>
${list("Regressions", c.regressions, "none")}${list("Cannot tell", c.cannot_tell, "none: every rate was either a regression or had repetitions enough")}${list("Improvements", c.improvements, "none significant")}
<h2>Consumption (target)</h2><p>audio ${c.overall.consumption.audio_seconds.base ?? "—"} s → ${c.overall.consumption.audio_seconds.head ?? "—"} s · backend tokens per trial ${c.overall.consumption.backend_tokens_per_trial.base ?? "—"} → ${c.overall.consumption.backend_tokens_per_trial.head ?? "—"}</p>
</div></body></html>
`;
}

/** A run's case ids for a message: the first few, and how many in all. */
function caseList(run: CompareRun): string {
  const ids = [...new Set(run.trials.map((t) => t.case_id))];
  if (ids.length === 0) return "no trials";
  return `${ids.slice(0, 3).join(", ")}${ids.length > 3 ? `, … (${ids.length} cases)` : ""}`;
}

export async function compareCommand(argv: string[], io: ViewIO): Promise<number> {
  const { values, positionals } = parseFlags(
    argv,
    { alpha: { type: "string" }, "detect-drop": { type: "string" }, power: { type: "string" }, "fail-on-regression": { type: "boolean" }, strict: { type: "boolean" }, "max-p90-latency-increase": { type: "string" }, "max-p90-duration-increase": { type: "string" }, json: { type: "boolean" }, html: { type: "string" }, help: { type: "boolean", short: "h" } },
    2,
  );
  if (values.help) {
    io.stdout(COMPARE_HELP + "\n");
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError("usage: crashlab compare <base-run-dir> <head-run-dir> [--fail-on-regression [--strict]] [--json] [--html FILE]");
  const alpha = values.alpha === undefined ? DEFAULT_SENSITIVITY.alpha : decimalNumber("--alpha", values.alpha, { min: 0, max: 1 });
  const drop = values["detect-drop"] === undefined ? DEFAULT_SENSITIVITY.drop : decimalNumber("--detect-drop", values["detect-drop"], { min: 0.01, max: 1 });
  const power = values.power === undefined ? DEFAULT_SENSITIVITY.power : decimalNumber("--power", values.power, { min: 0.01, max: 0.99 });
  if (values.strict && !values["fail-on-regression"]) throw new UsageError("--strict applies to --fail-on-regression (it also fails on \"cannot tell\"): add --fail-on-regression");
  const latencyLimit = values["max-p90-latency-increase"] === undefined ? null : decimalNumber("--max-p90-latency-increase", values["max-p90-latency-increase"], { min: -100, max: 100_000 });
  const durationLimit = values["max-p90-duration-increase"] === undefined ? null : decimalNumber("--max-p90-duration-increase", values["max-p90-duration-increase"], { min: -100, max: 100_000 });
  const [base, head] = positionals.map((p) => readRun(resolve(io.cwd, p)));
  const c = compareRuns(base!, head!, { alpha, drop, power });
  // Nothing in common is nothing compared: a PASS there would be a verdict about no trial at all.
  if (c.cases.length === 0)
    throw new UsageError(`the two runs have no case in common (${positionals[0]}: ${caseList(base!)}; ${positionals[1]}: ${caseList(head!)}); compare two runs of the same plan, or of plans that share cases`);
  const gates: string[] = [];
  const some = (xs: string[]) => `${xs.slice(0, 3).join("; ")}${xs.length > 3 ? "; …" : ""}`;
  if (values["fail-on-regression"] && c.required_regressions.length) gates.push(`${c.required_regressions.length} regression(s) of a required verifier: ${some(c.required_regressions)}`);
  if (values.strict && c.required_cannot_tell.length) gates.push(`${c.required_cannot_tell.length} required rate(s) cannot tell at these repetitions (--strict): ${some(c.required_cannot_tell)}`);
  const limit = (name: string, p: { base: { p90: number | null }; head: { p90: number | null } }, max: number | null) => {
    if (max === null) return;
    if (p.base.p90 === null || p.head.p90 === null) gates.push(`P90 ${name}: not measured in both runs, so the limit cannot be checked`);
    else if (p.head.p90 > p.base.p90 * (1 + max / 100) + 1e-9) gates.push(`P90 ${name} ${p.head.p90} ms is more than base ${p.base.p90} ms ${max >= 0 ? "+" : ""}${max}%`);
  };
  limit("response latency", c.overall.latency_ms, latencyLimit);
  limit("duration", c.overall.duration_ms, durationLimit);
  const asked = Boolean(values["fail-on-regression"]) || latencyLimit !== null || durationLimit !== null;
  if (values.html !== undefined) {
    const html = resolve(io.cwd, values.html);
    if (existsSync(html) && statSync(html).isDirectory()) throw new UsageError(`--html ${values.html} is a folder; give the file to write, e.g. ${join(values.html, "compare.html")}`);
    try {
      writeFileAtomic(html, htmlPage(c, gates, asked, Boolean(values.strict)));
    } catch (error) {
      // A full or read-only disk is the machine's fault, said as such by the CLI (exit 3), not a bad --html.
      if (machineFault(error)) throw error;
      throw new UsageError(`--html ${values.html} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give a file in a folder you can write to`);
    }
  }
  io.stdout(values.json ? JSON.stringify({ ...c, gates: { asked, ok: gates.length === 0, failed: gates } }, null, 2) + "\n" : consoleText(c, gates, asked, Boolean(values.strict)) + "\n");
  return gates.length ? 1 : 0;
}
