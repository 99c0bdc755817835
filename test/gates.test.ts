import { describe, expect, it } from "vitest";
import { evaluateGates, type GateConfig } from "../src/core/gate/gates";
import type { TrialRecord, TrialStatus } from "../src/core/record/trial-record";
import type { Assessment } from "../src/core/record/assessment";

/** Only the fields gates read; the cast keeps the fixture small and the gate function honest about its inputs. */
function trial(case_id: string, status: TrialStatus, verdicts: Record<string, Assessment["status"]>): TrialRecord {
  return {
    case_id,
    status,
    assessments: Object.entries(verdicts).map(([verifier, s]) => ({ verifier, version: "1", kind: "deterministic", status: s, required: true, rationale: "", evidence_ids: [] })),
  } as unknown as TrialRecord;
}

const strict: GateConfig = { outcome: { required: true, min_pass_rate: 1, wilson: false } };

describe("evaluateGates", () => {
  it("fails closed on an empty run", () => {
    const d = evaluateGates([], strict);
    expect(d.ok).toBe(false);
    expect(d.exit_code).toBe(1);
    expect(d.message).toMatch(/no trials/);
  });

  it("passes when every case meets the rate", () => {
    const d = evaluateGates([trial("a", "passed", { outcome: "passed" }), trial("b", "passed", { outcome: "passed" })], strict);
    expect(d).toMatchObject({ ok: true, exit_code: 0 });
  });

  it("fails with exit 1 when a required verifier failed", () => {
    const d = evaluateGates([trial("a", "passed", { outcome: "passed" }), trial("a", "failed", { outcome: "failed" })], strict);
    expect(d).toMatchObject({ ok: false, exit_code: 1 });
    expect(d.gates[0]!.cases[0]).toMatchObject({ case_id: "a", trials: 2, passes: 1, pass_rate: 0.5, ok: false });
  });

  it("treats a required verifier that did not run as a failure, never a pass", () => {
    const missing = evaluateGates([trial("a", "passed", {})], { ...strict, custom: { required: true, min_pass_rate: 1, wilson: false } });
    expect(missing.ok).toBe(false);
    const errored = evaluateGates([trial("a", "inconclusive", { outcome: "error" })], strict);
    expect(errored.ok).toBe(false);
    const inconclusive = evaluateGates([trial("a", "inconclusive", { outcome: "inconclusive" })], strict);
    expect(inconclusive).toMatchObject({ ok: false, exit_code: 1 });
  });

  it("reports exit 3 when only infrastructure errors stand between the run and a pass", () => {
    const d = evaluateGates([trial("a", "passed", { outcome: "passed" }), trial("a", "infrastructure_error", { outcome: "not_run" })], strict);
    expect(d).toMatchObject({ ok: false, exit_code: 3 });
    // …but a real failure elsewhere is a decision: exit 1.
    const mixed = evaluateGates([trial("a", "infrastructure_error", { outcome: "not_run" }), trial("b", "failed", { outcome: "failed" })], strict);
    expect(mixed.exit_code).toBe(1);
  });

  it("applies min pass rate and the Wilson lower bound", () => {
    const four = [1, 2, 3, 4].map(() => trial("a", "passed", { outcome: "passed" }));
    const five = [...four, trial("a", "failed", { outcome: "failed" })];
    expect(evaluateGates(five, { outcome: { required: true, min_pass_rate: 0.8, wilson: false } }).ok).toBe(true);
    expect(evaluateGates(five, { outcome: { required: true, min_pass_rate: 0.81, wilson: false } }).ok).toBe(false);
    // 4/5 has a Wilson lower bound of 0.3755: below 0.5.
    expect(evaluateGates(five, { outcome: { required: true, min_pass_rate: 0.5, wilson: true } }).ok).toBe(false);
    expect(evaluateGates(five, { outcome: { required: true, min_pass_rate: 0.3, wilson: true } }).ok).toBe(true);
  });

  it("lets advisory gates fail without deciding, but needs at least one required gate", () => {
    const records = [trial("a", "passed", { outcome: "passed", style: "failed" })];
    const d = evaluateGates(records, { ...strict, style: { required: false, min_pass_rate: 1, wilson: false } });
    expect(d.ok).toBe(true);
    expect(d.gates.find((g) => g.verifier === "style")!.ok).toBe(false);
    expect(evaluateGates(records, { style: { required: false, min_pass_rate: 1, wilson: false } }).ok).toBe(false);
  });
});

describe("a broken package verifier is an evaluation error, never infrastructure", () => {
  it("exits 4 when only a verifier error stands between the run and a pass", () => {
    const d = evaluateGates([trial("a", "passed", { outcome: "passed" }), trial("a", "inconclusive", { outcome: "error" })], strict);
    expect(d).toMatchObject({ ok: false, decision: "evaluation_error", exit_code: 4 });
    expect(d.gates[0]).toMatchObject({ blocked_by_verifier_error: true, blocked_by_infrastructure: false });
    expect(d.gates[0]!.cases[0]).toMatchObject({ missing: 1, verifier_errors: 1 });
    expect(d.message).toMatch(/verifier errors prevented a decision on 1 required gate\(s\)/);
    expect(d.message).not.toMatch(/infrastructure/);
  });

  it("counts a required verifier missing from a trial that ran as the evaluation's defect", () => {
    const d = evaluateGates([trial("a", "passed", { outcome: "passed" })], { ...strict, custom: { required: true, min_pass_rate: 1, wilson: false } });
    expect(d).toMatchObject({ decision: "evaluation_error", exit_code: 4 });
  });

  it("a verifier error outranks infrastructure errors, and a real failure outranks both", () => {
    const both = evaluateGates([trial("a", "infrastructure_error", { outcome: "not_run" }), trial("b", "inconclusive", { outcome: "error" })], strict);
    expect(both).toMatchObject({ decision: "evaluation_error", exit_code: 4 });
    const real = evaluateGates([trial("a", "inconclusive", { outcome: "error" }), trial("b", "failed", { outcome: "failed" })], strict);
    expect(real).toMatchObject({ decision: "fail", exit_code: 1 });
    const infra = evaluateGates([trial("a", "infrastructure_error", { outcome: "not_run" })], strict);
    expect(infra).toMatchObject({ decision: "infrastructure", exit_code: 3 });
    expect(infra.gates[0]!.cases[0]).toMatchObject({ missing: 1, verifier_errors: 0 });
  });
});

/** A rule in one line: required, minimum pass rate, Wilson or raw. */
const rule = (min_pass_rate = 1, wilson = false, required = true) => ({ required, min_pass_rate, wilson });

describe("gates, worked examples", () => {
  it("one real failure plus one infrastructure-blocked gate exits 1", () => {
    // `outcome` truly fails on case b; `safety` lacks only case a's second verdict (an infrastructure error).
    const records = [
      trial("a", "passed", { outcome: "passed", safety: "passed" }),
      trial("a", "infrastructure_error", { outcome: "not_run", safety: "not_run" }),
      trial("b", "failed", { outcome: "failed", safety: "passed" }),
    ];
    const d = evaluateGates(records, { outcome: rule(), safety: rule() });
    expect(d).toMatchObject({ ok: false, decision: "fail", exit_code: 1, message: "2 required gate(s) failed" });
    expect(d.gates.map((g) => [g.verifier, g.blocked_by_infrastructure, g.blocked_by_verifier_error])).toEqual([
      ["outcome", false, false],
      ["safety", true, false],
    ]);
  });

  it("a failure next to an infrastructure error is still a failure: even a passing retry leaves 1 of 2", () => {
    const d = evaluateGates([trial("a", "failed", { outcome: "failed" }), trial("a", "infrastructure_error", { outcome: "not_run" })], strict);
    expect(d).toMatchObject({ decision: "fail", exit_code: 1 });
    expect(d.gates[0]).toMatchObject({ blocked_by_infrastructure: false, blocked_by_verifier_error: false });
    expect(d.gates[0]!.cases[0]).toMatchObject({ trials: 2, passes: 0, missing: 1, verifier_errors: 0, pass_rate: 0 });
  });

  it("a passing gate is blocked by nothing", () => {
    const d = evaluateGates([trial("a", "passed", { outcome: "passed" })], strict);
    expect(d.gates[0]).toMatchObject({ ok: true, blocked_by_infrastructure: false, blocked_by_verifier_error: false });
  });

  it("Wilson gate with an infrastructure error: 4 passes + 1 missing would clear 0.5, so the run exits 3", () => {
    // Wilson lower bound of 4/5 is 0.3755 (below 0.5); of 5/5 it is 0.5655 (above): only the missing verdict blocks.
    const records = [...[1, 2, 3, 4].map(() => trial("a", "passed", { outcome: "passed" })), trial("a", "infrastructure_error", { outcome: "not_run" })];
    const d = evaluateGates(records, { outcome: rule(0.5, true) });
    expect(d).toMatchObject({ decision: "infrastructure", exit_code: 3, message: "infrastructure errors prevented a decision on 1 required gate(s)" });
    expect(d.gates[0]!.cases[0]!.compared_rate).toBeCloseTo(0.3755, 4);
    expect(d.gates[0]!.message).toBe("outcome: 1 case(s) below Wilson lower bound 0.5: a 4/5 (1 without a verdict)");
    // With a failure instead of the infrastructure error the same numbers are a real failure.
    const failed = evaluateGates([...records.slice(0, 4), trial("a", "failed", { outcome: "failed" })], { outcome: rule(0.5, true) });
    expect(failed).toMatchObject({ decision: "fail", exit_code: 1 });
  });

  it("Wilson gate: 1 pass + 1 missing out of 2 cannot reach 0.5 even if the missing one passed, so it exits 1", () => {
    // Wilson lower bound of 2/2 is 0.342: a retry could not clear 0.5, so the failure is real.
    const d = evaluateGates([trial("a", "passed", { outcome: "passed" }), trial("a", "infrastructure_error", { outcome: "not_run" })], { outcome: rule(0.5, true) });
    expect(d).toMatchObject({ decision: "fail", exit_code: 1 });
  });

  it("counts only passed, failed and inconclusive assessments as verdicts", () => {
    const records = [
      trial("a", "passed", { outcome: "passed" }),
      trial("a", "failed", { outcome: "failed" }),
      trial("a", "inconclusive", { outcome: "inconclusive" }),
      trial("a", "passed", { outcome: "not_applicable" }),
      trial("a", "inconclusive", { outcome: "not_run" }),
      trial("a", "inconclusive", { outcome: "error" }),
      trial("a", "passed", {}),
    ];
    expect(evaluateGates(records, strict).gates[0]!.verdicts).toBe(3);
  });

  it("a not-applicable verdict counts as a pass", () => {
    const d = evaluateGates([trial("a", "passed", { outcome: "not_applicable" }), trial("a", "passed", { outcome: "passed" })], strict);
    expect(d).toMatchObject({ ok: true, exit_code: 0, message: "all 1 required gate(s) passed" });
    expect(d.gates[0]!.cases[0]).toMatchObject({ passes: 2, missing: 0, pass_rate: 1 });
  });

  it("an infrastructure-error trial never passes, whatever verdict it carries", () => {
    const d = evaluateGates([trial("a", "infrastructure_error", { outcome: "passed" })], strict);
    expect(d).toMatchObject({ decision: "infrastructure", exit_code: 3 });
    expect(d.gates[0]!.cases[0]).toMatchObject({ passes: 0, missing: 1, verifier_errors: 0 });
  });

  it("an errored verifier in an infrastructure-error trial is infrastructure, not a verifier error", () => {
    const d = evaluateGates([trial("a", "infrastructure_error", { outcome: "error" })], strict);
    expect(d).toMatchObject({ decision: "infrastructure", exit_code: 3 });
    expect(d.gates[0]!.cases[0]).toMatchObject({ missing: 1, verifier_errors: 0 });
  });

  it("a verifier not run in a trial that ran is missing but not a verifier error", () => {
    const d = evaluateGates([trial("a", "inconclusive", { outcome: "not_run" })], strict);
    expect(d.gates[0]!.cases[0]).toMatchObject({ passes: 0, missing: 1, verifier_errors: 0 });
    expect(d.gates[0]).toMatchObject({ blocked_by_verifier_error: false });
  });

  it("names the failing cases with their counts; a passing gate says what it checked", () => {
    const records = [
      trial("a", "passed", { outcome: "passed" }),
      trial("a", "inconclusive", { outcome: "error" }),
      trial("b", "failed", { outcome: "failed" }),
      trial("c", "passed", { outcome: "passed" }),
      trial("d", "infrastructure_error", { outcome: "not_run" }),
    ];
    const d = evaluateGates(records, { outcome: rule(), style: rule(0.5, false, false) });
    expect(d.gates.find((g) => g.verifier === "outcome")!.message).toBe(
      "outcome: 3 case(s) below pass rate 1: a 1/2 (1 without a verdict, 1 of them by a verifier error), b 0/1, d 0/1 (1 without a verdict)",
    );
    // One pass in one trial has a Wilson lower bound of 0.2065.
    const passing = evaluateGates([trial("a", "passed", { outcome: "passed" })], { outcome: rule(0.2, true) });
    expect(passing.gates[0]!.message).toBe("outcome: every case's Wilson lower bound >= 0.2");
    expect(evaluateGates([trial("a", "passed", { outcome: "passed" })], strict).gates[0]!.message).toBe("outcome: every case's pass rate >= 1");
  });

  it("lists at most five failing cases, then an ellipsis", () => {
    const six = ["a", "b", "c", "d", "e", "f"].map((id) => trial(id, "failed", { outcome: "failed" }));
    expect(evaluateGates(six, strict).gates[0]!.message).toBe("outcome: 6 case(s) below pass rate 1: a 0/1, b 0/1, c 0/1, d 0/1, e 0/1, …");
    expect(evaluateGates(six.slice(0, 5), strict).gates[0]!.message).toBe("outcome: 5 case(s) below pass rate 1: a 0/1, b 0/1, c 0/1, d 0/1, e 0/1");
  });

  it("a verifier error and an infrastructure error on two gates: exit 4, naming the one gate a verifier error blocked", () => {
    const records = [
      trial("a", "passed", { outcome: "passed", safety: "passed" }),
      trial("a", "inconclusive", { outcome: "error", safety: "passed" }),
      trial("b", "infrastructure_error", { outcome: "not_run", safety: "not_run" }),
    ];
    const d = evaluateGates(records, { outcome: rule(), safety: rule() });
    expect(d).toMatchObject({ decision: "evaluation_error", exit_code: 4 });
    expect(d.message).toBe(
      "verifier errors prevented a decision on 1 required gate(s): a verifier or clause of the evaluation package is broken (see each trial's assessment)",
    );
    expect(evaluateGates(records.slice(2), { outcome: rule(), safety: rule() }).message).toBe("infrastructure errors prevented a decision on 2 required gate(s)");
  });

  it("says why an empty run or a run without required gates cannot pass", () => {
    expect(evaluateGates([], strict)).toEqual({ ok: false, decision: "fail", exit_code: 1, gates: [], message: "no trials ran: an empty run cannot pass its gates" });
    const advisoryOnly = evaluateGates([trial("a", "passed", { outcome: "passed" })], { outcome: rule(1, false, false) });
    expect(advisoryOnly).toMatchObject({ ok: false, decision: "fail", exit_code: 1, message: "no required verifier is configured: nothing can pass the gates" });
    expect(advisoryOnly.gates).toHaveLength(1);
  });

  it("reports gates in verifier order and cases in the order they first ran", () => {
    const d = evaluateGates([trial("b", "passed", { outcome: "passed", alpha: "passed" }), trial("a", "passed", { outcome: "passed", alpha: "passed" })], {
      outcome: rule(),
      alpha: rule(),
    });
    expect(d.gates.map((g) => g.verifier)).toEqual(["alpha", "outcome"]);
    expect(d.gates[0]!.cases.map((c) => c.case_id)).toEqual(["b", "a"]);
    expect(d.message).toBe("all 2 required gate(s) passed");
  });
});
