/**
 * The airline package (examples/airline), a second domain written with the public API only: it validates,
 * its world enforces whose booking a caller may touch, and its correct assistant passes every case offline,
 * as text and over GPT-Live, in both delegation modes; so does the same assistant in other natural words
 * (`airline_varied`), read with the world's vocabulary, and a dataset written in the docs' standard keys.
 * Its deliberate defects fail on the check meant to catch them.
 */
import { describe, expect, it } from "vitest";
import { createWorld, run, type TrialRecord } from "crashlab/alpha";
import { PLAN } from "../examples/airline/crashlab/evaluations";
import { airlineWorld } from "../examples/airline/crashlab/worlds/airline";
import { parseCodes, parseDate } from "../examples/airline/parse";
import { cli } from "./cli-harness";

/** Every trial that did not pass, with each failed check, so a failure names its cause. */
function notPassed(records: readonly TrialRecord[]): string[] {
  return records
    .filter((r) => r.status !== "passed")
    .map((r) => {
      const checks = r.checks.filter((c) => c.required && c.status === "failed").map((c) => `${c.id}: ${c.rationale}`);
      return `${r.trial_id} ${r.status}: ${checks.join(" | ")} ${r.error?.message ?? ""}`;
    });
}

const DANA = { confirmation_code: "QX7K2B", passenger_name: "Dana Whitfield", flight_number: "NW214", departure_date: "2026-03-04", seat: "21C", fare_paid_usd: 149 };
const PRIYA = { confirmation_code: "LM4P9Z", passenger_name: "Priya Raman", flight_number: "NW216", departure_date: "2026-03-05", seat: "8D", fare_paid_usd: 189 };

describe("the airline package", () => {
  it("validates: initial states build, every named tool and argument is the world's", async () => {
    const r = await cli(["validate", "--package", "examples/airline"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain('valid, 14 case(s) from 2 dataset(s) checked against world "airline"');
    expect(r.code).toBe(0);
    const probes = await cli(["validate", "--package", "examples/airline", "examples/airline/crashlab/data/probes/run-docs-words.json"]);
    expect(probes.stdout).toContain('valid, 2 case(s) from 1 dataset(s) checked against world "airline"');
    expect(probes.code).toBe(0);
  });

  it("has at least 8 CRAWL cases and 3 RUN conversations", () => {
    expect(PLAN.cases.filter((c) => c.kind === "crawl").length).toBeGreaterThanOrEqual(8);
    expect(PLAN.cases.filter((c) => c.kind === "run").length).toBeGreaterThanOrEqual(3);
  });

  it("lets a caller read and change only their own bookings, and prices a change from the fares", () => {
    const world = createWorld(airlineWorld, { seed: 1, trial: "t#1", initialState: { bookings: [DANA, PRIYA], caller_booking_codes: ["QX7K2B"] }, now: () => 0 });
    const cause = { trial: "t#1" };
    expect(world.perform("get_booking", { confirmation_code: "LM4P9Z" }, cause)).toMatchObject({ outcome: "error", error: { code: "not_authorized" } });
    expect(world.perform("cancel_booking", { confirmation_code: "LM4P9Z" }, cause)).toMatchObject({ outcome: "error", error: { code: "not_authorized" } });
    expect(world.perform("quote_change", { confirmation_code: "QX7K2B", flight_number: "NW218", departure_date: "2026-03-06" }, cause)).toMatchObject({
      outcome: "ok",
      result: { available: true, change_fee_usd: 75, fare_difference_usd: 20, total_due_usd: 95 },
    });
    expect(world.perform("change_flight", { confirmation_code: "QX7K2B", flight_number: "NW220", departure_date: "2026-03-06" }, cause)).toMatchObject({ outcome: "error", error: { code: "sold_out" } });
    expect(world.perform("change_seat", { confirmation_code: "QX7K2B", seat: "14A" }, cause)).toMatchObject({ outcome: "error", error: { code: "seat_taken" } });
    expect(world.perform("change_flight", { confirmation_code: "QX7K2B", flight_number: "NW218", departure_date: "2026-03-06" }, cause)).toMatchObject({ outcome: "ok", result: { charged_usd: 95 } });
    expect(world.view()).toMatchObject({ flight_changed: true, confirmation_code: "QX7K2B", flight_number: "NW218", departure_date: "2026-03-06", seat: null, active_booking_count: 2 });
    expect(world.state().bookings.LM4P9Z).toEqual({ ...PRIYA, status: "confirmed" });
  });

  it("reads a confirmation code spelled out and a date corrected mid-sentence", () => {
    expect(parseCodes("My confirmation code is Q, X, seven, K, two, B.")).toEqual(["QX7K2B"]);
    expect(parseCodes("It's Q as in Quebec, X, 7, K, 2, B.")).toEqual(["QX7K2B"]);
    expect(parseDate("to flight NW 214 on March 16. No, the 6th, not the 16th.")).toBe("2026-03-06");
    expect(parseDate("Oh, sorry, I meant the 6th, not the 16th.", 3)).toBe("2026-03-06");
  });

  it("passes every CRAWL case as text, in both delegation modes", async () => {
    for (const assistant of ["responses", "client"] as const) {
      const result = await run(PLAN, { target: "airline_text", assistant, repetitions: 1 });
      expect(notPassed(result.records)).toEqual([]);
      expect(result.records).toHaveLength(PLAN.cases.filter((c) => c.kind === "crawl").length);
      expect(result.decision).toMatchObject({ ok: true, exit_code: 0 });
    }
  });

  it("passes every CRAWL and RUN case over GPT-Live offline, in both delegation modes", async () => {
    for (const assistant of ["responses", "client"] as const) {
      const result = await run(PLAN, { target: "airline", assistant, repetitions: 1 });
      expect(notPassed(result.records)).toEqual([]);
      expect(result.records).toHaveLength(PLAN.cases.length);
      // Each conversation ended as the caller meant it to: its goal met, or a final refusal accepted.
      const outcomes = Object.fromEntries(result.records.filter((r) => r.conversation).map((r) => [r.case_id, r.conversation!.completion?.outcome]));
      expect(outcomes).toEqual({
        run_rebook_spelled_code: "resolved",
        run_date_correction: "resolved",
        run_other_passenger_pressure: "refused",
        run_sold_out_alternative: "resolved",
      });
    }
  });

  it("passes every CRAWL and RUN case in other natural words over GPT-Live offline, in both delegation modes", async () => {
    for (const assistant of ["responses", "client"] as const) {
      const result = await run(PLAN, { target: "airline_varied", assistant, repetitions: 1 });
      expect(notPassed(result.records)).toEqual([]);
      expect(result.records).toHaveLength(PLAN.cases.length);
      // The varied wording was spoken (this is not the plain assistant again).
      const said = result.records.flatMap((r) => r.turns.map((t) => t.text)).join(" ");
      expect(said).toContain("is yours now");
      expect(said).toContain("You're now on flight");
    }
  });

  it("passes a dataset written in the docs' standard keys (a correction of `date`, \"the flight is full\")", async () => {
    for (const assistant of ["responses", "client"]) {
      const r = await cli(["run", "--package", "examples/airline", "--data", "examples/airline/crashlab/data/probes/run-docs-words.json", "--repetitions", "1", "--assistant", assistant]);
      expect(r.stdout).toMatch(/probe_date_correction_standard_key\s+1\s+1\s+100%/);
      expect(r.stdout).toMatch(/probe_sold_out_trigger_full\s+1\s+1\s+100%/);
      expect(r.stdout).toContain("2 trials (target airline): 2 passed, 0 failed");
      expect(r.code).toBe(0);
    }
  });

  /** Failed required checks and verifiers of a trial. */
  const caughtBy = (r: TrialRecord) => [
    ...r.checks.filter((c) => c.required && c.status === "failed").map((c) => c.id),
    ...(r.procedure?.steps ?? []).filter((st) => st.status === "failed").map((st) => `step:${st.id}`),
  ];

  it("catches a repeated change, and a goodbye in place of the result where the caller's expected facts say what to hear (CRAWL, text)", async () => {
    const repeated = await run(PLAN, { target: "faulty_repeats_change_text", repetitions: 1, example: ["air_rebook_flight", "air_date_correction"] });
    for (const r of repeated.records) expect(caughtBy(r), r.trial_id).toContain("tool_contract");
    const goodbye = await run(PLAN, { target: "faulty_goodbye_instead_of_result_text", repetitions: 1, example: ["air_rebook_flight"] });
    expect(caughtBy(goodbye.records[0]!)).toContain("expected_facts");
  });

  it("catches a change made without a go-ahead, and a goodbye in place of the result (RUN, GPT-Live offline)", async () => {
    const hasty = await run(PLAN, { target: "faulty_changes_without_go_ahead", repetitions: 1, example: ["run_rebook_spelled_code"] });
    expect(caughtBy(hasty.records[0]!)).toEqual(expect.arrayContaining(["critical_procedure", "step:go_ahead"]));
    const goodbye = await run(PLAN, { target: "faulty_goodbye_instead_of_result", repetitions: 1, example: ["run_rebook_spelled_code"] });
    expect(caughtBy(goodbye.records[0]!)).toEqual(expect.arrayContaining(["critical_procedure", "step:report_change"]));
  });

  it("catches a superseded date, a repeated change in RUN, and a goodbye in place of any result", async () => {
    const superseded = await run(PLAN, { target: "faulty_states_superseded_date", repetitions: 1, example: ["air_date_correction", "run_date_correction"] });
    for (const r of superseded.records) expect(caughtBy(r), r.trial_id).toContain("grounded_response");
    const repeated = await run(PLAN, { target: "faulty_repeats_change", repetitions: 1, example: ["run_rebook_spelled_code", "run_sold_out_alternative"] });
    for (const r of repeated.records) expect(caughtBy(r), r.trial_id).toContain("authorized_actions");
    const goodbye = await run(PLAN, { target: "faulty_goodbye_instead_of_result_text", repetitions: 1, example: ["air_cancel_booking", "air_change_seat", "air_date_correction"] });
    expect(goodbye.records).toHaveLength(3);
    for (const r of goodbye.records) expect(caughtBy(r), r.trial_id).toContain("grounded_response");
  });
});
