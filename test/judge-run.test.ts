import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { unpackTrial } from "../src/core/report/html";
import { ResultsFile } from "../src/core/record/results";
import { clauseOf, startJudgeServer, verdict, type JudgeServer } from "./judge-fixtures";

/**
 * The judge inside a real run, through the CLI: `--judge --judge-endpoint` at a loopback Responses
 * server. Offline without `--judge`, nothing is invented. A required task_understanding gates.
 */
const repo = resolve(import.meta.dirname, "..");
let server: JudgeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function cli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: {} });
  return { code, stdout, stderr };
}

function results(out: string): { doc: ResultsFile; dir: string } {
  const dir = join(out, readdirSync(out)[0]!);
  return { doc: ResultsFile.parse(JSON.parse(readFileSync(join(dir, "results.json"), "utf8"))), dir };
}

/** A judge that passes every clause, citing the first assistant utterance and (when offered) the first tool call. */
function passingJudge(body: Record<string, unknown>) {
  const content = String((body.input as Array<{ content: string }>)[0]!.content);
  const cites = ["utt.assistant.1", ...(content.includes('"id":"tool.call_1"') ? ["tool.call_1"] : [])];
  return { status: 200, json: verdict({ verdict: "pass", severity_score: 1, rationale: `The ${clauseOf(body)} clause holds.`, cited_evidence_ids: cites, ...(clauseOf(body) === "task_understanding" ? { task_completed: true } : {}) }) };
}

describe("the judge in a run", () => {
  it("offline without --judge records applicable dimensions as not assessed, with a null score", async () => {
    const out = mkdtempSync(join(tmpdir(), "judge-off-"));
    expect((await cli(["run", "--target", "text_restaurant", "--example", "harbor_003", "--results-dir", out, "--quiet"])).code).toBe(0);
    const t = results(out).doc.trials[0]!;
    expect(t.metrics.task.semantic_quality).toEqual({ score: null, dimensions: { task_understanding: null, context_fidelity: null, grounded_communication: null } });
    const tu = t.assessments.find((a) => a.verifier === "semantic.task_understanding")!;
    expect(tu).toMatchObject({ status: "not_run", required: false, score: null });
    expect(t.checks.find((c) => c.id === "semantic_outcome")!.status).toBe("not_applicable");
  });

  it("--judge calls one clause per applicable dimension, records provenance and cost, and shows it in report.html", async () => {
    server = await startJudgeServer((body) => passingJudge(body));
    const out = mkdtempSync(join(tmpdir(), "judge-on-"));
    const r = await cli(["run", "--target", "text_restaurant", "--example", "harbor_003", "--judge", "--judge-endpoint", server.endpoint, "--require", "semantic.task_understanding", "--results-dir", out, "--quiet"]);
    expect(r.code).toBe(0);
    expect(server.seen.map((s) => clauseOf(s.body)).sort()).toEqual(["context_fidelity", "grounded_communication", "task_understanding"]);
    const { doc, dir } = results(out);
    const t = doc.trials[0]!;
    const tu = t.assessments.find((a) => a.verifier === "semantic.task_understanding")!;
    expect(tu).toMatchObject({ status: "passed", required: true, score: 1, evidence_ids: ["utt.assistant.1", "tool.call_1"] });
    expect(tu.judge).toMatchObject({ clause: { id: "task_understanding", version: "1.0" }, task_completed: true, reason: null });
    expect(t.checks.find((c) => c.id === "semantic_outcome")).toMatchObject({ status: "passed", required: true });
    expect(t.metrics.task.semantic_quality.score).toBe(1);
    expect(doc.summary.judge.judged).toBe(3);
    expect(doc.summary.judge.tokens.total).toBeGreaterThan(0);
    // The target's consumption is untouched by the judge's.
    expect(t.metrics.consumption.backend).toBeNull();
    // report.html carries the assessment with its rationale (a trial's details are packed: gzip, base64).
    const html = readFileSync(join(dir, "report.html"), "utf8");
    const packed = /<script type="application\/x-crashlab-trial" id="trial-0">([^<]*)<\/script>/.exec(html)![1]!;
    expect(unpackTrial(packed)).toContain("The task_understanding clause holds.");
    expect(r.stdout).toMatch(/judge: 3 assessments, 3 requests/);
  });

  it("a required task_understanding that fails, or ends inconclusive, fails the gate with the reason shown", async () => {
    server = await startJudgeServer((body) =>
      clauseOf(body) === "task_understanding"
        ? { status: 200, json: verdict({ verdict: "fail", severity_score: 0.25, rationale: "Confirmed the wrong day.", cited_evidence_ids: ["utt.assistant.1"], task_completed: false }) }
        : passingJudge(body),
    );
    const out = mkdtempSync(join(tmpdir(), "judge-fail-"));
    const failed = await cli(["run", "--target", "text_restaurant", "--example", "harbor_003", "--judge", "--judge-endpoint", server.endpoint, "--require", "semantic.task_understanding", "--results-dir", out, "--quiet"]);
    expect(failed.code).toBe(1);
    const t = results(out).doc.trials[0]!;
    expect(t.status).toBe("failed");
    expect(t.checks.find((c) => c.id === "semantic_outcome")).toMatchObject({ status: "failed", required: true });
    await server.close();

    server = await startJudgeServer((body) => ({ status: 200, json: verdict({ verdict: "pass", severity_score: 1, rationale: "Looks right.", cited_evidence_ids: [], ...(clauseOf(body) === "task_understanding" ? { task_completed: true } : {}) }) }));
    const out2 = mkdtempSync(join(tmpdir(), "judge-inconclusive-"));
    const inconclusive = await cli(["run", "--target", "text_restaurant", "--example", "harbor_003", "--judge", "--judge-endpoint", server.endpoint, "--require", "semantic.task_understanding", "--results-dir", out2]);
    expect(inconclusive.stderr).toMatch(/INCONCLUSIVE harbor_003#1 — semantic\.task_understanding inconclusive: no_citations/);
    expect(inconclusive.code).toBe(1);
    const t2 = results(out2).doc.trials[0]!;
    expect(t2.status).toBe("inconclusive");
    const tu = t2.assessments.find((a) => a.verifier === "semantic.task_understanding")!;
    expect(tu.status).toBe("inconclusive");
    expect(tu.judge!.reason).toBe("no_citations");
    expect(inconclusive.stdout).toMatch(/gate required FAIL\s+semantic\.task_understanding/);
  });

  it("an advisory semantic failure never overrides the deterministic pass", async () => {
    server = await startJudgeServer(() => ({ status: 200, json: verdict({ verdict: "fail", severity_score: 0, rationale: "Too curt.", cited_evidence_ids: ["utt.assistant.1"], task_completed: false }) }));
    const out = mkdtempSync(join(tmpdir(), "judge-advisory-"));
    const r = await cli(["run", "--target", "text_restaurant", "--example", "harbor_003", "--judge", "--judge-endpoint", server.endpoint, "--results-dir", out, "--quiet"]);
    expect(r.code).toBe(0);
    const t = results(out).doc.trials[0]!;
    expect(t.status).toBe("passed");
    expect(t.checks.find((c) => c.id === "semantic_outcome")).toMatchObject({ status: "failed", required: false });
  });

  it("refuses judge settings when the judge is off, and --judge without a key or endpoint", async () => {
    expect((await cli(["run", "--judge-model", "x"])).stderr).toMatch(/judge settings were given but the judge is off/);
    expect((await cli(["run", "--judge"])).stderr).toMatch(/--judge needs OPENAI_API_KEY/);
  });

  it("a required clause whose evidence selector throws is an evaluation error (exit 4), never infrastructure", async () => {
    server = await startJudgeServer((body) => passingJudge(body));
    const pkg = mkdtempSync(join(tmpdir(), "broken-clause-"));
    mkdirSync(join(pkg, "crashlab"));
    writeFileSync(
      join(pkg, "crashlab/evaluations.ts"),
      `import { crawl, defineClause, definePlan, loadDataset } from "crashlab/alpha";
import { restaurantWorld } from ${JSON.stringify(join(repo, "crashlab/worlds/restaurant.ts"))};
import { restaurantTargets } from ${JSON.stringify(join(repo, "crashlab/adapters/restaurant-targets.ts"))};
const broken = defineClause({ id: "policy_relay", version: "1.0", text: "Relays the policy.", applies: () => true, select: () => { throw new Error("selector bug"); } });
export const PLAN = definePlan({
  name: "broken",
  targets: restaurantTargets(),
  default_target: "text_restaurant",
  cases: crawl(loadDataset(${JSON.stringify(join(repo, "crashlab/data/crawl.json"))}), { world: restaurantWorld }),
  clauses: [broken],
  gates: { outcome: { required: true }, "semantic.policy_relay": { required: true } },
});
`,
    );
    const out = mkdtempSync(join(tmpdir(), "broken-clause-out-"));
    const r = await cli(["run", "--package", pkg, "--example", "harbor_003", "--judge", "--judge-endpoint", server.endpoint, "--results-dir", out, "--quiet"]);
    expect(r.code).toBe(4);
    const { doc } = results(out);
    expect(doc.gates).toMatchObject({ ok: false, decision: "evaluation_error", exit_code: 4 });
    expect(doc.gates.message).toMatch(/verifier errors prevented a decision/);
    expect(doc.gates.message).not.toMatch(/infrastructure/);
    expect(doc.summary.errors_by_stage).toEqual({});
    const a = doc.trials[0]!.assessments.find((x) => x.verifier === "semantic.policy_relay")!;
    expect(a).toMatchObject({ status: "error", required: true });
    expect(r.stdout).toMatch(/decision: NO DECISION \(evaluation error\) \(exit 4\)/);
    expect(server.seen.some((s) => clauseOf(s.body) === "policy_relay")).toBe(false);
  });
});
