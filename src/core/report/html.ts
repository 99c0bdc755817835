import { buildEvidenceCatalog, catalogIndex, evidenceLine, type EvidenceCatalog, type EvidenceItem } from "../judge/evidence";
import { judgeUsageTotals } from "../judge/verifiers";
import type { TrialRecord } from "../record/trial-record";
import type { Assessment } from "../record/assessment";
import { wilsonInterval, type Interval } from "../stats/rates";
import type { ResultsFile } from "./results-schema";

/**
 * report.html: one self-contained static page (no scripts, no external assets, every text escaped) over
 * the same data as results.json. Each semantic assessment is shown with its rationale and, beside it, the
 * evidence it cites, resolved through the trial's evidence catalog.
 */

/** A pass-rate table by some condition (acoustic condition, persona, target, …). */
export interface BreakdownTable {
  title: string;
  rows: ReadonlyArray<{ label: string; trials: number; passes: number }>;
}

export interface HtmlReportOptions {
  /** Evidence catalogs by trial id (with context and facts); otherwise rebuilt from each record. */
  catalogs?: Readonly<Record<string, EvidenceCatalog>>;
  breakdowns?: readonly BreakdownTable[];
}

export type ReportResults = Pick<ResultsFile, "run" | "gates" | "summary">;

export function escapeHtml(text: unknown): string {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "—" : `${(x * 100).toFixed(1)}%`);
const interval = (i: Interval | null | undefined) => (i ? `[${pct(i.low)}, ${pct(i.high)}]` : "—");
const num = (x: number | null | undefined, digits = 2) => (x === null || x === undefined ? "—" : Number.isInteger(x) ? String(x) : x.toFixed(digits));
/** A status label, coloured by `tone` (a status name; default the label itself). */
const badge = (label: string, tone = label) => `<span class="badge s-${tone.replace(/[^a-z_]/g, "")}">${escapeHtml(label)}</span>`;

function table(head: string[], rows: string[][]): string {
  return `<table><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((cell) => `<td>${cell}</td>`).join("")}</tr>`)
    .join("")}</tbody></table>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem;color:#1d1d1f;background:#fff}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}h3{font-size:1rem;margin:1.2rem 0 .4rem}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f5f5f7}code,.line{font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
.badge{display:inline-block;padding:0 .4rem;border-radius:.6rem;font-size:12px;background:#eee}
.s-passed,.s-ok{background:#d9f2de}.s-failed{background:#f8d7da}.s-inconclusive,.s-not_run{background:#fff3cd}.s-error,.s-infrastructure_error{background:#f1c6f0}
.decision{padding:.6rem 1rem;border-radius:.4rem;margin:1rem 0}.decision.ok{background:#d9f2de}.decision.fail{background:#f8d7da}.decision.neutral{background:#fff3cd}
details{border:1px solid #ddd;border-radius:.4rem;margin:.5rem 0;padding:.3rem .8rem}summary{cursor:pointer}
.transcript .line{white-space:pre-wrap;margin:.1rem 0}.eid{color:#6e6e73;margin-right:.5rem}
.semantic{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem;border-top:1px dashed #ccc;padding:.6rem 0}
.cited .evidence{background:#f5f5f7;border-left:3px solid #8e8e93;padding:.2rem .5rem;margin:.2rem 0}.missing{color:#b00020}
.muted{color:#6e6e73}
`;

/** Render the run: header, gates and decision, per-case table, breakdowns, then one collapsible section per trial. */
export function htmlReport(results: ReportResults, records: readonly TrialRecord[], options: HtmlReportOptions = {}): string {
  const { run, gates, summary } = results;
  const judge = judgeUsageTotals(records.flatMap((r) => r.assessments));
  const parts: string[] = [];
  parts.push(`<h1>crashlab run ${escapeHtml(run.run_id)}</h1>`);
  parts.push(
    table(
      ["plan", "target", "started", "finished", "seed", "repetitions", "concurrency", "crashlab", "package digest"],
      [[run.plan, run.target, run.started_at, run.finished_at, run.seed, run.repetitions, run.concurrency, run.crashlab_version, run.package_digest].map((v) => escapeHtml(v))],
    ),
  );
  if (run.interrupted) parts.push(`<p class="missing">interrupted by ${escapeHtml(run.interrupted_by)}: ${escapeHtml(run.not_run.length)} trial(s) not run (${escapeHtml(run.cases_not_run.join(", "))})</p>`);

  const heading = { pass: "Gates passed", fail: "Gates failed", infrastructure: "No decision: infrastructure errors", evaluation_error: "No decision: evaluation error", interrupted: "Interrupted: no decision" }[gates.decision];
  parts.push(`<div class="decision ${gates.ok ? "ok" : gates.decision === "fail" ? "fail" : "neutral"}"><strong>${heading}</strong> (exit code ${escapeHtml(gates.exit_code)}): ${escapeHtml(gates.message)}</div>`);
  if (gates.results.length > 0) {
    parts.push("<h2>Gates</h2>");
    parts.push(
      table(
        ["verifier", "required", "min pass rate", "Wilson", "result", "message"],
        gates.results.map((g) => [
          `<code>${escapeHtml(g.verifier)}</code>`,
          g.rule.required ? "required" : "advisory",
          pct(g.rule.min_pass_rate),
          g.rule.wilson ? "lower bound" : "raw rate",
          badge(g.ok ? "passed" : "failed"),
          escapeHtml(g.message),
        ]),
      ),
    );
  }

  parts.push("<h2>Summary</h2>");
  parts.push(
    table(
      ["trials", "passed", "failed", "inconclusive", "infrastructure errors", "pass rate", "Wilson 95%"],
      [[summary.trials, summary.by_status.passed, summary.by_status.failed, summary.by_status.inconclusive, summary.by_status.infrastructure_error].map((v) => escapeHtml(v)).concat([pct(summary.pass_rate), interval(summary.wilson_95)])],
    ),
  );
  const stages = Object.entries(summary.errors_by_stage);
  if (stages.length) parts.push(`<p>Infrastructure errors by stage: ${stages.map(([s, n]) => `<code>${escapeHtml(s)}</code> ${escapeHtml(n)}`).join(", ")}</p>`);
  if (judge.judged > 0)
    parts.push(
      `<p>Semantic judge (separate from target usage): ${judge.judged} judged assessment(s), ${judge.requests} request(s), ${judge.tokens.input} input / ${judge.tokens.output} output tokens, estimated cost ${
        judge.cost_usd === null ? "unknown" : `$${judge.cost_usd.toFixed(4)}`
      }${judge.unpriced ? ` (${judge.unpriced} without a price)` : ""}.</p>`,
    );

  parts.push("<h2>Cases</h2>");
  parts.push(
    table(
      ["case", "trials", "passes", "failed", "inconclusive", "infra errors", "pass rate", "Wilson 95%", "pass^k", "duration P50 / P90 ms"],
      summary.cases.map((c) => [
        `<code>${escapeHtml(c.case_id)}</code>`,
        escapeHtml(c.trials),
        escapeHtml(c.passes),
        escapeHtml(c.failures),
        escapeHtml(c.inconclusive),
        escapeHtml(c.infrastructure_errors),
        pct(c.pass_rate),
        interval(c.wilson_95),
        Object.entries(c.pass_hat_k)
          .map(([k, v]) => `k=${escapeHtml(k)}: ${v === null ? "undefined" : v.toFixed(3)}`)
          .join("<br>"),
        `${num(c.duration_ms.p50, 0)} / ${num(c.duration_ms.p90, 0)}`,
      ]),
    ),
  );

  for (const b of options.breakdowns ?? []) {
    parts.push(`<h2>${escapeHtml(b.title)}</h2>`);
    parts.push(
      table(
        ["", "trials", "passes", "pass rate", "Wilson 95%"],
        b.rows.map((r) => [escapeHtml(r.label), escapeHtml(r.trials), escapeHtml(r.passes), r.trials ? pct(r.passes / r.trials) : "—", interval(wilsonInterval(r.passes, r.trials))]),
      ),
    );
  }

  parts.push("<h2>Trials</h2>");
  for (const record of records) parts.push(trialSection(record, options.catalogs?.[record.trial_id]));

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>crashlab ${escapeHtml(run.run_id)}</title><style>${STYLE}</style></head>
<body>
${parts.join("\n")}
</body></html>
`;
}

/** The catalog for a trial: the one given, else rebuilt from the record (without context and facts). */
function catalogFor(record: TrialRecord, given: EvidenceCatalog | undefined): { catalog: EvidenceCatalog | null; problem: string | null } {
  if (given) return { catalog: given, problem: null };
  try {
    return { catalog: buildEvidenceCatalog(record), problem: null };
  } catch (error) {
    return { catalog: null, problem: error instanceof Error ? error.message : String(error) };
  }
}

function timeOf(item: EvidenceItem): number {
  if (item.kind === "utterance") return item.start_ms;
  if (item.kind === "delegation") return item.created_ms;
  if (item.kind === "tool_call") return item.requested_ms;
  return Number.POSITIVE_INFINITY;
}

function evidenceRow(id: string, index: ReadonlyMap<string, EvidenceItem>): string {
  const item = index.get(id);
  return item
    ? `<div class="evidence line"><span class="eid">${escapeHtml(id)}</span>${escapeHtml(evidenceLine(item))}</div>`
    : `<div class="evidence line missing"><span class="eid">${escapeHtml(id)}</span>(not in the evidence catalog)</div>`;
}

function trialSection(record: TrialRecord, given: EvidenceCatalog | undefined): string {
  const { catalog, problem } = catalogFor(record, given);
  const index = catalog ? catalogIndex(catalog) : new Map<string, EvidenceItem>();
  const out: string[] = [];
  const task = record.metrics.task;
  out.push(`<details><summary><code>${escapeHtml(record.trial_id)}</code> ${badge(record.status)} <span class="muted">${escapeHtml(record.target)} · ${escapeHtml(record.duration_ms)} ms</span></summary>`);
  if (record.error) out.push(`<p class="missing">infrastructure error at <code>${escapeHtml(record.error.stage)}</code>: ${escapeHtml(record.error.message)}</p>`);
  if (problem) out.push(`<p class="missing">evidence catalog unavailable: ${escapeHtml(problem)}</p>`);
  out.push(
    `<p>task completed: <strong>${task.task_completed ? "yes" : "no"}</strong> · semantic quality: ${num(task.semantic_quality.score)} · tool accuracy: ${num(task.tool_accuracy)} · delegation accuracy: ${num(task.delegation_accuracy)}</p>`,
  );

  const timeline = (catalog?.items ?? []).filter((i) => i.kind === "utterance" || i.kind === "delegation" || i.kind === "tool_call").sort((a, b) => timeOf(a) - timeOf(b));
  out.push(`<h3>Transcript</h3><div class="transcript">${timeline.map((i) => evidenceRow(i.id, index)).join("") || '<p class="muted">no transcript</p>'}</div>`);

  if (record.tool_executions.length) {
    out.push("<h3>Tool calls</h3>");
    out.push(
      table(
        ["id", "name", "status", "arguments", "result", "requested / completed ms"],
        record.tool_executions.map((t) => [
          `<code>tool.${escapeHtml(t.call_id)}</code>`,
          escapeHtml(t.name),
          badge(t.status, t.status === "completed" ? "passed" : "failed"),
          `<code>${escapeHtml(t.raw_arguments)}</code>`,
          `<code>${escapeHtml(t.error ? `${t.error.code}: ${t.error.message}` : JSON.stringify(t.output ?? null))}</code>`,
          `${escapeHtml(t.requested_ms)} / ${escapeHtml(t.completed_ms)}`,
        ]),
      ),
    );
  }
  const changes = (catalog?.items ?? []).filter((i) => i.kind === "state_change");
  if (changes.length) out.push(`<h3>State changes</h3><div class="transcript">${changes.map((i) => evidenceRow(i.id, index)).join("")}</div>`);

  out.push("<h3>Outcome checks</h3>");
  out.push(
    table(
      ["check", "required", "status", "rationale", "evidence"],
      record.checks.map((c) => [`<code>${escapeHtml(c.id)}</code>`, c.required ? "required" : "diagnostic", badge(c.status), escapeHtml(c.rationale), c.evidence_ids.map((id) => `<code>${escapeHtml(id)}</code>`).join(" ")]),
    ),
  );

  const semantic = record.assessments.filter((a) => a.kind === "semantic");
  const other = record.assessments.filter((a) => a.kind !== "semantic");
  if (other.length) {
    out.push("<h3>Verifiers</h3>");
    out.push(
      table(
        ["verifier", "version", "required", "status", "rationale"],
        other.map((a) => [`<code>${escapeHtml(a.verifier)}</code>`, escapeHtml(a.version), a.required ? "required" : "advisory", badge(a.status), escapeHtml(a.rationale)]),
      ),
    );
  }
  if (semantic.length) {
    out.push("<h3>Semantic assessments</h3>");
    for (const a of semantic) out.push(semanticBlock(a, index));
  }
  out.push("</details>");
  return out.join("\n");
}

function semanticBlock(a: Assessment, index: ReadonlyMap<string, EvidenceItem>): string {
  const j = a.judge;
  const facts = [
    `${a.required ? "required" : "advisory"}`,
    a.score === null || a.score === undefined ? "score —" : `score ${num(a.score)}`,
    j ? `clause <code>${escapeHtml(j.clause.id)}</code> v${escapeHtml(j.clause.version)}` : `v${escapeHtml(a.version)}`,
  ];
  const judgeLine = j
    ? `<p class="muted">judge ${escapeHtml(j.observed_models.join(", ") || j.model)}${j.settings.reasoning_effort ? `, effort ${escapeHtml(j.settings.reasoning_effort)}` : ""}, ${escapeHtml(j.settings.repetitions)} repetition(s), ${escapeHtml(j.latency_ms)} ms, ${escapeHtml(j.tokens.total)} tokens, ${
        j.cost_usd === null ? "cost unknown" : `$${j.cost_usd.toFixed(5)}`
      }${j.reason ? `, reason <code>${escapeHtml(j.reason)}</code>` : ""}${j.task_completed === null ? "" : `, task completed: ${j.task_completed ? "yes" : "no"}`}</p>`
    : "";
  const cited = a.evidence_ids.length ? a.evidence_ids.map((id) => evidenceRow(id, index)).join("") : '<p class="muted">no evidence cited</p>';
  return `<div class="semantic"><div><p><code>${escapeHtml(a.verifier)}</code> ${badge(a.status)} ${facts.join(" · ")}</p><p>${escapeHtml(a.rationale)}</p>${judgeLine}</div><div class="cited">${cited}</div></div>`;
}
