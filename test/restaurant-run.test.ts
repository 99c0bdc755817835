import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { restaurantFaultsShownIn } from "../examples/restaurant/policy";
import { run } from "../src/core/run/run";
import type { TrialRecord } from "../src/core/record/trial-record";

/**
 * The bundled package end to end at the text level: the correct policy passes every case; every
 * deliberate fault is caught on the check it is meant to trip, and the run's gate decision says so.
 */
describe("restaurant package at the text level", () => {
  it("has at least 21 CRAWL cases", () => {
    expect(PLAN.cases.filter((c) => c.kind === "crawl").length).toBeGreaterThanOrEqual(21);
  });

  it("passes every trial with the correct policy, in both delegation modes", async () => {
    for (const delegation of ["responses", "client"] as const) {
      const result = await run(PLAN, { target: "text_restaurant", target_settings: { delegation }, repetitions: 2 });
      const failing = result.records.filter((r) => r.status !== "passed").map((r) => `${r.trial_id}: ${r.assessments.map((a) => `${a.verifier}=${a.status} ${a.rationale}`).join(" | ")} ${r.error?.message ?? ""}`);
      expect(failing).toEqual([]);
      expect(result.records).toHaveLength(PLAN.cases.filter((c) => c.kind === "crawl").length * 2);
      expect(result.decision).toMatchObject({ ok: true, exit_code: 0 });
    }
  });

  /** For each fault: the checks (or verifiers) that must catch it on at least one scenario. */
  const intended: Record<string, string[]> = {
    books_uncorrected_date: ["application_state", "tool_contract"],
    double_books: ["no_double_booking", "tool_contract"],
    confirms_without_tool: ["tool_contract", "application_state"],
    books_on_availability_question: ["authorized_actions", "application_state"],
    guesses_missing_name: ["delegation_policy", "application_state", "tool_contract"],
    cancels_unauthorized: ["authorized_actions"],
    delegates_facts_question: ["delegation_policy"],
    ignores_history: ["application_state", "tool_contract"],
    ignores_late_correction: ["application_state", "tool_contract"],
  };

  /** Every failed required check id and failed required verifier id of a trial. */
  function caughtBy(r: TrialRecord): string[] {
    const checks = r.checks.filter((c) => c.required && c.status === "failed").map((c) => c.id);
    const verifiers = r.assessments.filter((a) => a.required && a.status === "failed").map((a) => a.verifier);
    return [...checks, ...verifiers];
  }

  it("covers every fault in the matrix", () => {
    // Faults only a conversation can show are caught by the RUN cases (test/restaurant-conversation.test.ts).
    expect(Object.keys(intended).sort()).toEqual(restaurantFaultsShownIn("single_turn").sort());
  });

  it.each(Object.entries(intended))("catches the %s fault on its intended checks", async (fault, checks) => {
    const result = await run(PLAN, { target: `text_faulty_${fault}` });
    const failed = result.records.filter((r) => r.status === "failed");
    expect(failed.length).toBeGreaterThan(0);
    expect(result.records.filter((r) => r.status === "infrastructure_error")).toEqual([]);
    const seen = new Set(failed.flatMap(caughtBy));
    for (const id of checks) expect(seen, `${fault} should fail ${id}`).toContain(id);
    expect(result.decision).toMatchObject({ ok: false, exit_code: 1 });
  });
});
