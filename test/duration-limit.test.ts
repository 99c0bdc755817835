import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { loadDataset, parseDataset } from "../src/core/dataset/load";
import type { ProcedureResult } from "../src/core/record/trial-record";
import { run, resolveRun, trialContext } from "../src/core/run/run";
import { CachedSynthesizer, EspeakSynthesizer } from "../src/core/speech/index";
import { conversationDurationLimit, describeDurationLimit, expectedTurns } from "../src/core/trial/conversation/duration-limit";
import { limitAfterProcedure } from "../src/core/trial/stages/verify";
import { offlineConversation } from "./conversation-settings";

/**
 * A RUN conversation's duration limit fits its case: declared in the dataset, else derived from the
 * agenda and golden path, with `--max-duration-seconds` overriding both; a limit hit after every
 * procedure step passed says so.
 */
const runData = loadDataset(new URL("../crashlab/data/run.json", import.meta.url));
const scenario = (id: string) => runData.dataset.scenarios.find((s) => s.id === id)!;

describe("the conversation duration limit", () => {
  it("is derived from the case: 30 s + 20 s per expected turn, at least 90 s", () => {
    // 5 agenda items, 11 golden turns: max(11, 2 × 5 + 1) = 11 → 30 + 220 = 250 s.
    expect(conversationDurationLimit(scenario("run_booking_step_by_step"))).toEqual({ ms: 250_000, source: "derived", expected_turns: 11 });
    // 3 items, 7 golden turns → 170 s; 4 items, 9 turns → 210 s.
    expect(conversationDurationLimit(scenario("run_missing_name"))).toEqual({ ms: 170_000, source: "derived", expected_turns: 7 });
    expect(conversationDurationLimit(scenario("run_unauthorized_pressure"))).toEqual({ ms: 210_000, source: "derived", expected_turns: 9 });
    // The bundled conversations take 43–76 s offline (5.5–8.4 s per golden turn): every limit is more than twice that.
    const limits = runData.dataset.scenarios.map((s) => conversationDurationLimit(s).ms / 1000);
    expect(Math.min(...limits)).toBe(170);
  });

  it("counts an opening plus a question and an answer per agenda item when the golden path says fewer or nothing", () => {
    const base = scenario("run_missing_name");
    const noGolden = { ...base, expected: { ...base.expected, golden_path: undefined } };
    expect(expectedTurns(noGolden)).toBe(7);
    const fewer = { ...base, expected: { ...base.expected, golden_path: { turns: 2, steps: [] } } };
    expect(expectedTurns(fewer)).toBe(7);
    const more = { ...base, expected: { ...base.expected, golden_path: { turns: 8, steps: [] } } };
    expect(expectedTurns(more)).toBe(8);
    // One agenda item, no golden path: 3 turns → 30 + 60 = 90 s, the floor; none at all: still 90 s.
    const oneItem = { ...noGolden, simulation_parameters: { ...base.simulation_parameters!, agenda: base.simulation_parameters!.agenda.slice(0, 1) } };
    expect(conversationDurationLimit(oneItem)).toEqual({ ms: 90_000, source: "derived", expected_turns: 3 });
    expect(conversationDurationLimit({ expected: noGolden.expected, simulation_parameters: undefined })).toEqual({ ms: 90_000, source: "derived", expected_turns: 1 });
    // Two agenda items and no golden path: 5 turns → 130 s.
    const twoItems = { ...oneItem, simulation_parameters: { ...base.simulation_parameters!, agenda: base.simulation_parameters!.agenda.slice(0, 2) } };
    expect(conversationDurationLimit(twoItems).ms).toBe(130_000);
  });

  it("takes the case's declaration over the derived limit, and the command line over both", () => {
    const base = scenario("run_missing_name");
    const declared = { ...base, simulation_parameters: { ...base.simulation_parameters!, max_duration_seconds: 45.5 } };
    expect(conversationDurationLimit(declared)).toEqual({ ms: 45_500, source: "case" });
    expect(conversationDurationLimit(declared, 60_000)).toEqual({ ms: 60_000, source: "command_line" });
    expect(conversationDurationLimit(base, 60_000)).toEqual({ ms: 60_000, source: "command_line" });
    expect(describeDurationLimit(conversationDurationLimit(base))).toBe("170 s (derived from the case: 7 expected turns)");
    expect(describeDurationLimit(conversationDurationLimit(declared))).toBe("45.5 s (the case's simulation_parameters.max_duration_seconds)");
    expect(describeDurationLimit(conversationDurationLimit(base, 8000))).toBe("8 s (--max-duration-seconds)");
  });

  it("is an optional dataset field, checked with the scenario and field named; reference-shaped datasets load without it", () => {
    const raw = JSON.parse(JSON.stringify(runData.dataset));
    raw.scenarios[0].simulation_parameters.max_duration_seconds = 120;
    expect(parseDataset(raw, "run.json").scenarios[0]!.simulation_parameters!.max_duration_seconds).toBe(120);
    raw.scenarios[0].simulation_parameters.max_duration_seconds = 0;
    expect(() => parseDataset(raw, "run.json")).toThrow(/scenarios\[0\]\.simulation_parameters\.max_duration_seconds/);
    raw.scenarios[0].simulation_parameters.max_duration_seconds = 4000;
    expect(() => parseDataset(raw, "run.json")).toThrow(/max_duration_seconds/);
    const reference = loadDataset(new URL("./fixtures/reference-run-shape.json", import.meta.url)).dataset;
    for (const s of reference.scenarios) expect(conversationDurationLimit(s)).toEqual({ ms: 170_000, source: "derived", expected_turns: 7 });
  });

  it("raises a RUN trial's default time limit to make room for its conversation, but not one set on purpose", () => {
    const spec = (id: string) => resolveRun(PLAN, {}).trials.find((t) => t.case.id === id)!;
    const limitsOf = (id: string, options = {}, plan = PLAN) => trialContext(plan, options, resolveRun(plan, options), spec(id), { commit: null, dirty: null }).limits;
    // 250 s of conversation + 30 s for closing and grading; CRAWL keeps the 120 s default.
    expect(limitsOf("run_booking_step_by_step").time_ms).toBe(280_000);
    expect(limitsOf("harbor_001").time_ms).toBe(120_000);
    // --max-duration-seconds 600 brings the time limit along (it used to cut such a conversation at 120 s).
    expect(limitsOf("run_missing_name", { conversation: offlineConversation({ max_duration_ms: 600_000 }) }).time_ms).toBe(630_000);
    // A short override never lowers the default.
    expect(limitsOf("run_missing_name", { conversation: offlineConversation({ max_duration_ms: 8000 }) }).time_ms).toBe(120_000);
    // A time limit chosen in the run options or the PLAN stands.
    expect(limitsOf("run_missing_name", { limits: { time_ms: 60_000 } }).time_ms).toBe(60_000);
    expect(limitsOf("run_missing_name", {}, { ...PLAN, limits: { time_ms: 100_000 } }).time_ms).toBe(100_000);
  });
});

describe("a limit hit after every procedure step passed", () => {
  const step = (id: string, status: "passed" | "failed") => ({ id, kind: "tool_call", required: true, critical: true, status, rationale: "", evidence_ids: [], at_ms: 1000 });
  const procedure = (...steps: ReturnType<typeof step>[]): ProcedureResult => ({ id: "p", adherence: null, steps });
  const note = "duration_limit: the conversation did not finish within 170 s (derived from the case: 7 expected turns)";

  it("says so, naming the steps; says nothing extra when a step failed or there is no procedure", () => {
    expect(limitAfterProcedure(note, procedure(step("ask_name", "passed"), step("book", "passed")))).toBe(`${note} — hit after every procedure step had passed (2 of 2: ask_name, book)`);
    expect(limitAfterProcedure(note, procedure(step("ask_name", "passed"), step("book", "failed")))).toBeNull();
    expect(limitAfterProcedure(note, procedure())).toBeNull();
    expect(limitAfterProcedure(note, null)).toBeNull();
  });

  const speech = new CachedSynthesizer(new EspeakSynthesizer({ voice: "coral" }), { root: mkdtempSync(join(tmpdir(), "duration-limit-speech-")) });
  const RUN_PLAN = { ...PLAN, cases: PLAN.cases.filter((c) => c.kind === "run") };
  const conversation = (max_duration_ms?: number) => ({ speech, conversation: offlineConversation(max_duration_ms === undefined ? {} : { max_duration_ms }), selection: { ids: ["run_missing_name"] } });

  it("in a conversation cut during its goodbye: the rationale states the limit, its source and that every step had passed", async () => {
    const full = (await run(RUN_PLAN, conversation())).records[0]!;
    expect(full.status).toBe("passed");
    const lastStep = Math.max(...full.procedure!.steps.map((s) => s.at_ms ?? 0));
    // Cut 1 s before the conversation would have ended, well after the last step.
    const cutAt = Math.ceil((full.duration_ms - 1000) / 1000) * 1000;
    expect(cutAt).toBeGreaterThan(lastStep + 1000);
    const cut = (await run(RUN_PLAN, conversation(cutAt))).records[0]!;
    expect(cut.conversation!.completion.ended).toBe("duration_limit");
    const completed = cut.checks.find((c) => c.id === "conversation_completed")!;
    expect(completed.status).toBe("failed");
    const steps = cut.procedure!.steps.map((s) => s.id);
    expect(completed.rationale).toBe(`duration_limit: the conversation did not finish within ${cutAt / 1000} s (--max-duration-seconds) — hit after every procedure step had passed (${steps.length} of ${steps.length}: ${steps.join(", ")})`);
    // Cut early, before the steps: the limit alone.
    const early = (await run(RUN_PLAN, conversation(8000))).records[0]!;
    expect(early.checks.find((c) => c.id === "conversation_completed")!.rationale).toBe("duration_limit: the conversation did not finish within 8 s (--max-duration-seconds)");
  }, 300_000);
});
