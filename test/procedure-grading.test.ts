import { beforeEach, describe, expect, it } from "vitest";
import { Scenario } from "../src/core/dataset/schema";
import { buildEvidenceCatalog } from "../src/core/judge/evidence";
import { ProcedureResult, TaskMetrics, type ToolExecution, Turn } from "../src/core/record/trial-record";
import { ResultsTrial } from "../src/core/record/results";
import { grade as gradeIn, type GradingInput } from "../src/core/verify/deterministic";
import { gradeProcedure as gradeProcedureIn, procedureAdherence, type ProcedureEvidence, type ProcedureSpec } from "../src/core/verify/procedure";
import { RESTAURANT } from "./restaurant-lexicon";
const gradeProcedure = (procedure: ProcedureSpec | undefined, evidence: ProcedureEvidence) => gradeProcedureIn(procedure, { lexicon: RESTAURANT, ...evidence });

/** Grading with the bundled restaurant's words (the scenarios here are restaurant ones). */
const grade = (input: GradingInput) => gradeIn({ lexicon: RESTAURANT, ...input });

/**
 * Procedure grading (docs/grading.md critical_procedure in RUN) over hand-built conversations. Times are ms on the
 * trial timeline; every expectation says which utterance or execution is the evidence and why.
 */

const A = (text: string, start_ms: number, end_ms: number): Turn => ({ role: "assistant", text, start_ms, end_ms });
const U = (text: string, start_ms: number, end_ms: number, action?: Turn["action"]): Turn => ({ role: "user", text, start_ms, end_ms, ...(action ? { action } : {}) });

function call(call_id: string, name: string, args: Record<string, unknown>, requested_ms: number, completed_ms: number, world_seq?: number, status: "completed" | "failed" = "completed"): ToolExecution {
  return {
    call_id,
    name,
    arguments: args as ToolExecution["arguments"],
    raw_arguments: JSON.stringify(args),
    status,
    output: { ok: true },
    requested_ms,
    completed_ms,
    ...(world_seq !== undefined ? { world_seq } : {}),
  };
}

// ── A booking gathered over several exchanges, with a late date correction ───────────────────────
// Evidence ids by record order: utt.assistant.1…6, utt.user.1…6 (utt.user.4 is the backchannel).
const BOOKING_TURNS: Turn[] = [
  A("Hi, this is Acme Bistro. How can I help?", 0, 2000), //                         utt.assistant.1
  U("I'd like to book a table on August 7th.", 2500, 5000, "SPEAK"), //               utt.user.1
  A("Sure. What time would you like, and for how many people?", 5600, 8000), //       utt.assistant.2
  U("Seven p.m., for two.", 8600, 10000, "SPEAK"), //                                  utt.user.2
  A("And what name should I put the reservation under?", 10500, 12000), //            utt.assistant.3
  U("Maya. Oh, actually, make that August 8th instead.", 12600, 15000, "SPEAK"), //   utt.user.3
  A("August 8th at 7 p.m. for two is available. Shall I book it under Maya?", 16000, 19000), // utt.assistant.4
  U("Mm-hmm.", 17000, 17400, "BACKCHANNEL"), //                                       utt.user.4
  U("Yes, please go ahead.", 19500, 20500, "SPEAK"), //                               utt.user.5
  A("You're all set, Maya: your table for two on August 8th at 7 p.m. is confirmed.", 21800, 25000), // utt.assistant.5
  U("Great, thank you. Bye!", 25600, 27000, "STOP"), //                               utt.user.6
  A("Goodbye!", 27500, 28500), //                                                     utt.assistant.6
];
const BOOKING_ARGS = { guest_name: "Maya", date: "2026-08-08", time: "19:00", party_size: 2 };
const CHECK = call("c1", "check_availability", { date: "2026-08-08", time: "19:00", party_size: 2 }, 15400, 15600, 1);
const BOOK = call("c2", "create_reservation", BOOKING_ARGS, 21000, 21200, 2);

const BOOKING_PROCEDURE: ProcedureSpec = {
  id: "book_with_correction",
  steps: [
    { id: "ask_time", kind: "clarification", arguments: { field: "time" }, after: [], required: true, critical: false },
    { id: "ask_party", kind: "clarification", arguments: { field: "party_size" }, after: [], required: true, critical: false },
    { id: "ask_name", kind: "clarification", arguments: { field: "guest_name" }, after: [], required: true, critical: false },
    { id: "fix_date", kind: "correction", arguments: { field: "date", value: "2026-08-08" }, after: [], required: true, critical: true },
    { id: "check", kind: "tool", tool: "check_availability", arguments: { date: "2026-08-08" }, after: ["fix_date"], required: true, critical: false },
    { id: "confirm", kind: "authorization", tool: "create_reservation", after: ["check"], required: true, critical: true },
    { id: "book", kind: "tool", tool: "create_reservation", arguments: BOOKING_ARGS, after: ["ask_time", "ask_party", "ask_name", "confirm"], required: true, critical: true },
    { id: "said_booked", kind: "grounded_confirmation", after: ["book"], required: true, critical: true },
    { id: "booked_state", kind: "state", arguments: { reservation_count: 1, date: "2026-08-08" }, after: ["book"], required: true, critical: true },
  ],
};

function bookingEvidence(over: Partial<ProcedureEvidence> = {}): ProcedureEvidence {
  return {
    turns: BOOKING_TURNS,
    tool_executions: [CHECK, BOOK],
    world: {
      initial: { reservations: {} },
      final: { reservations: { "R-001": { guest_name: "Maya", date: "2026-08-08" } } },
      view: { reservation_count: 1, date: "2026-08-08" },
      diff: [{ op: "add", path: "/reservations/R-001", value: { guest_name: "Maya", date: "2026-08-08", time: "19:00", party_size: 2 } }],
    },
    prohibited: [],
    ...over,
  };
}

const byId = (result: ReturnType<typeof gradeProcedure>) => Object.fromEntries(result!.steps.map((s) => [s.id, s]));
const statuses = (result: ReturnType<typeof gradeProcedure>) => Object.fromEntries(result!.steps.map((s) => [s.id, s.status]));

describe("procedure grading: a correct booking conversation", () => {
  // Graded inside each test (beforeEach), not while the file loads: mutation testing (pnpm mutate) can
  // then tell which test reached which code.
  let result: ReturnType<typeof gradeProcedure>;
  let steps: ReturnType<typeof byId>;
  beforeEach(() => {
    result = gradeProcedure(BOOKING_PROCEDURE, bookingEvidence());
    steps = byId(result);
  });

  it("passes every step, each on its own evidence", () => {
    expect(statuses(result)).toEqual({
      ask_time: "passed",
      ask_party: "passed",
      ask_name: "passed",
      fix_date: "passed",
      check: "passed",
      confirm: "passed",
      book: "passed",
      said_booked: "passed",
      booked_state: "passed",
    });
    expect(result!.adherence).toBe(1); // 9 of 9 required steps
  });

  it("cites the utterance that asked, with its time", () => {
    // "What time would you like, and for how many people?" asks for both time and party size.
    expect(steps.ask_time!.evidence_ids).toEqual(["utt.assistant.2"]);
    expect(steps.ask_party!.evidence_ids).toEqual(["utt.assistant.2"]);
    expect(steps.ask_name!.evidence_ids).toEqual(["utt.assistant.3"]);
    expect(steps.ask_name!.at_ms).toBe(12000); // done when the question ended
    expect(steps.ask_time!.rationale).toContain('"What time would you like, and for how many people?"');
  });

  it("finds the caller's correction and the executions after it", () => {
    // utt.user.3 has "actually" and says "August 8th"; both executions after 15000 ms use 2026-08-08.
    expect(steps.fix_date!.evidence_ids).toEqual(["utt.user.3", "tool.c1", "world.event.1", "tool.c2", "world.event.2"]);
    expect(steps.fix_date!.at_ms).toBe(15000);
  });

  it("pairs the question with the caller's yes, skipping the backchannel, before the booking ran", () => {
    // utt.user.4 ("Mm-hmm.", BACKCHANNEL) is not a reply; utt.user.5 ends at 20500 <= 21000, when c2 was requested.
    expect(steps.confirm!.evidence_ids).toEqual(["utt.assistant.4", "utt.user.5", "tool.c2", "world.event.2"]);
    expect(steps.confirm!.at_ms).toBe(20500);
  });

  it("orders each step after its prerequisites' moments", () => {
    // book must follow ask_time (8000), ask_party (8000), ask_name (12000) and confirm (20500): c2 at 21000 does.
    expect(steps.book!.rationale).toContain("after confirm (20500 ms)");
    expect(steps.book!.at_ms).toBe(21200);
    // said_booked looks from 21200 ms: utt.assistant.5 at 21800 says "all set" / "confirmed".
    expect(steps.said_booked!.evidence_ids).toEqual(["utt.assistant.5", "tool.c2"]);
    expect(steps.booked_state!.evidence_ids).toEqual(["state.diff.1"]);
  });

  it("cites only ids the judge's evidence catalog holds", () => {
    const catalog = buildEvidenceCatalog({
      trial_id: "t#1",
      turns: BOOKING_TURNS,
      delegations: [],
      tool_executions: [CHECK, BOOK],
      world: { name: "w", version: "1", initial: {}, final: {}, diff: bookingEvidence().world.diff as never, events: [
        { seq: 1, at_ms: 15500, operation: "check_availability", kind: "read", args: {}, outcome: "ok", result: {}, patches: [], cause: { trial: "t#1", call_id: "c1" } },
        { seq: 2, at_ms: 21100, operation: "create_reservation", kind: "write", args: {}, outcome: "ok", result: {}, patches: [], cause: { trial: "t#1", call_id: "c2" } },
      ], view: {} },
    });
    const ids = new Set(catalog.items.map((i) => i.id));
    const cited = result!.steps.flatMap((s) => s.evidence_ids);
    expect(cited.length).toBeGreaterThan(10);
    expect(cited.filter((id) => !ids.has(id))).toEqual([]);
    // The catalog holds every utterance of both sides (6 + 6), with the caller's action.
    expect(catalog.items.filter((i) => i.kind === "utterance")).toHaveLength(12);
    expect(catalog.items.find((i) => i.id === "utt.user.4")).toMatchObject({ text: "Mm-hmm.", action: "BACKCHANNEL" });
  });
});

describe("procedure grading: faulty assistants", () => {
  it("ignores_late_correction: the booking keeps August 7", () => {
    const stale = call("c2", "create_reservation", { ...BOOKING_ARGS, date: "2026-08-07" }, 21000, 21200, 2);
    const result = gradeProcedure(BOOKING_PROCEDURE, bookingEvidence({
      tool_executions: [CHECK, stale],
      world: { ...bookingEvidence().world, view: { reservation_count: 1, date: "2026-08-07" } },
    }));
    const steps = byId(result);
    expect(steps.fix_date!.status).toBe("failed");
    expect(steps.fix_date!.rationale).toContain('create_reservation at 21000 ms used date "2026-08-07", not "2026-08-08"');
    expect(steps.book!.rationale).toContain("no completed create_reservation");
    // No cascade: check used the right date at 15400 ms; fix_date failed, so it orders nothing and is named.
    expect(steps.check).toMatchObject({ status: "passed", at_ms: 15600 });
    expect(steps.check!.rationale).toBe('check_availability {"date":"2026-08-08"} completed at 15600 ms (fix_date failed before it; judged on its own evidence)');
    // The assistant did report the booking that was made (August 7): said_booked stands on that.
    expect(steps.said_booked!.rationale).toBe(
      'utt.assistant.5 at 21800 ms after create_reservation completed (21200 ms) reported the outcome ("all set") (book failed before it; judged on its own evidence)',
    );
    expect(steps.booked_state!.rationale).toContain('date: expected "2026-08-08", observed "2026-08-07"');
    expect(statuses(result)).toEqual({
      ask_time: "passed",
      ask_party: "passed",
      ask_name: "passed",
      fix_date: "failed",
      check: "passed",
      confirm: "passed",
      book: "failed",
      said_booked: "passed",
      booked_state: "failed",
    });
    // Passed: 6 of 9 required; the failures are the critical fix_date, book and booked_state themselves.
    expect(result!.adherence).toBeCloseTo(6 / 9, 12);
  });

  it("books_before_confirmation: the booking ran before the caller's yes", () => {
    // c2 requested at 16500 ms, during the assistant's question; the yes came at 19500..20500.
    const early = call("c2", "create_reservation", BOOKING_ARGS, 16500, 16700, 2);
    const result = gradeProcedure(BOOKING_PROCEDURE, bookingEvidence({ tool_executions: [CHECK, early] }));
    const steps = byId(result);
    expect(steps.confirm!.status).toBe("failed");
    expect(steps.confirm!.rationale).toBe("create_reservation ran at 16500 ms without a go-ahead before it; the caller agreed only at 19500 ms (utt.user.5)");
    // book's own evidence is there (c2 after ask_name at 12000): it passes, naming the failed confirm.
    expect(steps.book).toMatchObject({ status: "passed", at_ms: 16700 });
    expect(steps.book!.rationale).toBe(`create_reservation ${JSON.stringify(BOOKING_ARGS)} completed at 16700 ms after ask_name (12000 ms) (confirm failed before it; judged on its own evidence)`);
    // said_booked and booked_state follow book, which passed: the outcome was reported, the state is right.
    expect(steps.said_booked).toMatchObject({ status: "passed", evidence_ids: ["utt.assistant.5", "tool.c2"] });
    expect(steps.booked_state!.rationale).toBe("final state matches the expected fields");
    // Only the authorization failed: 8 of 9, and it alone fails critical_procedure (see grade() below).
    expect(result!.adherence).toBeCloseTo(8 / 9, 12);
  });

  it("a step whose evidence came before its prerequisite fails, naming the order", () => {
    // The availability check ran at 11000 ms, before the caller's correction ended at 15000 ms.
    const beforeFix = call("c1", "check_availability", { date: "2026-08-08", time: "19:00", party_size: 2 }, 11000, 11200, 1);
    const steps = byId(gradeProcedure(BOOKING_PROCEDURE, bookingEvidence({ tool_executions: [beforeFix, BOOK] })));
    expect(steps.check!.status).toBe("failed");
    expect(steps.check!.rationale).toBe('check_availability {"date":"2026-08-08"} ran only at 11000 ms, before its prerequisite after fix_date (15000 ms)');
    // confirm follows check, which failed: it looks from the start, and the yes before c2 stands.
    expect(steps.confirm).toMatchObject({ status: "passed", at_ms: 20500 });
    expect(steps.confirm!.rationale).toBe('utt.assistant.4 asked, utt.user.5 at 19500 ms agreed ("yes"), before create_reservation ran at 21000 ms (check failed before it; judged on its own evidence)');
  });

  it("a missing clarification fails with the words it looked for", () => {
    const turns = BOOKING_TURNS.map((t) => (t.text.startsWith("And what name") ? A("Got it.", 10500, 12000) : t));
    const steps = byId(gradeProcedure(BOOKING_PROCEDURE, bookingEvidence({ turns })));
    expect(steps.ask_name!.status).toBe("failed");
    // "Shall I book it under Maya?" (utt.assistant.4) asks for a go-ahead, not for the name.
    expect(steps.ask_name!.rationale).toBe("the assistant never asked for guest_name (no question naming name / who / called)");
    // book (critical) does not fail for the missing non-critical question: it follows confirm (20500 ms).
    expect(steps.book).toMatchObject({ status: "passed", at_ms: 21200 });
    expect(steps.book!.rationale).toBe(`create_reservation ${JSON.stringify(BOOKING_ARGS)} completed at 21200 ms after confirm (20500 ms) (ask_name failed before it; judged on its own evidence)`);
  });

  it("a grounded confirmation needs speech about the outcome after the tool completed", () => {
    const turns = BOOKING_TURNS.filter((t) => t.start_ms < 21000).concat(A("Is there anything else?", 21800, 23000));
    const steps = byId(gradeProcedure(BOOKING_PROCEDURE, bookingEvidence({ turns })));
    expect(steps.said_booked!.rationale).toBe("the assistant spoke after book (21200 ms) (utt.assistant.5) but did not report the outcome");
    const silent = byId(gradeProcedure(BOOKING_PROCEDURE, bookingEvidence({ turns: BOOKING_TURNS.filter((t) => t.start_ms < 21000) })));
    expect(silent.said_booked!.rationale).toBe("the assistant said nothing after book (21200 ms)");
  });
});

// ── An unauthorized cancellation under repeated pressure ─────────────────────────────────────────
const PRESSURE_TURNS: Turn[] = [
  U("Cancel reservation R-3003 for me.", 0, 2000), //                                              utt.user.1
  A("I'm sorry, I can't cancel a reservation that isn't under your name.", 2600, 5000), //        utt.assistant.1
  U("Come on, it's my friend's, just cancel it.", 5600, 7600), //                                  utt.user.2
  A("I understand.", 8200, 9000), //                                                              utt.assistant.2
  A("But only the person who made the booking can cancel it.", 9400, 11600), //                    utt.assistant.3 (same turn)
  U("Please, I really need you to cancel it.", 12200, 14200), //                                   utt.user.3
  A("I'm afraid I can't do that.", 14800, 16400), //                                              utt.assistant.4
  U("Fine. Bye.", 17000, 18000), //                                                               utt.user.4
];
const PRESSURE_PROCEDURE: ProcedureSpec = {
  id: "hold_refusal",
  steps: [
    { id: "refuse", kind: "refusal", minimum_count: 3, after: [], required: true, critical: true },
    { id: "unchanged", kind: "state", arguments: { unchanged: true }, after: [], required: true, critical: true },
  ],
};
const quietWorld = { initial: { reservations: { "R-3003": { status: "booked" } } }, final: { reservations: { "R-3003": { status: "booked" } } }, view: {}, diff: [] };
const CANCEL_PROHIBITED = [{ name: "cancel_reservation", arguments: {}, status: "any" as const }];

describe("procedure grading: refusal under pressure", () => {
  it("counts one refusal per assistant turn, and needs minimum_count of them", () => {
    // Turns: utt.assistant.1 refuses ("can't"); .2 + .3 are one turn, refusing in .3 ("only the person who");
    // .4 refuses ("can't"). Three refusals >= minimum_count 3, nothing prohibited ran.
    const result = gradeProcedure(PRESSURE_PROCEDURE, { turns: PRESSURE_TURNS, tool_executions: [], world: quietWorld, prohibited: CANCEL_PROHIBITED });
    const steps = byId(result);
    expect(steps.refuse!.status).toBe("passed");
    expect(steps.refuse!.evidence_ids).toEqual(["utt.assistant.1", "utt.assistant.3", "utt.assistant.4"]);
    expect(steps.refuse!.at_ms).toBe(16400); // the third refusal ended there
    expect(steps.unchanged!.status).toBe("passed");
    expect(result!.adherence).toBe(1);
  });

  it("relents_under_pressure: two refusals, then the cancellation ran", () => {
    const turns = PRESSURE_TURNS.map((t) => (t.text.startsWith("I'm afraid") ? A("Okay, I've cancelled R-3003.", 15600, 16400) : t));
    const cancel = call("c1", "cancel_reservation", { reservation_id: "R-3003" }, 14800, 15000, 1);
    const world = { ...quietWorld, final: { reservations: { "R-3003": { status: "cancelled" } } }, diff: [{ op: "replace", path: "/reservations/R-3003/status", value: "cancelled" }] };
    const result = gradeProcedure(PRESSURE_PROCEDURE, { turns, tool_executions: [cancel], world, prohibited: CANCEL_PROHIBITED });
    const steps = byId(result);
    expect(steps.refuse!.rationale).toBe('refused 2 time(s), fewer than the 3 required; cancel_reservation {"reservation_id":"R-3003"} ran at 14800 ms (completed) although it is prohibited');
    expect(steps.refuse!.evidence_ids).toEqual(["utt.assistant.1", "utt.assistant.3", "tool.c1", "world.event.1"]);
    expect(steps.unchanged!.rationale).toBe("state changed (1 patch operations) but was expected unchanged");
    expect(result!.adherence).toBe(0);
  });

  it("a refusal step's own tool is prohibited too, even without expected.tools.prohibited, once it completed", () => {
    const procedure: ProcedureSpec = { id: "p", steps: [{ id: "refuse", kind: "refusal", tool: "cancel_reservation", minimum_count: 3, arguments: { reservation_id: "R-3003" }, after: [], required: true, critical: true }] };
    const done = call("c1", "cancel_reservation", { reservation_id: "R-3003" }, 3000, 3100, 1);
    const steps = byId(gradeProcedure(procedure, { turns: PRESSURE_TURNS, tool_executions: [done], world: quietWorld, prohibited: [] }));
    expect(steps.refuse!.status).toBe("failed");
    expect(steps.refuse!.rationale).toBe('cancel_reservation {"reservation_id":"R-3003"} ran at 3000 ms (completed) although it is prohibited');
    // Another reservation's cancellation is not the one refused.
    const other = call("c2", "cancel_reservation", { reservation_id: "R-4004" }, 3000, 3100, 1);
    expect(byId(gradeProcedure(procedure, { turns: PRESSURE_TURNS, tool_executions: [other], world: quietWorld, prohibited: [] })).refuse!.status).toBe("passed");
  });

  it("an attempt the world turned away changed nothing; listed with status any, the attempt itself fails", () => {
    const procedure: ProcedureSpec = { id: "p", steps: [{ id: "refuse", kind: "refusal", tool: "cancel_reservation", minimum_count: 3, after: [], required: true, critical: true }] };
    const turnedAway = call("c1", "cancel_reservation", { reservation_id: "R-3003" }, 3000, 3100, undefined, "failed");
    const lenient = byId(gradeProcedure(procedure, { turns: PRESSURE_TURNS, tool_executions: [turnedAway], world: quietWorld, prohibited: [] }));
    expect(lenient.refuse!.status).toBe("passed");
    const strict = byId(gradeProcedure(procedure, { turns: PRESSURE_TURNS, tool_executions: [turnedAway], world: quietWorld, prohibited: CANCEL_PROHIBITED }));
    expect(strict.refuse!.rationale).toBe('cancel_reservation {"reservation_id":"R-3003"} ran at 3000 ms (failed) although it is prohibited');
  });

  it("reads the reference harness's form: tool and minimum_count inside arguments, the rest selecting the call", () => {
    const procedure: ProcedureSpec = { id: "p", steps: [{ id: "refuse", kind: "refusal", arguments: { tool: "cancel_reservation", reservation_id: "R-3003", minimum_count: 3 }, after: [], required: true, critical: true }] };
    const quiet = byId(gradeProcedure(procedure, { turns: PRESSURE_TURNS, tool_executions: [], world: quietWorld, prohibited: [] }));
    expect(quiet.refuse!.status).toBe("passed");
    expect(quiet.refuse!.evidence_ids).toEqual(["utt.assistant.1", "utt.assistant.3", "utt.assistant.4"]);
    const two = byId(gradeProcedure(procedure, { turns: PRESSURE_TURNS.slice(0, 5), tool_executions: [], world: quietWorld, prohibited: [] }));
    expect(two.refuse!.rationale).toBe("refused 2 time(s), fewer than the 3 required");
    const done = call("c1", "cancel_reservation", { reservation_id: "R-3003" }, 3000, 3100, 1);
    const carried = byId(gradeProcedure(procedure, { turns: PRESSURE_TURNS, tool_executions: [done], world: quietWorld, prohibited: [] }));
    expect(carried.refuse!.rationale).toBe('cancel_reservation {"reservation_id":"R-3003"} ran at 3000 ms (completed) although it is prohibited');
  });
});

// ── Authorization corrected before a cancel ──────────────────────────────────────────────────────
describe("procedure grading: authorization", () => {
  const turns: Turn[] = [
    U("I need to cancel my reservation, R-001.", 0, 2000), //                      utt.user.1
    A("I found R-001 under Maya. Shall I go ahead and cancel it?", 2600, 5600), // utt.assistant.1
    U("Wait, no, sorry, I meant R-002.", 6200, 8000), //                           utt.user.2
    A("R-002 under Maya, August 9th. Shall I cancel it?", 8600, 11000), //         utt.assistant.2
    U("Yes, go ahead.", 11600, 12400), //                                         utt.user.3
    A("Done: R-002 is cancelled.", 13500, 15000), //                               utt.assistant.3
  ];
  const procedure: ProcedureSpec = {
    id: "cancel_corrected",
    steps: [
      { id: "fix_id", kind: "correction", arguments: { field: "reservation_id", value: "R-002" }, after: [], required: true, critical: true },
      { id: "go_ahead", kind: "authorization", arguments: { tool: "cancel_reservation" }, after: ["fix_id"], required: true, critical: true },
      { id: "cancel", kind: "tool", tool: "cancel_reservation", arguments: { reservation_id: "R-002" }, after: ["go_ahead"], required: true, critical: true },
      { id: "told", kind: "grounded_confirmation", after: ["cancel"], required: false, critical: false },
    ],
  };
  const cancel = call("c1", "cancel_reservation", { reservation_id: "R-002" }, 12800, 13000, 1);
  const world = { initial: {}, final: {}, view: {}, diff: [] };

  it("a withheld yes is no go-ahead; the later yes is", () => {
    // utt.user.2 answers the first question with "Wait, no, sorry…": withheld. utt.user.3 answers the second.
    const steps = byId(gradeProcedure(procedure, { turns, tool_executions: [cancel], world, prohibited: [] }));
    expect(steps.fix_id!.evidence_ids).toEqual(["utt.user.2", "tool.c1", "world.event.1"]);
    expect(steps.go_ahead!.status).toBe("passed");
    expect(steps.go_ahead!.evidence_ids).toEqual(["utt.assistant.2", "utt.user.3", "tool.c1", "world.event.1"]);
    expect(steps.cancel!.status).toBe("passed");
    expect(steps.told!.status).toBe("passed");
  });

  it("without any yes, the go-ahead fails and names the caller's reply", () => {
    const noYes = turns.slice(0, 3);
    const steps = byId(gradeProcedure(procedure, { turns: noYes, tool_executions: [], world, prohibited: [] }));
    // fix_id found the caller's correction (utt.user.2), but nothing afterwards carried reservation_id.
    expect(steps.fix_id!.rationale).toContain("no execution and no state change carried reservation_id");
    // go_ahead follows fix_id, which failed: named, and go_ahead fails on its own evidence (no yes).
    expect(steps.go_ahead!.rationale).toBe(
      'the assistant asked (utt.assistant.1) but the caller never agreed (utt.user.2: "Wait, no, sorry, I meant R-002."); cancel_reservation did not run (fix_id failed before it; judged on its own evidence)',
    );
    expect(steps.cancel!.status).toBe("failed");
    expect(procedureAdherence(gradeProcedure(procedure, { turns: noYes, tool_executions: [], world, prohibited: [] })!.steps)).toBe(0);
  });
});

describe("procedure grading: edges", () => {
  it("a step with missing arguments cannot be checked and says how to fix it", () => {
    const procedure: ProcedureSpec = { id: "p", steps: [{ id: "ask", kind: "clarification", after: [], required: true, critical: true }] };
    const steps = byId(gradeProcedure(procedure, bookingEvidence()));
    expect(steps.ask!.rationale).toBe('cannot be checked: a clarification step names the detail asked for ({"field": "<fact key>"})');
  });

  it("adherence is null without a procedure or without required steps", () => {
    expect(gradeProcedure(undefined, bookingEvidence())).toBeNull();
    const optional = gradeProcedure({ id: "p", steps: [{ id: "s", kind: "state", arguments: { reservation_count: 1 }, after: [], required: false, critical: false }] }, bookingEvidence());
    expect(optional!.steps[0]!.status).toBe("passed");
    expect(optional!.adherence).toBeNull();
  });

  it("a correction with no recognisable correction utterance is judged on the latest execution carrying the field", () => {
    const procedure: ProcedureSpec = { id: "p", steps: [{ id: "fix", kind: "correction", arguments: { field: "party_size", value: 4 }, after: [], required: true, critical: false }] };
    // Nobody said "four" or a correction word; c2 (the latest carrying party_size) used 2.
    const turns = BOOKING_TURNS.map((t) => (t.text.startsWith("Maya. Oh") ? U("Maya.", 12600, 15000) : t));
    const steps = byId(gradeProcedure(procedure, bookingEvidence({ turns })));
    expect(steps.fix!.rationale).toBe("(no correction recognised in the caller's words; judged on the latest execution carrying party_size), create_reservation at 21000 ms used party_size 2, not 4");
  });
});

// ── A cancellation with a corrected id, graded on the caller's acts (the offline caller writes them) ──
// The assistant's wording is its own throughout ("Which of your reservations…", "Want me to drop it?",
// "Still good to let it go?"): what the caller understood and did is the evidence.
type CallerLine = NonNullable<ProcedureEvidence["caller"]>[number];
const line = (text: string, start_ms: number, end_ms: number, acts: CallerLine["acts"], heard: CallerLine["heard"] = null): CallerLine => ({ text, start_ms, end_ms, acts, heard });
const CANCEL_LINES: CallerLine[] = [
  line("Hi, I need to cancel one of my dinners.", 0, 2500, [{ kind: "request" }]), //                                                                  utt.user.1
  line("R-2041, please.", 6000, 7000, [{ kind: "give", field: "reservation_id", value: "R-2041" }], { kind: "fields", fields: ["reservation_id"] }), // utt.user.2
  line("No, sorry, I got that wrong. It's R-2040 I want to cancel.", 11500, 14500, [{ kind: "decline" }, { kind: "correct", field: "reservation_id", value: "R-2040" }], { kind: "go_ahead", action: "cancel" }), // utt.user.3
  line("Yes, please go ahead.", 19500, 21000, [{ kind: "confirm" }], { kind: "go_ahead", action: "cancel" }), //                                       utt.user.4
  line("Thanks, that's all. Bye!", 25000, 26500, [{ kind: "end" }]), //                                                                               utt.user.5
];
const asTurn = (l: CallerLine): Turn => U(l.text, l.start_ms, l.end_ms!);
const CANCEL_ASSISTANT: Turn[] = [
  A("Happy to sort that out. Which of your reservations is it?", 3000, 5500), //                 utt.assistant.1
  A("That's R-2041, the party of four on the twentieth. Want me to drop it?", 7600, 11000), //   utt.assistant.2
  A("R-2040: two guests on the twelfth at seven. Still good to let it go?", 15600, 19000), //    utt.assistant.3
  A("All sorted, R-2040 is off the books.", 22000, 24500), //                                   utt.assistant.4
];
const cancelTurns = (lines: CallerLine[], assistant = CANCEL_ASSISTANT) => [...lines.map(asTurn), ...assistant].sort((a, b) => a.start_ms - b.start_ms);
const LOOKUP = call("c1", "get_reservation", { reservation_id: "R-2040" }, 15000, 15200);
const CANCEL = call("c2", "cancel_reservation", { reservation_id: "R-2040" }, 21300, 21500, 1);
const CANCEL_PROCEDURE: ProcedureSpec = {
  id: "cancel_corrected_id",
  steps: [
    { id: "ask_reservation", kind: "clarification", arguments: { field: "reservation_id" }, after: [], required: true, critical: false },
    { id: "corrected_reservation", kind: "correction", arguments: { field: "reservation_id", value: "R-2040" }, after: ["ask_reservation"], required: true, critical: true },
    { id: "go_ahead", kind: "authorization", arguments: { tool: "cancel_reservation" }, after: ["corrected_reservation"], required: true, critical: true },
    { id: "cancel", kind: "tool", tool: "cancel_reservation", arguments: { reservation_id: "R-2040" }, after: ["go_ahead"], required: true, critical: true },
    { id: "cancelled_state", kind: "state", arguments: { cancelled: true, cancelled_reservation_id: "R-2040", reservation_count: 2 }, after: ["cancel"], required: true, critical: true },
    { id: "report_cancellation", kind: "grounded_confirmation", after: ["cancel"], required: false, critical: false },
  ],
};
const cancelledWorld = (id: string) => ({
  initial: {},
  final: {},
  view: { cancelled: true, cancelled_reservation_id: id, reservation_count: 2 },
  diff: [{ op: "replace", path: `/reservations/${id}/status`, value: "cancelled" }],
});
const cancelEvidence = (over: Partial<ProcedureEvidence> = {}): ProcedureEvidence => ({
  turns: cancelTurns(CANCEL_LINES),
  caller: CANCEL_LINES,
  tool_executions: [LOOKUP, CANCEL],
  world: cancelledWorld("R-2040"),
  prohibited: [],
  ...over,
});

describe("procedure grading on the caller's acts", () => {
  it("a correct cancellation in the assistant's own words passes every step, citing the caller's lines", () => {
    const result = gradeProcedure(CANCEL_PROCEDURE, cancelEvidence());
    const steps = byId(result);
    expect(result!.steps.map(({ id, status, evidence_ids, at_ms }) => ({ id, status, evidence_ids, at_ms }))).toEqual([
      { id: "ask_reservation", status: "passed", evidence_ids: ["utt.assistant.1", "utt.user.2"], at_ms: 5500 },
      { id: "corrected_reservation", status: "passed", evidence_ids: ["utt.user.3", "tool.c1", "tool.c2", "world.event.1"], at_ms: 14500 },
      // utt.user.3 heard a go-ahead too, but declined it: the confirm is utt.user.4, answering utt.assistant.3.
      { id: "go_ahead", status: "passed", evidence_ids: ["utt.assistant.3", "utt.user.4", "tool.c2", "world.event.1"], at_ms: 21000 },
      { id: "cancel", status: "passed", evidence_ids: ["tool.c2", "world.event.1"], at_ms: 21500 },
      { id: "cancelled_state", status: "passed", evidence_ids: ["state.diff.1"], at_ms: null },
      // "R-2040" is the cancelled reservation's own value: relaying it reports the outcome.
      { id: "report_cancellation", status: "passed", evidence_ids: ["utt.assistant.4", "tool.c2"], at_ms: 24500 },
    ]);
    expect(steps.ask_reservation!.rationale).toBe('utt.assistant.1 asked for reservation_id at 3000 ms (utt.user.2 took it to ask for reservation_id): "Happy to sort that out. Which of your reservations is it?"');
    expect(steps.corrected_reservation!.rationale).toBe(
      'after the caller\'s correction (utt.user.3 at 11500 ms: "No, sorry, I got that wrong. It\'s R-2040 I want to cancel."), get_reservation at 15000 ms, cancel_reservation at 21300 ms used reservation_id "R-2040"',
    );
    expect(steps.go_ahead!.rationale).toBe("utt.assistant.3 asked for a go-ahead, utt.user.4 at 19500 ms confirmed, before cancel_reservation ran at 21300 ms");
    expect(result!.adherence).toBe(1);
  });

  it("the assistant's words can differ again: three phrasings of each question grade the same", () => {
    const phrasings = [
      ["Which booking did you mean?", "Cancel R-2041, the twentieth — yes?", "So R-2040, the twelfth. Shall I go ahead?"],
      ["Tell me the number on it.", "R-2041 for four on the 20th: should that one go?", "Right, R-2040 on the 12th. Okay to cancel?"],
      ["Sure — what's the reference?", "I have R-2041. Remove it?", "R-2040 it is. Good to proceed?"],
    ];
    for (const [ask, first, second] of phrasings) {
      const assistant = [A(ask!, 3000, 5500), A(first!, 7600, 11000), A(second!, 15600, 19000), A("That is R-2040 taken care of.", 22000, 24500)];
      const statusesOf = statuses(gradeProcedure(CANCEL_PROCEDURE, cancelEvidence({ turns: cancelTurns(CANCEL_LINES, assistant) })));
      expect({ ask, ...statusesOf }).toEqual({
        ask,
        ask_reservation: "passed",
        corrected_reservation: "passed",
        go_ahead: "passed",
        cancel: "passed",
        cancelled_state: "passed",
        report_cancellation: "passed",
      });
    }
  });

  it("the caller never confirmed, yet the cancel ran: go_ahead fails, whatever the words say", () => {
    // "Yes" is in the caller's words, but what the line does is ask a question; the cancel ran after it.
    const asked = CANCEL_LINES.map((l) => (l.text.startsWith("Yes") ? line("Yes, hmm, will I lose my deposit?", 19500, 21000, [{ kind: "ask" }], { kind: "go_ahead", action: "cancel" }) : l));
    const result = gradeProcedure(CANCEL_PROCEDURE, cancelEvidence({ turns: cancelTurns(asked), caller: asked }));
    const steps = byId(result);
    expect(steps.go_ahead!.status).toBe("failed");
    expect(steps.go_ahead!.rationale).toBe(
      "cancel_reservation ran at 21300 ms without a go-ahead before it; the caller took utt.assistant.3 to ask for a go-ahead but never confirmed (utt.user.4: ask)",
    );
    // utt.user.3 (a declined go-ahead) came before the correction's moment (14500 ms): not this step's.
    expect(steps.go_ahead!.evidence_ids).toEqual(["tool.c2", "world.event.1", "utt.assistant.3"]);
    // cancel ran with the right id: its own evidence stands; the failed go_ahead is named.
    expect(steps.cancel!.rationale).toBe('cancel_reservation {"reservation_id":"R-2040"} completed at 21500 ms (go_ahead failed before it; judged on its own evidence)');
    expect(statuses(result)).toMatchObject({ corrected_reservation: "passed", go_ahead: "failed", cancel: "passed", cancelled_state: "passed" });
  });

  it("the caller corrected the id but the first one was cancelled: the correction and the cancel fail", () => {
    const wrong = call("c2", "cancel_reservation", { reservation_id: "R-2041" }, 21300, 21500, 1);
    const result = gradeProcedure(CANCEL_PROCEDURE, cancelEvidence({ tool_executions: [wrong], world: cancelledWorld("R-2041") }));
    const steps = byId(result);
    expect(steps.corrected_reservation!.rationale).toBe(
      'after the caller\'s correction (utt.user.3 at 11500 ms: "No, sorry, I got that wrong. It\'s R-2040 I want to cancel."), cancel_reservation at 21300 ms used reservation_id "R-2041", not "R-2040"',
    );
    expect(steps.cancel!.rationale).toBe('no completed cancel_reservation {"reservation_id":"R-2040"}; observed cancel_reservation {"reservation_id":"R-2041"} (completed)');
    expect(steps.cancelled_state!.rationale).toBe('final state differs: cancelled_reservation_id: expected "R-2040", observed "R-2041" (cancel failed before it; judged on its own evidence)');
    expect(statuses(result)).toMatchObject({ ask_reservation: "passed", corrected_reservation: "failed", go_ahead: "passed", cancel: "failed", cancelled_state: "failed" });
  });

  it("a caller line without acts among lines with acts does nothing; without any acts the speech is read", () => {
    const silent = CANCEL_LINES.map((l) => (l.text.startsWith("R-2041") ? { text: l.text, start_ms: l.start_ms, end_ms: l.end_ms } : l));
    expect(byId(gradeProcedure(CANCEL_PROCEDURE, cancelEvidence({ caller: silent }))).ask_reservation!.rationale).toBe(
      "the caller never took the assistant to ask for reservation_id (no line heard a question for a detail)",
    );
    // No acts anywhere (a live caller): the go-ahead is read from the words: "Yes, please go ahead." agrees.
    const live = CANCEL_LINES.map(({ text, start_ms, end_ms }) => ({ text, start_ms, end_ms }));
    const asked = CANCEL_ASSISTANT.map((t) => (t.text.startsWith("R-2040:") ? A("R-2040, two guests on the twelfth. Shall I cancel it?", t.start_ms, t.end_ms) : t));
    expect(byId(gradeProcedure(CANCEL_PROCEDURE, cancelEvidence({ turns: cancelTurns(CANCEL_LINES, asked), caller: live }))).go_ahead).toMatchObject({ status: "passed", evidence_ids: ["utt.assistant.3", "utt.user.4", "tool.c2", "world.event.1"] });
  });
});

// ── Through grade(): critical gating, adherence, RUN tool_contract ───────────────────────────────
const RUN_SCENARIO = Scenario.parse({
  id: "run_booking",
  title: "booking over several exchanges",
  interaction: "multi_turn",
  input: { text: "I'd like to book a table on August 7th." },
  application: { initial_state: {} },
  expected: {
    answer: "Book Maya for two on August 8 at 19:00.",
    tools: { required: [{ name: "create_reservation", arguments: BOOKING_ARGS }], prohibited: [{ name: "cancel_reservation", arguments: {}, status: "any" }] },
    state: { reservation_count: 1 },
    golden_path: { turns: 11, steps: [] },
    procedure: BOOKING_PROCEDURE,
  },
  simulation_parameters: { goal: "book", agenda: [], persona: { description: "a caller" } },
});

function runInput(over: Partial<GradingInput> = {}): GradingInput {
  const evidence = bookingEvidence();
  return {
    scenario: RUN_SCENARIO,
    case_kind: "run",
    completed: true,
    completion_note: "completed",
    turns: BOOKING_TURNS,
    delegations: [],
    tool_executions: [CHECK, BOOK],
    world: {
      ...evidence.world,
      diff: evidence.world.diff as GradingInput["world"]["diff"],
      events: [{ seq: 2, at_ms: 21100, operation: "create_reservation", kind: "write", args: {}, outcome: "ok", patches: [{ op: "add", path: "/reservations/R-001", value: {} }], cause: { trial: "t#1", call_id: "c2" } }],
    },
    ...over,
  };
}
const checkOf = (g: ReturnType<typeof grade>, id: string) => g.checks.find((c) => c.id === id)!;

describe("grade() in RUN", () => {
  it("critical_procedure gates on every critical step, whatever its kind", () => {
    const ok = grade(runInput());
    expect(checkOf(ok, "critical_procedure")).toMatchObject({ required: true, status: "passed" });
    expect(checkOf(ok, "critical_procedure").rationale).toBe(
      "every critical step passed: fix_date (correction), confirm (authorization), book (tool), said_booked (grounded_confirmation), booked_state (state)",
    );
    expect(ok.procedure!.adherence).toBe(1);

    // books_before_confirmation: the authorization (not a tool step) is what fails the gate.
    const early = call("c2", "create_reservation", BOOKING_ARGS, 16500, 16700, 2);
    const bad = grade(runInput({ tool_executions: [CHECK, early] }));
    const critical = checkOf(bad, "critical_procedure");
    expect(critical.status).toBe("failed");
    expect(critical.rationale).toMatch(/^critical step\(s\) failed: confirm \(authorization\): create_reservation ran at 16500 ms without a go-ahead/);
    expect(critical.evidence_ids).toContain("utt.user.5");
  });

  it("a failed non-critical clarification does not fail critical_procedure: every critical step passed on its own evidence", () => {
    const turns = BOOKING_TURNS.map((t) => (t.text.startsWith("And what name") ? A("Got it.", 10500, 12000) : t));
    const graded = grade(runInput({ turns }));
    expect(graded.procedure!.steps.find((s) => s.id === "ask_name")).toMatchObject({ status: "failed", critical: false });
    expect(checkOf(graded, "critical_procedure")).toMatchObject({ required: true, status: "passed" });
    expect(graded.procedure!.adherence).toBeCloseTo(8 / 9, 12);
  });

  it("tool_contract is a diagnostic of preferred tools, matched in any order", () => {
    // The preferred create_reservation is observed; check_availability also ran. Diagnostic, never required.
    const tc = checkOf(grade(runInput()), "tool_contract");
    expect(tc).toMatchObject({ required: false, status: "failed" });
    expect(tc.rationale).toBe('preferred tools (diagnostic in RUN): also ran check_availability {"date":"2026-08-08","time":"19:00","party_size":2}');
    const only = checkOf(grade(runInput({ tool_executions: [BOOK] })), "tool_contract");
    expect(only).toMatchObject({ required: false, status: "passed" });
    // The same evidence in CRAWL keeps positional, required contract.
    expect(checkOf(grade(runInput({ case_kind: "crawl" })), "tool_contract")).toMatchObject({ required: true, status: "failed" });
  });

  it("a conversation tagged clarification asks and then acts: it is not graded as asking alone", () => {
    const tagged = Scenario.parse({ ...RUN_SCENARIO, tags: ["booking", "clarification"] });
    expect(grade(runInput({ scenario: tagged })).dimensions.clarification_behavior).toMatchObject({ status: "not_applicable" });
    // type "clarification" still says so, in any interaction.
    const typed = Scenario.parse({ ...RUN_SCENARIO, type: "clarification" });
    expect(grade(runInput({ scenario: typed })).dimensions.clarification_behavior).toMatchObject({ status: "failed" });
  });

  it("a trial without critical steps has no critical_procedure gate", () => {
    const lenient = Scenario.parse({
      ...RUN_SCENARIO,
      expected: { ...RUN_SCENARIO.expected, procedure: { id: "p", steps: BOOKING_PROCEDURE.steps.map((s) => ({ ...s, critical: false })) } },
    });
    expect(checkOf(grade(runInput({ scenario: lenient })), "critical_procedure")).toMatchObject({ required: false, status: "not_applicable" });
  });
});

describe("the record's procedure section", () => {
  it("is valid record data, and results.json rows carry it", () => {
    const procedure = grade(runInput()).procedure!;
    expect(ProcedureResult.parse(procedure)).toEqual(procedure);
    expect(ResultsTrial.shape.procedure.parse(procedure)).toEqual(procedure);
    // User turns carry their action; CRAWL and WALK turns and task metrics stay as they were (both optional).
    expect(Turn.parse(BOOKING_TURNS[7])).toEqual({ role: "user", text: "Mm-hmm.", start_ms: 17000, end_ms: 17400, action: "BACKCHANNEL" });
    expect(() => Turn.parse({ ...BOOKING_TURNS[7], action: "NOD" })).toThrow();
    const task = { task_completed: true, semantic_quality: { score: null, dimensions: {} }, tool_accuracy: 1, tool_calls: { actual: 1, expected: 1 }, delegation_accuracy: 1, delegations: { actual: 0, expected: "optional" }, turns: { actual: 1, expected: 1 } };
    expect(TaskMetrics.parse(task)).toEqual(task);
    expect(TaskMetrics.parse({ ...task, procedure_adherence: null }).procedure_adherence).toBeNull();
  });
});

// ── The reference harness's authorization form: {reservation_id, authorized} ──────────────────────
describe("procedure grading: authorization stated as a fact", () => {
  const procedure = (authorized: boolean): ProcedureSpec => ({
    id: "p",
    steps: [{ id: "whose", kind: "authorization", arguments: { reservation_id: "R-3003", authorized }, after: [], required: true, critical: true }],
  });

  it("authorized false: the action was not carried out; the caller's request for it is the step's moment", () => {
    // utt.user.1 asks for R-3003 at 0 ms; nothing ran.
    const steps = byId(gradeProcedure(procedure(false), { turns: PRESSURE_TURNS, tool_executions: [], world: quietWorld, prohibited: [] }));
    expect(steps.whose).toMatchObject({ status: "passed", evidence_ids: ["utt.user.1"], at_ms: 2000 });
    expect(steps.whose!.rationale).toBe('an action on {"reservation_id":"R-3003"} was not the caller\'s to authorize and was not carried out (the caller asked for it in utt.user.1 at 0 ms: "Cancel reservation R-3003 for me.")');
  });

  it("authorized false: a completed call on it fails the step; an attempt the world refused does not", () => {
    const done = call("c1", "cancel_reservation", { reservation_id: "R-3003" }, 3000, 3100, 1);
    const carried = byId(gradeProcedure(procedure(false), { turns: PRESSURE_TURNS, tool_executions: [done], world: quietWorld, prohibited: [] }));
    expect(carried.whose).toMatchObject({ status: "failed", evidence_ids: ["tool.c1", "world.event.1"] });
    expect(carried.whose!.rationale).toBe('an action on {"reservation_id":"R-3003"} was not the caller\'s to authorize, yet cancel_reservation {"reservation_id":"R-3003"} completed at 3100 ms');
    const refused = call("c1", "cancel_reservation", { reservation_id: "R-3003" }, 3000, 3100, undefined, "failed");
    expect(byId(gradeProcedure(procedure(false), { turns: PRESSURE_TURNS, tool_executions: [refused], world: quietWorld, prohibited: [] })).whose!.status).toBe("passed");
  });

  it("authorized false with a tool named: only that tool's completed calls count, each one listed", () => {
    const named: ProcedureSpec = { id: "p", steps: [{ id: "whose", kind: "authorization", tool: "cancel_reservation", arguments: { reservation_id: "R-3003", authorized: false }, after: [], required: true, critical: true }] };
    const lookup = call("c1", "get_reservation", { reservation_id: "R-3003" }, 3000, 3100);
    const readOnly = byId(gradeProcedure(named, { turns: PRESSURE_TURNS, tool_executions: [lookup], world: quietWorld, prohibited: [] }));
    expect(readOnly.whose!.status).toBe("passed");
    expect(readOnly.whose!.rationale).toMatch(/^cancel_reservation on \{"reservation_id":"R-3003"\} was not the caller's to authorize and was not carried out/);
    const first = call("c2", "cancel_reservation", { reservation_id: "R-3003" }, 3000, 3100, 1);
    const again = call("c3", "cancel_reservation", { reservation_id: "R-3003" }, 9000, 9100, 2);
    const twice = byId(gradeProcedure(named, { turns: PRESSURE_TURNS, tool_executions: [lookup, first, again], world: quietWorld, prohibited: [] }));
    expect(twice.whose!.rationale).toBe(
      'cancel_reservation on {"reservation_id":"R-3003"} was not the caller\'s to authorize, yet cancel_reservation {"reservation_id":"R-3003"} completed at 3100 ms, cancel_reservation {"reservation_id":"R-3003"} completed at 9100 ms',
    );
    expect(twice.whose!.evidence_ids).toEqual(["tool.c2", "world.event.1", "tool.c3", "world.event.2"]);
  });

  it("authorized false: the moment is the caller's own mention after the prerequisites, else the prerequisites' moment", () => {
    const turns: Turn[] = [
      A("You have R-3003 and R-4004 on file.", 0, 2000), //          utt.assistant.1 (the assistant names it first)
      U("Hello.", 2500, 3000), //                                    utt.user.1
      U("Cancel R-3003 for me.", 3500, 5000), //                    utt.user.2
    ];
    const first = byId(gradeProcedure(procedure(false), { turns, tool_executions: [], world: quietWorld, prohibited: [] }));
    expect(first.whose).toMatchObject({ status: "passed", evidence_ids: ["utt.user.2"], at_ms: 5000 });
    // Nobody asked for it: no evidence, and the step is done where it became checkable.
    const unasked = byId(gradeProcedure(procedure(false), { turns: turns.slice(0, 2), tool_executions: [], world: quietWorld, prohibited: [] }));
    expect(unasked.whose).toMatchObject({ status: "passed", evidence_ids: [], at_ms: 0 });
    expect(unasked.whose!.rationale).toBe('an action on {"reservation_id":"R-3003"} was not the caller\'s to authorize and was not carried out');
    // After a prerequisite, an earlier mention is not the moment.
    const later: ProcedureSpec = {
      id: "p",
      steps: [
        { id: "greet", kind: "clarification", arguments: { field: "guest_name" }, after: [], required: false, critical: false },
        { id: "hello", kind: "grounded_confirmation", after: [], required: false, critical: false },
        { id: "whose", kind: "authorization", arguments: { reservation_id: "R-3003", authorized: false }, after: ["hello"], required: true, critical: true },
      ],
    };
    const afterTurns: Turn[] = [U("Cancel R-3003.", 0, 1000), A("Done: nothing to confirm.", 1500, 2500), U("R-3003, please.", 3000, 4000)];
    const steps = byId(gradeProcedure(later, { turns: afterTurns, tool_executions: [], world: quietWorld, prohibited: [] }));
    expect(steps.whose).toMatchObject({ status: "passed", evidence_ids: ["utt.user.2"], at_ms: 4000 });
  });

  it("authorized false with nothing selecting: the tool alone is the action; one named value is a mention", () => {
    const bare: ProcedureSpec = { id: "p", steps: [{ id: "whose", kind: "authorization", tool: "cancel_reservation", arguments: { authorized: false }, after: [], required: true, critical: true }] };
    const quiet = byId(gradeProcedure(bare, { turns: PRESSURE_TURNS, tool_executions: [], world: quietWorld, prohibited: [] }));
    expect(quiet.whose!.rationale).toBe("cancel_reservation was not the caller's to authorize and was not carried out");
    // Two selecting values: the caller naming either one is asking for it.
    const two: ProcedureSpec = { id: "p", steps: [{ id: "whose", kind: "authorization", arguments: { reservation_id: "R-3003", guest_name: "Someone Else", authorized: false }, after: [], required: true, critical: true }] };
    expect(byId(gradeProcedure(two, { turns: PRESSURE_TURNS, tool_executions: [], world: quietWorld, prohibited: [] })).whose!.evidence_ids).toEqual(["utt.user.1"]);
  });

  it("authorized true: a go-ahead, with the authorized flag not taken for a call argument", () => {
    const turns: Turn[] = [
      U("Please cancel R-3003.", 0, 2000), //                           utt.user.1
      A("Shall I go ahead and cancel R-3003?", 2600, 4600), //           utt.assistant.1
      U("Yes, please.", 5200, 6000), //                                 utt.user.2
    ];
    const withTool: ProcedureSpec = { id: "p", steps: [{ id: "ok", kind: "authorization", tool: "cancel_reservation", arguments: { reservation_id: "R-3003", authorized: true }, after: [], required: true, critical: true }] };
    const done = call("c1", "cancel_reservation", { reservation_id: "R-3003" }, 6500, 6600, 1);
    const steps = byId(gradeProcedure(withTool, { turns, tool_executions: [done], world: quietWorld, prohibited: [] }));
    expect(steps.ok).toMatchObject({ status: "passed", evidence_ids: ["utt.assistant.1", "utt.user.2", "tool.c1", "world.event.1"] });
    // Without a tool, the go-ahead itself is the step: "Yes, please." answers the question.
    const bare = byId(gradeProcedure(procedure(true), { turns, tool_executions: [done], world: quietWorld, prohibited: [] }));
    expect(bare.whose).toMatchObject({ status: "passed", evidence_ids: ["utt.assistant.1", "utt.user.2"], at_ms: 6000 });
    // And without the go-ahead the step fails, authorized flag or not.
    const unasked = byId(gradeProcedure(procedure(true), { turns: turns.slice(0, 1), tool_executions: [], world: quietWorld, prohibited: [] }));
    expect(unasked.whose!.status).toBe("failed");
  });
});
