import { afterEach, describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { RESTAURANT_FACTS } from "../examples/restaurant/facts";
import { taskUnderstanding } from "../src/core/judge/clauses";
import { buildEvidenceCatalog } from "../src/core/judge/evidence";
import { semanticVerifiers } from "../src/core/judge/verifiers";
import { escapeHtml, htmlReport } from "../src/core/report/html";
import { buildResults } from "../src/core/report/results";
import { type TrialRecord } from "../src/core/record/trial-record";
import { Assessment } from "../src/core/record/assessment";
import { run } from "../src/core/run/run";
import { startJudgeServer, verdict, type JudgeServer } from "./judge-fixtures";

/**
 * report.html shows each semantic assessment with its rationale and, beside it, the evidence it cites
 * (transcript line, tool call, state change), resolved through the trial's catalog. Real offline trial,
 * real judge code against a loopback Responses server.
 */
let server: JudgeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The `<div class="semantic">` block of one verifier. */
function semanticBlockOf(html: string, verifier: string): string {
  const blocks = html.split('<div class="semantic">').slice(1).map((b) => b.slice(0, b.indexOf('</div></div>') + 12));
  const block = blocks.find((b) => b.includes(`<code>${verifier}</code>`));
  if (!block) throw new Error(`no semantic block for ${verifier}`);
  return block;
}

describe("HTML report", () => {
  it("renders a semantic assessment with its rationale and the cited evidence beside it", async () => {
    const result = await run(PLAN, { target: "text_restaurant", selection: { ids: ["restaurant_001"] } });
    const record = result.records[0]!;
    const scenario = PLAN.cases.find((c) => c.id === "restaurant_001")!.scenario;
    server = await startJudgeServer(() => ({
      status: 200,
      json: verdict({
        verdict: "pass",
        severity_score: 0.75,
        rationale: "Booked and confirmed <b>after</b> the tool; the party size was not repeated.",
        cited_evidence_ids: ["utt.assistant.2", "tool.call_1", "state.diff.1"],
        task_completed: true,
      }),
    }));
    const [tu] = semanticVerifiers({ judge: { endpoint: server.endpoint, max_retries: 0 }, clauses: [taskUnderstanding], facts: RESTAURANT_FACTS });
    const v = await tu!.assess({ record, scenario });
    const semantic = Assessment.parse({ verifier: tu!.id, version: tu!.version, kind: "semantic", status: v.status, required: false, score: v.score, rationale: v.rationale, evidence_ids: v.evidence_ids, judge: v.judge });
    const ghost: Assessment = { verifier: "semantic.grounded_communication", version: "1.0", kind: "semantic", status: "failed", required: false, score: 0, rationale: "cites a vanished line", evidence_ids: ["utt.assistant.9"] };
    const withJudge: TrialRecord = { ...record, turns: record.turns.map((t, i) => (i === 0 ? { ...t, text: `${t.text} <script>alert(1)</script>` } : t)), assessments: [...record.assessments.filter((a) => a.kind !== "semantic"), semantic, ghost] };
    const results = buildResults(result, {
      concurrency: 1,
      real_time: false,
      package_digest: "sha256:test",
      target_descriptor: { kind: "text", instructions: "", tools: ["create_reservation"] },
      limits: record.limits.config,
    });
    const html = htmlReport(results, [withJudge], {
      catalogs: { [record.trial_id]: buildEvidenceCatalog(withJudge, { facts: RESTAURANT_FACTS }) },
      breakdowns: [{ title: "Pass rate by condition", rows: [{ label: "clean", trials: 4, passes: 3 }, { label: "telephony", trials: 0, passes: 0 }] }],
    });

    // Self-contained and escaped.
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<script|<link|\bsrc=|href="http/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    // Header, decision, per-case table.
    expect(html).toContain(`<h1>crashlab run ${escapeHtml(result.run_id)}</h1>`);
    expect(html).toContain("<strong>Gates passed</strong> (exit code 0)");
    expect(html).toMatch(/<td><code>restaurant_001<\/code><\/td><td>1<\/td><td>1<\/td><td>0<\/td><td>0<\/td><td>0<\/td><td>100\.0%<\/td><td>\[20\.7%, 100\.0%\]<\/td><td>k=1: 1\.000<\/td>/);
    // Breakdown: 3 of 4 is 75% with Wilson [30.1%, 95.4%]; an empty row has no rate.
    expect(html).toContain("<h2>Pass rate by condition</h2>");
    expect(html).toContain("<tr><td>clean</td><td>4</td><td>3</td><td>75.0%</td><td>[30.1%, 95.4%]</td></tr>");
    expect(html).toContain("<tr><td>telephony</td><td>0</td><td>0</td><td>—</td><td>—</td></tr>");
    // The transcript, tool calls and outcome checks of the trial.
    expect(html).toContain(`<code>${escapeHtml(record.trial_id)}</code> <span class="badge s-passed">passed</span>`);
    expect(html).toContain('<span class="eid">utt.user.1</span>USER 0..4800ms: I&#39;d like to book a table for two under Maya on August 14 at 7 p.m. &lt;script&gt;');
    expect(html).toContain("<td><code>conversation_completed</code></td><td>required</td><td><span class=\"badge s-passed\">passed</span></td>");

    // The semantic assessment: rationale on one side, each cited item rendered on the other.
    const block = semanticBlockOf(html, "semantic.task_understanding");
    const [left, right] = block.split('<div class="cited">');
    expect(left).toContain("Booked and confirmed &lt;b&gt;after&lt;/b&gt; the tool; the party size was not repeated.");
    expect(left).toContain("score 0.75");
    expect(left).toContain("clause <code>task_understanding</code> v1.0");
    expect(left).toMatch(/judge gpt-5\.6-terra-2026-06-26, 1 repetition\(s\), \d+ ms, 1350 tokens, \$0\.00480, task completed: yes/);
    const reservation = record.tool_executions[0]!.output as { reservation_id: string };
    expect(right).toContain(`<span class="eid">utt.assistant.2</span>ASSISTANT 7600..13300ms: You&#39;re booked: a table for two under Maya on August 14 at 7 p.m. Your reservation number is ${reservation.reservation_id}.`);
    expect(right).toContain('<span class="eid">tool.call_1</span>TOOL 5450ms: name=create_reservation status=completed arguments={&quot;guest_name&quot;:&quot;Maya&quot;');
    expect(right).toContain(`<span class="eid">state.diff.1</span>STATE add /reservations/${reservation.reservation_id} = {`);
    expect(right!.match(/class="evidence line"/g)).toHaveLength(3);

    // A citation the catalog cannot resolve is shown as such, never silently dropped.
    expect(semanticBlockOf(html, "semantic.grounded_communication")).toContain('<span class="eid">utt.assistant.9</span>(not in the evidence catalog)');
    // Judge totals, apart from the target's usage.
    expect(html).toContain("Semantic judge (separate from target usage): 1 judged assessment(s), 1 request(s), 1200 input / 150 output tokens, estimated cost $0.0048.");
  });
});
