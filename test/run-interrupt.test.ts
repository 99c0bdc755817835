import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { evaluateGates } from "../src/core/gate/gates";
import { junitXml } from "../src/core/report/junit";
import { run, runDecision, type Interruption } from "../src/core/run/run";

/** An interrupted run has no pass decision; what did not run is listed, never hidden. */
describe("an interrupted run never reads as PASS", () => {
  it("stops starting trials at the signal, keeps the finished ones, and decides `interrupted` with the signal's exit code", async () => {
    const interrupt = new AbortController();
    const result = await run(PLAN, {
      target: "text_restaurant",
      selection: { tags: ["crawl"] },
      repetitions: 2,
      onTrialEnd: (_record, done) => {
        if (done === 3) interrupt.abort("SIGTERM");
      },
      signal: interrupt.signal,
    });
    expect(result.records).toHaveLength(3);
    expect(result.records.every((r) => r.status === "passed")).toBe(true);
    // The gates over the three finished trials pass, but the run does not.
    expect(result.gates.ok).toBe(true);
    expect(result.decision).toMatchObject({ ok: false, decision: "interrupted", exit_code: 143 });
    expect(result.decision.message).toMatch(/^interrupted by SIGTERM: 3 of 56 trial\(s\) finished, 53 not run/);
    expect(result.interruption!.signal).toBe("SIGTERM");
    expect(result.interruption!.not_run).toHaveLength(53);
    expect(result.interruption!.not_run.every((t) => t.reason === "not started")).toBe(true);
    expect(result.interruption!.not_run[0]).toMatchObject({ trial_id: result.records[2]!.trial_id.replace("#1", "#2"), reason: "not started" });
  });

  it("abandons trials still running at a second signal and lists them as such", async () => {
    const interrupt = new AbortController();
    const abandon = new AbortController();
    const result = await run(PLAN, {
      target: "restaurant",
      selection: { ids: ["harbor_001", "harbor_002"] },
      concurrency: 2,
      onTrialStart: () => {
        interrupt.abort("SIGINT");
        queueMicrotask(() => abandon.abort("SIGINT"));
      },
      signal: interrupt.signal,
      abandon: abandon.signal,
    });
    expect(result.records).toHaveLength(0);
    expect(result.decision).toMatchObject({ decision: "interrupted", exit_code: 130 });
    expect(result.interruption!.not_run.map((t) => [t.trial_id, t.reason])).toEqual([
      ["harbor_001#1", "abandoned while running"],
      // The second worker saw the interrupt before starting its trial.
      ["harbor_002#1", "not started"],
    ]);
  });

  it("a run whose every trial finished keeps the gates' decision even if a signal came late", async () => {
    const interrupt = new AbortController();
    const result = await run(PLAN, { target: "text_restaurant", selection: { ids: ["harbor_003"] }, signal: interrupt.signal, onTrialEnd: () => interrupt.abort("SIGINT") });
    expect(result.interruption).toBeNull();
    expect(result.decision).toMatchObject({ ok: true, decision: "pass", exit_code: 0 });
  });

  it("maps each signal to its exit code, and never lets an interrupted run pass", () => {
    const passing = evaluateGates([{ case_id: "a", status: "passed", assessments: [{ verifier: "outcome", status: "passed", required: true }] } as never], {
      outcome: { required: true, min_pass_rate: 1, wilson: false },
    });
    const cut = (signal: string): Interruption => ({ signal, not_run: [{ trial_id: "b#1", case_id: "b", reason: "not started" }] });
    expect(runDecision(passing, null, 1)).toMatchObject({ ok: true, decision: "pass", exit_code: 0 });
    expect(runDecision(passing, cut("SIGINT"), 2)).toMatchObject({ ok: false, decision: "interrupted", exit_code: 130 });
    expect(runDecision(passing, cut("SIGTERM"), 2).exit_code).toBe(143);
    expect(runDecision(passing, cut("SIGHUP"), 2).exit_code).toBe(129);
  });

  it("junit.xml marks the trials not run as skipped, with the reason", () => {
    const xml = junitXml("r1", [], { signal: "SIGINT", not_run: [{ trial_id: "case_a#2", case_id: "case_a", reason: "not started" }] });
    expect(xml).toContain(`<testsuites name="crashlab r1" tests="1" failures="0" errors="0" skipped="1">`);
    expect(xml).toContain(`<testcase classname="case_a" name="case_a#2" time="0.000">\n      <skipped message="not run (not started): the run was interrupted by SIGINT"/>`);
  });
});
