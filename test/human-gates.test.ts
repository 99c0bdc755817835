import { describe, expect, it } from "vitest";
import { evaluateGates, type GateConfig } from "../src/core/gate/gates";
import { humanGateConfig, reviewedVerifier, type HumanVerdict } from "../src/core/gate/human";
import { definePlan, PlanError } from "../src/core/run/plan";
import { resolveRun } from "../src/core/run/run";
import type { GateTrial } from "../src/core/gate/gates";

function trial(trial_id: string, status: GateTrial["status"] = "passed"): GateTrial {
  return { trial_id, case_id: trial_id.split("#")[0]!, status, assessments: [{ verifier: "outcome", status: status === "passed" ? "passed" : status === "failed" ? "failed" : "not_run" }] };
}

const verdicts = (entries: Array<[string, string, HumanVerdict]>) => {
  const m = new Map<string, Map<string, HumanVerdict>>();
  for (const [t, v, verdict] of entries) m.set(t, (m.get(t) ?? new Map()).set(v, verdict));
  return m;
};

const outcome = { required: true, min_pass_rate: 1, wilson: false };
const human = (extra: Partial<GateConfig[string]> = {}): GateConfig => ({ outcome, "human.naturalness": { required: true, min_pass_rate: 0.8, wilson: false, min_reviewed: 2, min_reviewed_share: 0, ...extra } });
const four = [trial("a#1"), trial("a#2"), trial("b#1"), trial("b#2")];

describe("human gates", () => {
  it("without reviews a required human gate is not assessed: the run never passes (exit 1) and says it awaits reviews", () => {
    const d = evaluateGates(four, human());
    expect(d).toMatchObject({ ok: false, decision: "fail", exit_code: 1 });
    expect(d.message).toBe("no pass decision yet: required human gate(s) human.naturalness await reviews: review the trials (reviews.jsonl), then decide again with `crashlab gates <run-dir>`");
    const g = d.gates.find((x) => x.verifier === "human.naturalness")!;
    expect(g.ok).toBe(false);
    expect(g.human).toEqual({ status: "not_assessed", reviewed_verifier: "human.naturalness", trials: 4, reviewed: 0, passes: 0, failures: 0, unsure: 0, min_reviewed: 2, min_reviewed_share: 0, pass_rate: null, compared_rate: null });
    expect(g.message).toMatch(/^human\.naturalness: not assessed, awaits reviews: .*needs 2 reviewed trial\(s\)/);
  });

  it("reviewed and passing passes (exit 0); too few reviews does not", () => {
    const pass = evaluateGates(four, human(), verdicts([["a#1", "human.naturalness", "passed"], ["b#2", "human.naturalness", "passed"]]));
    expect(pass).toMatchObject({ ok: true, decision: "pass", exit_code: 0, message: "all 2 required gate(s) passed" });
    expect(pass.gates.find((x) => x.verifier === "human.naturalness")!.human).toMatchObject({ status: "assessed", reviewed: 2, passes: 2, pass_rate: 1, compared_rate: 1 });

    // One reviewed trial of the two asked for; an unsure one does not count.
    const few = evaluateGates(four, human(), verdicts([["a#1", "human.naturalness", "passed"], ["a#2", "human.naturalness", "unsure"]]));
    expect(few).toMatchObject({ ok: false, exit_code: 1 });
    expect(few.gates.find((x) => x.verifier === "human.naturalness")!.human).toMatchObject({ status: "too_few_reviews", reviewed: 1, unsure: 1 });
    expect(few.message).toMatch(/await reviews/);
  });

  it("a share of the run's trials can be asked for instead of a count", () => {
    const config = human({ min_reviewed: 1, min_reviewed_share: 0.75 });
    // 2 of 4 = 50% < 75%: not assessed; 3 of 4 = 75%: assessed.
    const two = verdicts([["a#1", "human.naturalness", "passed"], ["a#2", "human.naturalness", "passed"]]);
    expect(evaluateGates(four, config, two).gates[0]!.human!.status).toBe("too_few_reviews");
    const three = verdicts([["a#1", "human.naturalness", "passed"], ["a#2", "human.naturalness", "passed"], ["b#1", "human.naturalness", "passed"]]);
    expect(evaluateGates(four, config, three)).toMatchObject({ ok: true, exit_code: 0 });
  });

  it("enough reviews below the pass rate fail like any gate (exit 1); Wilson compares the lower bound", () => {
    // 2 of 3 reviewed passed: 0.667 < 0.8.
    const v = verdicts([["a#1", "human.naturalness", "passed"], ["a#2", "human.naturalness", "passed"], ["b#1", "human.naturalness", "failed"]]);
    const d = evaluateGates(four, human(), v);
    expect(d).toMatchObject({ ok: false, decision: "fail", exit_code: 1, message: "1 required gate(s) failed" });
    expect(d.gates[0]!.message).toBe("human.naturalness: 2/3 reviewed trial(s) passed, pass rate below 0.8");
    // 4 of 4 passed, but the Wilson lower bound of 4/4 is 0.51 < 0.8.
    const all = verdicts(four.map((t) => [t.trial_id!, "human.naturalness", "passed"] as [string, string, HumanVerdict]));
    expect(evaluateGates(four, human(), all).ok).toBe(true);
    const wilson = evaluateGates(four, human({ wilson: true }), all);
    expect(wilson.ok).toBe(false);
    expect(wilson.gates[0]!.human!.compared_rate).toBeCloseTo(0.5101, 4);
  });

  it("human.semantic.<clause> reads people's verdicts on the clause's verifier id", () => {
    expect(reviewedVerifier("human.semantic.task_understanding")).toBe("semantic.task_understanding");
    expect(reviewedVerifier("human.pacing")).toBe("human.pacing");
    const config: GateConfig = { outcome, "human.semantic.task_understanding": { required: true, min_pass_rate: 1, wilson: false } };
    const d = evaluateGates(four, config, verdicts([["a#1", "semantic.task_understanding", "passed"], ["a#2", "human.naturalness", "failed"]]));
    expect(d).toMatchObject({ ok: true, exit_code: 0 });
    expect(d.gates[0]!.human).toMatchObject({ reviewed_verifier: "semantic.task_understanding", reviewed: 1, min_reviewed: 1 });
  });

  it("a real failure still decides (1); infrastructure errors outrank a gate awaiting reviews (3); an advisory human gate never decides", () => {
    const failing = evaluateGates([trial("a#1", "failed"), ...four.slice(1)], human());
    expect(failing).toMatchObject({ decision: "fail", exit_code: 1 });
    expect(failing.message).toBe("1 required gate(s) failed; required human gate(s) human.naturalness await reviews: review the trials (reviews.jsonl), then decide again with `crashlab gates <run-dir>`");
    const infra = evaluateGates([trial("a#1", "infrastructure_error"), ...four.slice(1)], human());
    expect(infra).toMatchObject({ decision: "infrastructure", exit_code: 3 });
    expect(infra.message).toMatch(/^infrastructure errors prevented a decision on 1 required gate\(s\); required human gate\(s\) human.naturalness await reviews/);
    expect(evaluateGates(four, human({ required: false }))).toMatchObject({ ok: true, exit_code: 0 });
  });

  it("the PLAN's human gates are required by default, need one review by default, and take the command line's overrides", () => {
    expect(humanGateConfig({ outcome: { required: true }, "human.pacing": { min_pass_rate: 0.9 } })).toEqual({
      "human.pacing": { required: true, min_pass_rate: 0.9, wilson: false, min_reviewed: 1, min_reviewed_share: 0 },
    });
    expect(humanGateConfig({ "human.pacing": {} }, { advisory: ["human.pacing"], require: ["human.prosody"], wilson: true })).toEqual({
      "human.pacing": { required: false, min_pass_rate: 1, wilson: true, min_reviewed: 1, min_reviewed_share: 0 },
      "human.prosody": { required: true, min_pass_rate: 1, wilson: true, min_reviewed: 1, min_reviewed_share: 0 },
    });
  });
});

describe("human gates in a PLAN", () => {
  const standIn = { kind: "stand-in", accepts: ["text"], describe: () => ({ kind: "stand-in", instructions: "", tools: [] }), start: () => { throw new Error("never started"); } };
  const plan = (gates: Record<string, unknown>) => definePlan({ name: "p", targets: { t: standIn as never }, cases: [], gates: gates as never });

  it("accepts human.<dimension> and human.<semantic clause>, with min_reviewed and min_reviewed_share", () => {
    const p = plan({ "human.naturalness": { required: true, min_pass_rate: 0.8, min_reviewed: 5 }, "human.semantic.task_understanding": { min_reviewed_share: 0.5 } });
    const resolved = resolveRun(p, { gates: { require: ["human.pacing"] } });
    expect(resolved.gate_config["human.naturalness"]).toEqual({ required: true, min_pass_rate: 0.8, wilson: false, min_reviewed: 5, min_reviewed_share: 0 });
    expect(resolved.gate_config["human.semantic.task_understanding"]).toEqual({ required: true, min_pass_rate: 1, wilson: false, min_reviewed: 1, min_reviewed_share: 0.5 });
    expect(resolved.gate_config["human.pacing"]).toMatchObject({ required: true, min_reviewed: 1 });
    // Human gates are no verifiers: nothing runs for them.
    expect(resolved.verifiers.map((v) => v.verifier.id)).not.toContain("human.naturalness");
  });

  it("refuses unknown human ids, review counts on automated gates and bad values, naming the setting", () => {
    expect(() => plan({ "human.loudness": {} })).toThrow(PlanError);
    expect(() => plan({ "human.loudness": {} })).toThrow(/gate for unknown human verdict "human.loudness" \(human gates: human.naturalness, human.prosody, human.pronunciation, human.pacing, human.semantic.task_understanding/);
    expect(() => plan({ "human.semantic.nope": {} })).toThrow(/unknown human verdict "human.semantic.nope"/);
    expect(() => plan({ outcome: { min_reviewed: 3 } })).toThrow(/PLAN.gates.outcome: unknown setting\(s\) "min_reviewed"/);
    expect(() => plan({ "human.pacing": { min_reviewed: 2.5 } })).toThrow(/PLAN.gates.human.pacing.min_reviewed: expected a whole number >= 0 \(got 2.5\)/);
    expect(() => plan({ "human.pacing": { min_reviewed_share: 2 } })).toThrow(/PLAN.gates.human.pacing.min_reviewed_share: expected a number from 0 to 1 \(got 2\)/);
    expect(() => resolveRun(plan({}), { gates: { require: ["human.loudness"] } })).toThrow(/unknown verifier "human.loudness" in a gate override; .*human gates: human.naturalness/);
  });
});
