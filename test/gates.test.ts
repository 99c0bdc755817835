import { describe, expect, it } from "vitest";
import { evaluateGates, type GateConfig } from "../src/core/gate/gates";
import type { Assessment, TrialRecord, TrialStatus } from "../src/core/run/record";

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
