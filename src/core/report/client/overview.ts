/** The report page's overview: the run's decision, gates, reviews, summary and pass rates at a glance. */

import type { GateView, RateRow, ReportData } from "./data";
import { badge, esc, ms, pct, rateBar } from "./format";

/** The run at a glance: decision and why, gates, summary, timing, consumption, pass rates per case, tag, condition. */

const DECISION: Record<ReportData["decision"]["state"], { word: string; tone: string }> = {
  pass: { word: "PASS", tone: "passed" },
  fail: { word: "FAIL", tone: "failed" },
  infrastructure: { word: "NO DECISION — infrastructure errors", tone: "error" },
  evaluation_error: { word: "NO DECISION — evaluation error", tone: "error" },
  interrupted: { word: "INTERRUPTED — no decision", tone: "neutral" },
};

const GATE: Record<GateView["state"], { label: string; tone: string }> = {
  passed: { label: "passed", tone: "passed" },
  failed: { label: "failed", tone: "failed" },
  advisory_failed: { label: "failed (advisory)", tone: "warn" },
  not_assessed: { label: "not assessed", tone: "neutral" },
  too_few_reviews: { label: "too few reviews", tone: "warn" },
  blocked: { label: "no verdict", tone: "error" },
};

/** A human gate's reviews in words: how many trials people decided, and how many the gate needs. */
function humanLine(g: GateView): string {
  const h = g.human!;
  const need = [h.min_reviewed > 1 ? `${h.min_reviewed} reviewed` : "", h.min_reviewed_share > 0 ? `${+(h.min_reviewed_share * 100).toFixed(2)}% of trials reviewed` : ""].filter(Boolean).join(" and ") || "1 reviewed";
  return `<div class="muted human-status" data-status="${h.status}">people: ${h.reviewed} of ${h.trials} trial(s) reviewed on <code>${esc(h.reviewed_verifier)}</code> (${h.passes} passed, ${h.failures} failed${h.unsure ? `, ${h.unsure} unsure` : ""}) · needs ${esc(need)} · <b>${esc(h.status.replace(/_/g, " "))}</b></div>`;
}

function gateRow(g: GateView): string {
  const rule = `${g.wilson ? "Wilson low" : "rate"} ≥ ${pct(g.min_pass_rate)}`;
  const reasons = g.reasons.length ? `<ul class="reasons">${g.reasons.map((r) => `<li>${esc(r)}</li>`).join("")}</ul>` : "";
  const label = g.human && g.state === "not_assessed" ? "not assessed: awaiting reviews" : GATE[g.state].label;
  return `<tr data-gate="${esc(g.verifier)}" data-state="${g.state}"><td><code>${esc(g.verifier)}</code></td><td>${g.required ? "required" : "advisory"}${g.human ? " · human" : ""}</td><td>${esc(rule)}</td><td>${badge(label, GATE[g.state].tone)}</td><td>${esc(g.message)}${g.human ? humanLine(g) : ""}${reasons}</td></tr>`;
}

/** The decision with the reviews there are, beside the one the run ended with (results.json keeps that one). */
function againHtml(d: ReportData): string {
  const again = d.reviews?.decision;
  if (!again || !d.reviews!.reviews.length) return "";
  return `<p class="again" id="decision-again" data-state="${again.state}">With the ${d.reviews!.reviews.length} review(s) recorded so far, <code>crashlab gates</code> decides: ${badge(DECISION[again.state].word, DECISION[again.state].tone)} <span class="muted">(exit ${again.exit_code})</span> ${esc(again.message)}</p>`;
}

/** The gates as shown: a human gate decided again with the reviews there are (when the run has any). */
function shownGates(d: ReportData): GateView[] {
  const again = new Map((d.reviews?.human_gates ?? []).map((g) => [g.verifier, g]));
  return d.gates.map((g) => again.get(g.verifier) ?? g);
}

const num = (x: number | null, digits = 2) => (x === null ? "—" : x.toFixed(digits));

/** People's reviews at a glance, and the judge's calibration against them per clause. */
function reviewsHtml(d: ReportData): string {
  const v = d.reviews;
  if (!v || (!v.reviews.length && !d.review_mode)) return "";
  const reviewers = new Set(v.reviews.map((r) => r.reviewer));
  const trials = new Set(v.reviews.map((r) => r.trial_id));
  const carried = v.reviews.filter((r) => r.carried_from).length;
  const out = [
    `<section id="reviews-summary"><h2>Human review</h2><p>${v.reviews.length} review(s) of ${trials.size} trial(s) by ${reviewers.size} reviewer(s)${carried ? `, ${carried} carried over from earlier runs of the same trials` : ""}. Human gates above are decided again with them${v.carried ? " (carried reviews counted)" : ""}; results.json keeps the decision the run ended with (<code>crashlab gates &lt;run-dir&gt;</code>).</p>`,
  ];
  if (v.calibration.length)
    out.push(
      `<h3>The judge against people</h3><table class="calibration"><thead><tr><th>clause</th><th class="n">n</th><th class="n">agreement</th><th class="n">kappa</th><th>95% interval</th><th class="n">people unsure</th><th class="n">judge without verdict</th><th class="n">disagreements</th></tr></thead><tbody>${v.calibration
        .map(
          (c) =>
            `<tr data-clause="${esc(c.verifier)}"><td><code>${esc(c.verifier)}</code></td><td class="n">${c.n}</td><td class="n">${pct(c.agreement)}</td><td class="n">${c.kappa === null ? '<span title="undefined: no pairs, or one and the same verdict throughout">—</span>' : num(c.kappa)}</td><td>${c.kappa_ci95 ? `${num(c.kappa_ci95[0])} to ${num(c.kappa_ci95[1])}` : "—"}</td><td class="n">${c.unsure}</td><td class="n">${c.judge_inconclusive}</td><td class="n">${c.disagreements}</td></tr>`,
        )
        .join("")}</tbody></table><p class="muted">Cohen's kappa over this run's own reviews (as <code>crashlab calibrate</code>); with few pairs the interval is rough (docs/review.md).</p>`,
    );
  out.push("</section>");
  return out.join("");
}

function card(label: string, value: string, sub = ""): string {
  return `<div class="card"><div class="card-label">${esc(label)}</div><div class="card-value">${value}</div>${sub ? `<div class="card-sub">${sub}</div>` : ""}</div>`;
}

function rateTable(title: string, head: string, rows: readonly RateRow[], filter: string): string {
  if (!rows.length) return "";
  return `<section class="breakdown"><h3>${esc(title)}</h3><table class="rates"><thead><tr><th>${esc(head)}</th><th class="n">trials</th><th class="n">passed</th><th>pass rate · 95% Wilson</th></tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr><td><a href="#" data-filter="${esc(filter)}" data-value="${esc(r.label)}">${esc(r.label)}</a></td><td class="n">${r.trials}</td><td class="n">${r.passes}</td><td>${rateBar(r.rate, r.low, r.high)}${r.errors ? ` <span class="muted">${r.errors} infra</span>` : ""}</td></tr>`,
    )
    .join("")}</tbody></table></section>`;
}

export function overviewHtml(d: ReportData): string {
  const r = d.run;
  const decision = DECISION[d.decision.state];
  const s = d.summary;
  const startedMs = Date.parse(r.started_at);
  const wall = Number.isFinite(startedMs) ? `${((Date.parse(r.finished_at) - startedMs) / 1000).toFixed(1)} s` : "";
  const out: string[] = [];
  out.push(
    `<header class="run"><h1>crashlab <span class="muted">run</span> ${esc(r.run_id)}</h1><p class="meta">plan <b>${esc(r.plan)}</b> · target <b>${esc(r.target)}</b> · ${esc(r.started_at)} (${esc(wall)}) · seed ${r.seed} · ${r.repetitions} repetition(s) · concurrency ${r.concurrency} · ${r.real_time ? "real" : "virtual"} time · crashlab ${esc(r.crashlab_version)} · package <code title="${esc(r.package_digest)}">${esc(r.package_digest.slice(0, 19))}…</code></p></header>`,
  );
  out.push(
    `<section class="decision t-${decision.tone}" id="decision" data-state="${d.decision.state}"><div class="decision-word">${esc(decision.word)}</div><div><div>${esc(d.decision.message)} <span class="muted">(exit ${d.decision.exit_code})</span></div>${
      d.decision.reasons.length ? `<ul class="reasons">${d.decision.reasons.map((x) => `<li>${esc(x)}</li>`).join("")}</ul>` : ""
    }${againHtml(d)}</div></section>`,
  );
  if (d.models.mismatched_trials.length)
    out.push(
      `<section class="decision t-warn" id="model-mismatch"><div class="decision-word">OTHER MODEL</div><div><div>The service reported serving another model than the one asked for in ${d.models.mismatched_trials.length} of ${s.trials} trial(s): these results are not the requested target's.</div><ul class="reasons">${d.models.mismatches.map((m) => `<li>${esc(m)}</li>`).join("")}</ul><p class="muted">${d.models.mismatched_trials.slice(0, 6).map(esc).join(", ")}${d.models.mismatched_trials.length > 6 ? ", …" : ""}</p></div></section>`,
    );
  if (d.reported_evidence?.trials)
    out.push(
      `<section class="decision t-warn" id="reported-evidence"><div class="decision-word">REPORTED</div><div><div>In ${d.reported_evidence.trials} of ${s.trials} trial(s) the tool calls and the application state are the target's own report (a client-delegation service): crashlab did not observe them, and the state checks ran on the state it reported. A passing trial shows the service's account agrees with the scenario, not that the account is true (docs/grading.md).</div></div></section>`,
    );
  if (d.gates.length)
    out.push(`<section><h2>Gates</h2><table class="gates"><thead><tr><th>verifier</th><th>kind</th><th>rule</th><th>result</th><th>why</th></tr></thead><tbody>${shownGates(d).map(gateRow).join("")}</tbody></table></section>`);
  out.push(reviewsHtml(d));

  const t = d.consumption.target;
  const j = d.consumption.judge;
  out.push(
    `<section><h2>Summary</h2><div class="cards">${[
      card("trials", String(s.trials), `${s.by_status.passed} passed · ${s.by_status.failed} failed · ${s.by_status.inconclusive} inconclusive · ${s.by_status.infrastructure_error} infrastructure`),
      card("pass rate", pct(s.rate, 1), `95% Wilson ${pct(s.low, 1)}–${pct(s.high, 1)}`),
      card("response latency", `${ms(d.timing.response_latency_ms.p50)}`, `P50 · P90 ${ms(d.timing.response_latency_ms.p90)} · ${d.timing.response_latency_ms.n} trial(s)`),
      card("trial duration", `${ms(d.timing.duration_ms.p50)}`, `P50 · P90 ${ms(d.timing.duration_ms.p90)}`),
      card("target consumption", t.audio_seconds === null ? "—" : `${t.audio_seconds.toLocaleString("en-US")} s audio`, `voice frontend over ${t.trials_with_audio} trial(s) · backend ${t.backend_tokens === null ? "no tokens reported" : `${t.backend_tokens.toLocaleString("en-US")} tokens (${Object.entries(t.backend_tokens_by_model).map(([m, n]) => `${esc(m)} ${n.toLocaleString("en-US")}`).join(", ")})`}`),
      card("judge consumption", j.judged ? `${j.tokens.total.toLocaleString("en-US")} tokens` : "not used", j.judged ? `${j.judged} assessment(s) · ${j.requests} request(s) · ${j.cost_usd === null ? "cost unknown" : `≈ $${j.cost_usd.toFixed(4)}`}${j.unpriced ? ` (+${j.unpriced} unpriced)` : ""}` : "no semantic judge in this run"),
    ].join("")}</div>`,
  );
  const stages = Object.entries(s.errors_by_stage);
  out.push(
    `<p class="stages">Infrastructure errors by stage: ${
      stages.length ? stages.map(([k, v]) => `<a href="#" data-filter="q" data-value="${esc(k)}:"><code>${esc(k)}</code></a> ${v}`).join(" · ") : '<span class="muted">none</span>'
    }</p></section>`,
  );

  out.push(
    `<section><h2>Cases</h2><table class="cases"><thead><tr><th>case</th><th class="n">trials</th><th class="n">passed</th><th>pass rate · 95% Wilson</th><th class="n" title="pass^k at k = trials: the chance that all k repetitions pass">pass^k</th><th class="n">latency P50 / P90</th><th class="n">duration P50 / P90</th></tr></thead><tbody>${d.cases
      .map(
        (c) =>
          `<tr><td><a href="#" data-filter="case" data-value="${esc(c.label)}"><code>${esc(c.label)}</code></a></td><td class="n">${c.trials}</td><td class="n">${c.passes}</td><td>${rateBar(c.rate, c.low, c.high)}${c.errors ? ` <span class="muted">${c.errors} infra</span>` : ""}</td><td class="n">${c.pass_hat_n === null ? "—" : c.pass_hat_n.toFixed(2)}</td><td class="n">${ms(c.response_latency_ms.p50)} / ${ms(c.response_latency_ms.p90)}</td><td class="n">${ms(c.duration_ms.p50)} / ${ms(c.duration_ms.p90)}</td></tr>`,
      )
      .join("")}</tbody></table></section>`,
  );
  out.push(
    `<div class="breakdowns">${rateTable("By kind", "kind", d.kinds, "kind")}${rateTable("By acoustic condition", "condition", d.conditions, "condition")}${rateTable("By tag", "tag", d.tags, "tag")}</div>`,
  );
  if (d.problems.length) out.push(`<section class="problems"><h2>Problems building this report</h2><ul>${d.problems.map((p) => `<li>${esc(p)}</li>`).join("")}</ul></section>`);
  return out.join("\n");
}
