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

describe("issue 8 item 5: a broken package verifier is an evaluation error, never infrastructure", () => {
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
