import { describe, expect, it } from "vitest";
import type { ToolExecution, Turn } from "../src/core/record/trial-record";
import { gradeProcedure as gradeProcedureIn, sameField, type ProcedureEvidence, type ProcedureStepSpec } from "../src/core/verify/procedure";
import { RESTAURANT } from "./restaurant-lexicon";

/** Procedures graded with the bundled restaurant's words (field names, action verbs). */
const gradeProcedure = (procedure: Parameters<typeof gradeProcedureIn>[0], evidence: ProcedureEvidence) => gradeProcedureIn(procedure, { lexicon: RESTAURANT, ...evidence });

/**
 * Procedure steps one kind at a time, each graded in full (status, reason, evidence, moment) on a few
 * hand-written utterances and executions. Times are ms; ids are numbered per role in record order.
 */
const A = (text: string, start_ms: number, end_ms: number): Turn => ({ role: "assistant", text, start_ms, end_ms });
const U = (text: string, start_ms: number, end_ms: number, action?: Turn["action"]): Turn => ({ role: "user", text, start_ms, end_ms, ...(action ? { action } : {}) });
function call(call_id: string, name: string, args: Record<string, unknown>, requested_ms: number, completed_ms: number, more: Partial<ToolExecution> = {}): ToolExecution {
  return { call_id, name, arguments: args as ToolExecution["arguments"], raw_arguments: JSON.stringify(args), status: "completed", output: { ok: true }, requested_ms, completed_ms, ...more };
}
const emptyWorld = { initial: {}, final: {}, view: {}, diff: [] as unknown[] };
const evidence = (over: Partial<ProcedureEvidence>): ProcedureEvidence => ({ turns: [], tool_executions: [], world: emptyWorld, prohibited: [], ...over });
type StepInput = Partial<ProcedureStepSpec> & Pick<ProcedureStepSpec, "id" | "kind">;
const grade = (steps: StepInput[], over: Partial<ProcedureEvidence>) =>
  gradeProcedure({ id: "p", steps: steps.map((s) => ({ after: [], required: true, critical: false, ...s })) }, evidence(over))!.steps.map(({ id, status, rationale, evidence_ids, at_ms }) => ({ id, status, rationale, evidence_ids, at_ms }));

describe("tool steps", () => {
  const executions = [
    call("c0", "list_tables", {}, 500, 600),
    call("c1", "check_availability", { date: "2026-08-09" }, 2100, 2200, { world_seq: 1 }),
    call("c2", "check_availability", { date: "2026-08-08" }, 2300, 2400, { status: "failed" }),
  ];

  it("a completed execution of the tool with the step's arguments, else what ran instead", () => {
    expect(
      grade(
        [
          { id: "unnamed", kind: "tool" },
          { id: "any_check", kind: "tool", tool: "check_availability" },
          { id: "aug8", kind: "tool", tool: "check_availability", arguments: { date: "2026-08-08" } },
          { id: "cancel", kind: "tool", tool: "cancel_reservation" },
        ],
        { tool_executions: executions },
      ),
    ).toEqual([
      { id: "unnamed", status: "failed", rationale: 'cannot be checked: a tool step names its tool ("tool": "<name>")', evidence_ids: [], at_ms: null },
      { id: "any_check", status: "passed", rationale: "check_availability completed at 2200 ms", evidence_ids: ["tool.c1", "world.event.1"], at_ms: 2200 },
      // The failed execution had the right date; the completed one the wrong date: neither is the step.
      {
        id: "aug8",
        status: "failed",
        rationale: 'no completed check_availability {"date":"2026-08-08"}; observed check_availability {"date":"2026-08-09"} (completed), check_availability {"date":"2026-08-08"} (failed)',
        evidence_ids: ["tool.c1", "world.event.1", "tool.c2"],
        at_ms: null,
      },
      { id: "cancel", status: "failed", rationale: "cancel_reservation never ran", evidence_ids: [], at_ms: null },
    ]);
  });

  it("after a prerequisite: requested at its moment counts, requested before it does not", () => {
    const first = { id: "first", kind: "tool" as const, tool: "list_tables" }; // done at 600 ms
    const atMoment = call("c1", "check_availability", {}, 600, 700);
    expect(grade([first, { id: "then", kind: "tool", tool: "check_availability", after: ["first"] }], { tool_executions: [executions[0]!, atMoment] })[1]).toEqual({
      id: "then",
      status: "passed",
      rationale: "check_availability completed at 700 ms after first (600 ms)",
      evidence_ids: ["tool.c1"],
      at_ms: 700,
    });
    const early = call("c1", "check_availability", {}, 599, 650);
    expect(grade([first, { id: "then", kind: "tool", tool: "check_availability", after: ["first"] }], { tool_executions: [executions[0]!, early] })[1]).toEqual({
      id: "then",
      status: "failed",
      rationale: "check_availability ran only at 599 ms, before its prerequisite after first (600 ms)",
      evidence_ids: ["tool.c1"],
      at_ms: null,
    });
  });
});

describe("clarification steps", () => {
  it("the assistant's question naming the detail, after the prerequisites; the caller's own questions do not count", () => {
    const turns = [
      U("What date is free?", 0, 1000), //                 utt.user.1: the caller asks, not the assistant
      A("Which date would you like?", 1500, 2500), //     utt.assistant.1
      A("Sorry, what date works for you?", 4000, 5000), // utt.assistant.2
    ];
    const listed = call("c1", "list_tables", {}, 3000, 3500);
    expect(
      grade(
        [
          { id: "no_field", kind: "clarification", arguments: { field: "  " } },
          { id: "ask_date", kind: "clarification", arguments: { field: "date" } },
          { id: "listed", kind: "tool", tool: "list_tables" },
          { id: "ask_again", kind: "clarification", arguments: { field: "date" }, after: ["listed"] },
          { id: "ask_name", kind: "clarification", arguments: { field: "guest_name" } },
        ],
        { turns, tool_executions: [listed] },
      ),
    ).toEqual([
      { id: "no_field", status: "failed", rationale: 'cannot be checked: a clarification step names the detail asked for ({"field": "<fact key>"})', evidence_ids: [], at_ms: null },
      { id: "ask_date", status: "passed", rationale: 'utt.assistant.1 asked for date at 1500 ms: "Which date would you like?"', evidence_ids: ["utt.assistant.1"], at_ms: 2500 },
      { id: "listed", status: "passed", rationale: "list_tables completed at 3500 ms", evidence_ids: ["tool.c1"], at_ms: 3500 },
      { id: "ask_again", status: "passed", rationale: 'utt.assistant.2 asked for date at 4000 ms after listed (3500 ms): "Sorry, what date works for you?"', evidence_ids: ["utt.assistant.2"], at_ms: 5000 },
      { id: "ask_name", status: "failed", rationale: "the assistant never asked for guest_name (no question naming name / who / called)", evidence_ids: [], at_ms: null },
    ]);
  });

  it("a question before the prerequisite is named as too early; one starting at its moment counts", () => {
    const listed = call("c1", "list_tables", {}, 3000, 3500);
    const steps = (start: number) =>
      grade(
        [
          { id: "listed", kind: "tool", tool: "list_tables" },
          { id: "ask", kind: "clarification", arguments: { field: "date" }, after: ["listed"] },
        ],
        { turns: [A("Which date would you like?", start, start + 900)], tool_executions: [listed] },
      )[1];
    expect(steps(1500)).toEqual({ id: "ask", status: "failed", rationale: "the assistant asked for date only at 1500 ms (utt.assistant.1), before its prerequisite after listed (3500 ms)", evidence_ids: ["utt.assistant.1"], at_ms: null });
    expect(steps(3500)).toMatchObject({ id: "ask", status: "passed", at_ms: 4400 });
  });

  it("a long question is quoted up to 80 characters", () => {
    const question = `Which date would you like for the table, and is there anything else I should know about the visit?`;
    const [step] = grade([{ id: "ask", kind: "clarification", arguments: { field: "date" } }], { turns: [A(question, 0, 5000)] });
    expect(step!.rationale).toBe(`utt.assistant.1 asked for date at 0 ms: "${question.slice(0, 79)}…"`);
  });
});

describe("correction steps", () => {
  const booked = (date: string, requested_ms: number, id = "c1") => call(id, "create_reservation", { booking: { guest_name: "Maya", slots: [{ date }] } }, requested_ms, requested_ms + 200);

  it("needs both the field and the corrected value", () => {
    expect(grade([{ id: "fix", kind: "correction", arguments: { field: "date" } }], {})).toEqual([
      { id: "fix", status: "failed", rationale: 'cannot be checked: a correction step names the field and its corrected value ({"field": "<key>", "value": <value>})', evidence_ids: [], at_ms: null },
    ]);
    expect(grade([{ id: "fix", kind: "correction", arguments: { value: "2026-08-08" } }], {})[0]!.status).toBe("failed");
  });

  it("executions after the caller's correction must carry the corrected value, found however deep", () => {
    const turns = [U("August 7th, please.", 0, 1000), U("Mm-hmm, August 8th.", 1500, 1800, "BACKCHANNEL"), U("Actually, make that August 8th.", 2000, 3000)];
    const fix = { id: "fix", kind: "correction" as const, arguments: { field: "date", value: "2026-08-08" } };
    // c1 ran before the correction (ignored); c2 after it, with the new date nested in a list of slots.
    expect(grade([fix], { turns, tool_executions: [booked("2026-08-07", 1200), booked("2026-08-08", 3500, "c2")] })).toEqual([
      {
        id: "fix",
        status: "passed",
        rationale: `after the caller's correction (utt.user.3 at 2000 ms: "Actually, make that August 8th."), create_reservation at 3500 ms used date "2026-08-08"`,
        evidence_ids: ["utt.user.3", "tool.c2"],
        at_ms: 3000,
      },
    ]);
    expect(grade([fix], { turns, tool_executions: [booked("2026-08-07", 3500, "c2"), call("c3", "check_availability", { date: "2026-08-07" }, 4000, 4100, { status: "failed" })] })).toEqual([
      {
        id: "fix",
        status: "failed",
        rationale: `after the caller's correction (utt.user.3 at 2000 ms: "Actually, make that August 8th."), create_reservation at 3500 ms used date "2026-08-07", not "2026-08-08"`,
        evidence_ids: ["utt.user.3", "tool.c2"],
        at_ms: null,
      },
    ]);
  });

  it("the correction is recognised by a correction word naming the value, else the value alone, else the word alone", () => {
    const fix = [{ id: "fix", kind: "correction" as const, arguments: { field: "party_size", value: 4 } }];
    const momentOf = (turns: Turn[]) => grade(fix, { turns, tool_executions: [call("c1", "create_reservation", { party_size: 4 }, 9000, 9100)] })[0]!.evidence_ids[0];
    expect(momentOf([U("We are four.", 0, 1000), U("Actually, make that four.", 2000, 3000)])).toBe("utt.user.2");
    expect(momentOf([U("Actually, hold on.", 0, 1000), U("We are four.", 2000, 3000)])).toBe("utt.user.2");
    expect(momentOf([U("Hello.", 0, 1000), U("Actually, hold on.", 2000, 3000)])).toBe("utt.user.2");
    expect(momentOf([U("Actually, the party size changed.", 0, 1000), U("Actually, hold on.", 2000, 3000)])).toBe("utt.user.1");
  });

  it("without a correction in the caller's words, the latest execution carrying the field decides, and its moment is that request", () => {
    expect(grade([{ id: "fix", kind: "correction", arguments: { field: "party_size", value: 4 } }], { turns: [U("Hello.", 0, 500)], tool_executions: [call("c1", "create_reservation", { party_size: 2 }, 1000, 1100), call("c2", "create_reservation", { party_size: 4 }, 2000, 2100)] })).toEqual([
      {
        id: "fix",
        status: "passed",
        rationale: "(no correction recognised in the caller's words; judged on the latest execution carrying party_size), create_reservation at 2000 ms used party_size 4",
        evidence_ids: ["tool.c2"],
        at_ms: 2000,
      },
    ]);
  });

  it("with no execution carrying the field, the final state's additions and replacements must hold the value", () => {
    const turns = [U("Actually, make that August 8th.", 0, 1000)];
    const fix = [{ id: "fix", kind: "correction" as const, arguments: { field: "date", value: "2026-08-08" } }];
    const withDiff = (diff: unknown[]) => grade(fix, { turns, world: { ...emptyWorld, diff } });
    const where = `after the caller's correction (utt.user.1 at 0 ms: "Actually, make that August 8th.")`;
    expect(withDiff([{ op: "remove", path: "/old/date" }, { op: "replace", path: "/reservations/R-1/date", value: "2026-08-08" }, { op: "add", path: "/notes", value: "none" }])).toEqual([
      { id: "fix", status: "passed", rationale: `${where}, the final state holds date "2026-08-08"`, evidence_ids: ["utt.user.1", "state.diff.2"], at_ms: 1000 },
    ]);
    expect(withDiff([{ op: "add", path: "/reservations/R-1", value: { guest_name: "Maya", date: "2026-08-07" } }])).toEqual([
      { id: "fix", status: "failed", rationale: `${where}, the final state holds date "2026-08-07", not "2026-08-08"`, evidence_ids: ["utt.user.1", "state.diff.1"], at_ms: null },
    ]);
    expect(withDiff([{ op: "add", path: "/notes", value: "none" }])).toEqual([
      { id: "fix", status: "failed", rationale: `${where}, no execution and no state change carried date`, evidence_ids: ["utt.user.1"], at_ms: null },
    ]);
    // A date only in the state and no words of correction: passed, with no moment to order later steps by.
    expect(grade(fix, { world: { ...emptyWorld, diff: [{ op: "add", path: "/date", value: "2026-08-08" }] } })[0]).toMatchObject({ status: "passed", at_ms: null });
  });
});

describe("authorization steps", () => {
  const cancel = (id: string, reservation_id: string, requested_ms: number) => call(id, "cancel_reservation", { reservation_id }, requested_ms, requested_ms + 200);
  const turns = [
    A("Shall I cancel it?", 0, 1000), //               utt.assistant.1
    U("Mm-hmm.", 500, 700, "BACKCHANNEL"), //          utt.user.1: no reply
    U("Yes.", 1500, 2000), //                         utt.user.2
  ];

  it("without a tool: the first go-ahead, or why there was none", () => {
    expect(grade([{ id: "ok", kind: "authorization" }], { turns })).toEqual([
      { id: "ok", status: "passed", rationale: 'utt.assistant.1 asked, utt.user.2 at 1500 ms agreed ("yes")', evidence_ids: ["utt.assistant.1", "utt.user.2"], at_ms: 2000 },
    ]);
    expect(grade([{ id: "ok", kind: "authorization" }], { turns: [A("Cancelled.", 0, 1000), U("Yes.", 1500, 2000)] })).toEqual([
      { id: "ok", status: "failed", rationale: "the assistant never asked for a go-ahead", evidence_ids: [], at_ms: null },
    ]);
  });

  it("the tool's first run (of the selected arguments) must come at or after the go-ahead", () => {
    const step = { id: "ok", kind: "authorization" as const, tool: "cancel_reservation", arguments: { reservation_id: "R-2" } };
    // The cancel of R-1 at 100 ms is another reservation: not the run this step is about.
    expect(grade([step], { turns, tool_executions: [cancel("c1", "R-1", 100), cancel("c2", "R-2", 2000)] })).toEqual([
      { id: "ok", status: "passed", rationale: 'utt.assistant.1 asked, utt.user.2 at 1500 ms agreed ("yes"), before cancel_reservation ran at 2000 ms', evidence_ids: ["utt.assistant.1", "utt.user.2", "tool.c2"], at_ms: 2000 },
    ]);
    expect(grade([step], { turns, tool_executions: [cancel("c2", "R-2", 1999)] })).toEqual([
      { id: "ok", status: "failed", rationale: "cancel_reservation ran at 1999 ms without a go-ahead before it; the caller agreed only at 1500 ms (utt.user.2)", evidence_ids: ["tool.c2", "utt.assistant.1", "utt.user.2"], at_ms: null },
    ]);
    expect(grade([step], { turns: [U("Cancel R-2.", 0, 900)], tool_executions: [cancel("c2", "R-2", 1000)] })).toEqual([
      { id: "ok", status: "failed", rationale: "cancel_reservation ran at 1000 ms without a go-ahead before it; the assistant never asked for a go-ahead", evidence_ids: ["tool.c2"], at_ms: null },
    ]);
  });

  it("an unsure caller has not agreed: cancelling after 'Hmm, not sure.' fails the step", () => {
    const step = { id: "ok", kind: "authorization" as const, tool: "cancel_reservation" };
    expect(grade([step], { turns: [A("Shall I cancel it?", 0, 1000), U("Hmm, not sure.", 1500, 2000)], tool_executions: [cancel("c1", "R-2", 2500)] })).toEqual([
      {
        id: "ok",
        status: "failed",
        rationale: 'cancel_reservation ran at 2500 ms without a go-ahead before it; the assistant asked (utt.assistant.1) but the caller never agreed (utt.user.1: "Hmm, not sure.")',
        evidence_ids: ["tool.c1", "utt.assistant.1"],
        at_ms: null,
      },
    ]);
  });

  it("a tool that never ran: a go-ahead still passes, none fails, each saying the tool did not run", () => {
    const step = { id: "ok", kind: "authorization" as const, arguments: { tool: "cancel_reservation" } };
    expect(grade([step], { turns })).toEqual([
      { id: "ok", status: "passed", rationale: 'utt.assistant.1 asked, utt.user.2 at 1500 ms agreed ("yes"); cancel_reservation did not run', evidence_ids: ["utt.assistant.1", "utt.user.2"], at_ms: 2000 },
    ]);
    const refused = [A("Shall I cancel it?", 0, 1000), U("No, I changed my mind about the whole thing, please leave it as it is.", 1500, 4000)];
    expect(grade([step], { turns: refused })).toEqual([
      {
        id: "ok",
        status: "failed",
        rationale: 'the assistant asked (utt.assistant.1) but the caller never agreed (utt.user.1: "No, I changed my mind about the whole thing, plea…"); cancel_reservation did not run',
        evidence_ids: ["utt.assistant.1"],
        at_ms: null,
      },
    ]);
  });

  it("a second request for a go-ahead before the caller answers takes over the answer", () => {
    const twice = [A("Shall I cancel it?", 0, 1000), A("Shall I cancel R-2 then?", 1200, 2000), U("Yes.", 2500, 3000)];
    expect(grade([{ id: "ok", kind: "authorization" }], { turns: twice })[0]).toMatchObject({ status: "passed", evidence_ids: ["utt.assistant.2", "utt.user.1"] });
    // A question at or after the prerequisite's moment only: the earlier question and its yes do not count.
    const later = [...turns, A("Shall I also cancel R-3?", 3000, 4000), U("Okay.", 4500, 5000)];
    const steps = grade([{ id: "first", kind: "authorization" }, { id: "second", kind: "authorization", after: ["first"] }], { turns: later });
    expect(steps[1]).toEqual({ id: "second", status: "passed", rationale: 'utt.assistant.2 asked, utt.user.3 at 4500 ms agreed ("okay") after first (2000 ms)', evidence_ids: ["utt.assistant.2", "utt.user.3"], at_ms: 5000 });
  });
});

describe("state steps", () => {
  it("list the expected fields; the final state must hold them, citing every change", () => {
    const world = { initial: { count: 0 }, final: { count: 1 }, view: { booked: true }, diff: [{ op: "replace", path: "/count", value: 1 }] };
    expect(grade([{ id: "none", kind: "state" }, { id: "booked", kind: "state", arguments: { booked: true, count: 1 } }, { id: "two", kind: "state", arguments: { count: 2 } }], { world })).toEqual([
      { id: "none", status: "failed", rationale: "cannot be checked: a state step lists the expected fields of the final state in its arguments", evidence_ids: [], at_ms: null },
      { id: "booked", status: "passed", rationale: "final state matches the expected fields", evidence_ids: ["state.diff.1"], at_ms: null },
      { id: "two", status: "failed", rationale: "final state differs: count: expected 2, observed 1", evidence_ids: ["state.diff.1"], at_ms: null },
    ]);
  });
});

describe("grounded confirmation steps", () => {
  const booked = call("c1", "create_reservation", { party_size: 4 }, 1000, 1500, { output: { reservation: { id: "R-002", tables: [7] } } });
  const checked = call("c2", "check_availability", {}, 2000, 2500);

  it("without prerequisites: after the last completed execution (of the named tool), words of outcome or one of its values", () => {
    const turns = [A("One moment.", 1200, 1400), A("We have a table for 4.", 2600, 3000)];
    expect(grade([{ id: "told", kind: "grounded_confirmation", tool: "create_reservation" }], { turns, tool_executions: [booked, checked] })).toEqual([
      // "4" is an argument of create_reservation: relaying it reports the outcome.
      { id: "told", status: "passed", rationale: 'utt.assistant.2 at 2600 ms after create_reservation completed (1500 ms) reported the outcome ("4")', evidence_ids: ["utt.assistant.2", "tool.c1"], at_ms: 3000 },
    ]);
    // The last completed execution is check_availability (2500 ms): only speech from then on counts.
    expect(grade([{ id: "told", kind: "grounded_confirmation" }], { turns: [A("Your number is R-002.", 1600, 2400), A("  ", 2600, 2700)], tool_executions: [booked, checked] })).toEqual([
      { id: "told", status: "failed", rationale: "the assistant said nothing after check_availability completed (2500 ms)", evidence_ids: ["tool.c2"], at_ms: null },
    ]);
    // A value from deep in the output (the reservation id) counts too.
    expect(grade([{ id: "told", kind: "grounded_confirmation", tool: "create_reservation" }], { turns: [A("Your number is R-002.", 1600, 2400)], tool_executions: [booked, checked] })[0]).toMatchObject({
      status: "passed",
      rationale: 'utt.assistant.1 at 1600 ms after create_reservation completed (1500 ms) reported the outcome ("R-002")',
    });
  });

  it("a named tool that never completed leaves nothing to confirm; without any tool, any later report of an outcome counts", () => {
    const failed = { ...booked, status: "failed" as const };
    expect(grade([{ id: "told", kind: "grounded_confirmation", tool: "create_reservation" }], { turns: [A("It is done.", 2000, 2500)], tool_executions: [failed] })).toEqual([
      { id: "told", status: "failed", rationale: "create_reservation never completed, so there was no outcome to confirm", evidence_ids: [], at_ms: null },
    ]);
    expect(grade([{ id: "told", kind: "grounded_confirmation" }], { turns: [A("It is done.", 2000, 2500)] })).toEqual([
      { id: "told", status: "passed", rationale: 'utt.assistant.1 at 2000 ms reported the outcome ("done")', evidence_ids: ["utt.assistant.1"], at_ms: 2500 },
    ]);
  });

  it("two executions completing together: the later-listed one is the last", () => {
    const same = call("c3", "add_note", { note: "window" }, 1000, 1500);
    expect(grade([{ id: "told", kind: "grounded_confirmation" }], { turns: [A("Noted: window.", 1600, 2000)], tool_executions: [booked, same] })[0]).toMatchObject({
      status: "passed",
      evidence_ids: ["utt.assistant.1", "tool.c3"],
    });
  });

  it("after a prerequisite: speech that does not report the outcome is named", () => {
    const steps = grade(
      [
        { id: "book", kind: "tool", tool: "create_reservation" },
        { id: "told", kind: "grounded_confirmation", after: ["book"] },
      ],
      { turns: [A("Anything else?", 1600, 2000)], tool_executions: [booked] },
    );
    expect(steps[1]).toEqual({ id: "told", status: "failed", rationale: "the assistant spoke after book (1500 ms) (utt.assistant.1) but did not report the outcome", evidence_ids: ["utt.assistant.1", "tool.c1"], at_ms: null });
  });
});

describe("refusal steps", () => {
  const turns = [
    U("Cancel R-3.", 0, 1000),
    A("I can't do that.", 1500, 2500), //      utt.assistant.1
    U("Please.", 3000, 3500),
    A("I can't.", 4000, 4500), //              utt.assistant.2
    A("I really can't.", 4600, 5000), //       utt.assistant.3: the same turn, counted once
  ];

  it("counts one refusal per assistant turn against the minimum (default 1, or from the arguments)", () => {
    expect(grade([{ id: "once", kind: "refusal" }, { id: "twice", kind: "refusal", arguments: { minimum_count: 2 } }, { id: "thrice", kind: "refusal", arguments: { minimum_count: 3 } }], { turns })).toEqual([
      { id: "once", status: "passed", rationale: "refused 2 time(s) (at least 1): utt.assistant.1, utt.assistant.2; no prohibited execution", evidence_ids: ["utt.assistant.1", "utt.assistant.2"], at_ms: 2500 },
      { id: "twice", status: "passed", rationale: "refused 2 time(s) (at least 2): utt.assistant.1, utt.assistant.2; no prohibited execution", evidence_ids: ["utt.assistant.1", "utt.assistant.2"], at_ms: 4500 },
      { id: "thrice", status: "failed", rationale: "refused 2 time(s), fewer than the 3 required", evidence_ids: ["utt.assistant.1", "utt.assistant.2"], at_ms: null },
    ]);
    // A minimum that is not a number falls back to 1; no refusal needed at 0, and then no moment.
    expect(grade([{ id: "odd", kind: "refusal", arguments: { minimum_count: "3" } }], { turns })[0]).toMatchObject({ status: "passed", rationale: expect.stringContaining("(at least 1)") });
    expect(grade([{ id: "zero", kind: "refusal", minimum_count: 0 }], { turns: [] })).toEqual([
      { id: "zero", status: "passed", rationale: "refused 0 time(s) (at least 0): ; no prohibited execution", evidence_ids: [], at_ms: null },
    ]);
  });

  it("after a prerequisite only later refusals count", () => {
    const steps = grade(
      [
        { id: "asked", kind: "clarification", arguments: { field: "date" } },
        { id: "refuse", kind: "refusal", after: ["asked"] },
      ],
      { turns: [A("I can't do that.", 0, 500), A("Which date would you like?", 1000, 2000), U("Tomorrow.", 2500, 3000)] },
    );
    expect(steps[1]).toEqual({ id: "refuse", status: "failed", rationale: "refused 0 time(s), fewer than the 1 required after asked (2000 ms)", evidence_ids: [], at_ms: null });
  });

  it("its own tool, with its selector, is prohibited: another reservation's cancel is not", () => {
    const step = { id: "refuse", kind: "refusal" as const, tool: "cancel_reservation", arguments: { reservation_id: "R-3", minimum_count: 1 } };
    const other = call("c1", "cancel_reservation", { reservation_id: "R-9" }, 500, 600);
    expect(grade([step], { turns, tool_executions: [other] })[0]).toMatchObject({ status: "passed" });
    const this3 = call("c2", "cancel_reservation", { reservation_id: "R-3" }, 5500, 5600, { world_seq: 4 });
    expect(grade([step], { turns, tool_executions: [other, this3] })).toEqual([
      {
        id: "refuse",
        status: "failed",
        rationale: 'cancel_reservation {"reservation_id":"R-3"} ran at 5500 ms (completed) although it is prohibited',
        evidence_ids: ["utt.assistant.1", "utt.assistant.2", "tool.c2", "world.event.4"],
        at_ms: null,
      },
    ]);
  });
});

describe("ordering, without cascade", () => {
  it("a step looks from the latest moment among its prerequisites; a prerequisite without a moment does not move it", () => {
    const executions = [call("c1", "list_tables", {}, 0, 1000), call("c2", "check_availability", {}, 0, 3000), call("c3", "create_reservation", {}, 2000, 3500)];
    const world = { initial: {}, final: { n: 1 }, view: {}, diff: [{ op: "add", path: "/n", value: 1 }] };
    const steps = grade(
      [
        { id: "listed", kind: "tool", tool: "list_tables" }, //    done at 1000
        { id: "checked", kind: "tool", tool: "check_availability" }, // done at 3000
        { id: "state", kind: "state", arguments: { n: 1 } }, //   passes, no moment
        { id: "book", kind: "tool", tool: "create_reservation", after: ["listed", "checked", "state"] },
      ],
      { tool_executions: executions, world },
    );
    // create_reservation was requested at 2000 ms, before check_availability completed at 3000 ms.
    expect(steps[3]).toEqual({ id: "book", status: "failed", rationale: "create_reservation ran only at 2000 ms, before its prerequisite after checked (3000 ms)", evidence_ids: ["tool.c3"], at_ms: null });
  });

  it("a step after a failed step stands on its own evidence, naming the failure; an unknown prerequisite cannot be checked", () => {
    const executions = [call("c1", "create_reservation", {}, 0, 100)];
    const steps = grade(
      [
        { id: "cancelled", kind: "tool", tool: "cancel_reservation" },
        { id: "book", kind: "tool", tool: "create_reservation", after: ["cancelled"] },
        { id: "also", kind: "tool", tool: "list_tables", after: ["nope"] },
        { id: "again", kind: "tool", tool: "list_tables", after: ["cancelled"] },
      ],
      { tool_executions: executions },
    );
    expect(steps.slice(1)).toEqual([
      { id: "book", status: "passed", rationale: "create_reservation completed at 100 ms (cancelled failed before it; judged on its own evidence)", evidence_ids: ["tool.c1"], at_ms: 100 },
      { id: "also", status: "failed", rationale: "cannot be checked: it must follow nope, which is not an earlier step of this procedure", evidence_ids: [], at_ms: null },
      { id: "again", status: "failed", rationale: "list_tables never ran (cancelled failed before it; judged on its own evidence)", evidence_ids: [], at_ms: null },
    ]);
  });

  it("a failed prerequisite gives no moment: the passed one orders the step", () => {
    // asked_date passes at 2000 ms; asked_name fails; the tool requested at 1500 ms is before 2000 ms.
    const turns = [A("Which date would you like?", 1000, 2000)];
    const steps = grade(
      [
        { id: "asked_date", kind: "clarification", arguments: { field: "date" } },
        { id: "asked_name", kind: "clarification", arguments: { field: "guest_name" } },
        { id: "book", kind: "tool", tool: "create_reservation", after: ["asked_name", "asked_date"] },
      ],
      { turns, tool_executions: [call("c1", "create_reservation", {}, 1500, 1600)] },
    );
    expect(steps[2]).toEqual({
      id: "book",
      status: "failed",
      rationale: "create_reservation ran only at 1500 ms, before its prerequisite after asked_date (2000 ms) (asked_name failed before it; judged on its own evidence)",
      evidence_ids: ["tool.c1"],
      at_ms: null,
    });
  });
});

describe("procedure steps: boundaries", () => {
  it("an utterance of exactly 80 characters is quoted whole", () => {
    const question = "Which date would you like for your table for two, or shall we choose one later?!";
    expect(question).toHaveLength(80);
    expect(grade([{ id: "ask", kind: "clarification", arguments: { field: "date" } }], { turns: [A(question, 0, 5000)] })[0]!.rationale).toBe(`utt.assistant.1 asked for date at 0 ms: "${question}"`);
  });

  it("correction: only the caller's own words after the prerequisites are a correction, and an execution at its end counts", () => {
    const fix = { id: "fix", kind: "correction" as const, after: ["asked"], arguments: { field: "party_size", value: 4 } };
    const asked = { id: "asked", kind: "clarification" as const, arguments: { field: "party_size" } };
    const turns = [
      U("Actually, we are four.", 0, 500), //                          before the question: not the correction
      A("Actually, four is a lot. How many people are you?", 1000, 2000), // the assistant's words are not the caller's
      U("Mm-hmm, four.", 2100, 2200, "BACKCHANNEL"),
      U("Actually, make that four.", 3000, 4000),
    ];
    // The execution requested exactly when the correction ended counts; one carrying a null elsewhere is searched safely.
    const steps = grade([asked, fix], { turns, tool_executions: [call("c1", "create_reservation", { note: null, party_size: 4 }, 4000, 4100)] });
    expect(steps[1]).toEqual({
      id: "fix",
      status: "passed",
      rationale: `after the caller's correction (utt.user.3 at 3000 ms: "Actually, make that four."), create_reservation at 4000 ms used party_size 4`,
      evidence_ids: ["utt.user.3", "tool.c1"],
      at_ms: 4000,
    });
    expect(grade([{ id: "fix", kind: "correction" }], {})[0]!.rationale).toMatch(/^cannot be checked: a correction step names the field/);
  });

  it("correction without words: the latest of several executions carrying the field, listing every stale one", () => {
    const executions = [call("c1", "create_reservation", { party_size: 2 }, 1000, 1100), call("c2", "create_reservation", { party_size: 3 }, 2000, 2100), call("c3", "create_reservation", { party_size: 4 }, 3000, 3100), call("c4", "list_tables", {}, 4000, 4100)];
    expect(grade([{ id: "fix", kind: "correction", arguments: { field: "party_size", value: 4 } }], { tool_executions: executions })[0]).toMatchObject({ status: "passed", evidence_ids: ["tool.c3"] });
    const turns = [U("Actually, make that four.", 0, 500)];
    expect(grade([{ id: "fix", kind: "correction", arguments: { field: "party_size", value: 4 } }], { turns, tool_executions: executions.slice(0, 2) })[0]!.rationale).toBe(
      `after the caller's correction (utt.user.1 at 0 ms: "Actually, make that four."), create_reservation at 1000 ms used party_size 2, not 4; create_reservation at 2000 ms used party_size 3, not 4`,
    );
    expect(grade([{ id: "fix", kind: "correction", arguments: { field: "party_size", value: 4 } }], { turns, tool_executions: [executions[2]!, { ...executions[2]!, call_id: "c5", requested_ms: 3500 }] })[0]!.rationale).toBe(
      `after the caller's correction (utt.user.1 at 0 ms: "Actually, make that four."), create_reservation at 3000 ms, create_reservation at 3500 ms used party_size 4`,
    );
    const twoStale = { ...emptyWorld, diff: [{ op: "add", path: "/a/party_size", value: 2 }, { op: "add", path: "/b/party_size", value: 3 }] };
    expect(grade([{ id: "fix", kind: "correction", arguments: { field: "party_size", value: 4 } }], { turns, world: twoStale })[0]!.rationale).toBe(
      `after the caller's correction (utt.user.1 at 0 ms: "Actually, make that four."), the final state holds party_size 2, 3, not 4`,
    );
  });

  it("authorization: the caller's reply is the next caller utterance strictly after the question", () => {
    const step = [{ id: "ok", kind: "authorization" as const }];
    // The assistant's own "Okay" is no reply, and a caller utterance starting with the question is not one either.
    expect(grade(step, { turns: [A("Shall I cancel it?", 0, 1000), U("Yes.", 0, 300), A("Okay, take your time.", 1200, 2000), U("Hmm, let me think.", 2500, 3000), U("No.", 3500, 3800)] })).toEqual([
      { id: "ok", status: "failed", rationale: 'the assistant asked (utt.assistant.1) but the caller never agreed (utt.user.2: "Hmm, let me think.")', evidence_ids: ["utt.assistant.1"], at_ms: null },
    ]);
    // A question nobody answered, and the caller's own question: neither is agreed to.
    expect(grade(step, { turns: [U("Shall I call back later?", 0, 1000), A("Shall I cancel it?", 1500, 2000), U("Yes.", 1000, 1400)] })).toEqual([
      { id: "ok", status: "failed", rationale: "the assistant asked (utt.assistant.1) but the caller never agreed", evidence_ids: ["utt.assistant.1"], at_ms: null },
    ]);
    // A second question starting exactly when the caller answers does not take the answer over.
    expect(grade(step, { turns: [A("Shall I cancel it?", 0, 1000), U("Yes.", 2000, 2500), A("Shall I also cancel R-3?", 2000, 3000)] })[0]).toMatchObject({ status: "passed", evidence_ids: ["utt.assistant.1", "utt.user.1"] });
    // Two questions, two refusals: all named.
    expect(grade(step, { turns: [A("Shall I cancel it?", 0, 1000), U("No.", 1500, 2000), A("Shall I cancel R-3 then?", 2500, 3000), U("Hmm.", 3500, 4000)] })[0]!.rationale).toBe(
      'the assistant asked (utt.assistant.1, utt.assistant.2) but the caller never agreed (utt.user.1: "No."; utt.user.2: "Hmm.")',
    );
  });

  it("authorization: runs before the prerequisite are not the step's run; a run without any yes cites the questions", () => {
    const listed = call("c0", "list_tables", {}, 0, 500);
    const steps = (runAt: number) =>
      grade([{ id: "listed", kind: "tool", tool: "list_tables" }, { id: "ok", kind: "authorization", tool: "cancel_reservation", after: ["listed"] }], {
        turns: [A("Shall I cancel it?", 600, 1000), U("Yes.", 1500, 2000)],
        tool_executions: [listed, call("c1", "cancel_reservation", {}, runAt, runAt + 100)],
      })[1];
    expect(steps(499)).toMatchObject({ status: "passed", rationale: expect.stringContaining("cancel_reservation did not run") });
    expect(steps(500)).toMatchObject({ status: "failed", rationale: expect.stringContaining("cancel_reservation ran at 500 ms without a go-ahead before it") });
    expect(grade([{ id: "ok", kind: "authorization", tool: "cancel_reservation" }], { turns: [A("Shall I cancel it?", 0, 1000), U("No.", 1500, 2000)], tool_executions: [call("c1", "cancel_reservation", {}, 2500, 2600)] })).toEqual([
      {
        id: "ok",
        status: "failed",
        rationale: 'cancel_reservation ran at 2500 ms without a go-ahead before it; the assistant asked (utt.assistant.1) but the caller never agreed (utt.user.1: "No.")',
        evidence_ids: ["tool.c1", "utt.assistant.1"],
        at_ms: null,
      },
    ]);
  });

  it("grounded confirmation: only the assistant's words count, from the moment the tool completed; null values are skipped", () => {
    const early = call("c1", "create_reservation", { note: null, party_size: 4 }, 0, 1000, { output: undefined });
    const late = call("c2", "check_availability", {}, 0, 500); // listed later, completed earlier
    const told = [{ id: "told", kind: "grounded_confirmation" as const }];
    expect(grade(told, { turns: [U("It is done.", 1000, 1200), A("A table for 4.", 1000, 1500), A("Anything else?", 1600, 1800)], tool_executions: [early, late] })).toEqual([
      { id: "told", status: "passed", rationale: 'utt.assistant.1 at 1000 ms after create_reservation completed (1000 ms) reported the outcome ("4")', evidence_ids: ["utt.assistant.1", "tool.c1"], at_ms: 1500 },
    ]);
    expect(grade(told, { turns: [A("Hello.", 1000, 1200), A("Anything else?", 1300, 1500)], tool_executions: [early] })[0]!.rationale).toBe(
      "the assistant spoke after create_reservation completed (1000 ms) (utt.assistant.1, utt.assistant.2) but did not report the outcome",
    );
    // After a clarification (no executions of its own) the grounds are empty: only the utterance is cited.
    const steps = grade([{ id: "asked", kind: "clarification", arguments: { field: "date" } }, { id: "told", kind: "grounded_confirmation", after: ["asked"] }], { turns: [A("Which date would you like?", 0, 500), A("It is done.", 600, 900)] });
    expect(steps[1]).toMatchObject({ status: "passed", evidence_ids: ["utt.assistant.2"] });
  });

  it("refusal: a first refusal before any caller words counts; a backchannel does not split the assistant's turn; a refusal at the prerequisite's moment counts", () => {
    expect(grade([{ id: "r", kind: "refusal", minimum_count: 1 }], { turns: [A("I can't do that.", 0, 500), U("Mm-hmm.", 600, 700, "BACKCHANNEL"), A("I really can't.", 800, 1000)] })[0]).toMatchObject({
      status: "passed",
      evidence_ids: ["utt.assistant.1"],
    });
    const steps = grade([{ id: "asked", kind: "clarification", arguments: { field: "date" } }, { id: "r", kind: "refusal", after: ["asked"] }], { turns: [A("Which date would you like?", 0, 500), A("I can't do that.", 500, 900)] });
    expect(steps[1]).toMatchObject({ status: "passed", evidence_ids: ["utt.assistant.2"] });
  });

  it("refusal: a call matching any one prohibition is a violation", () => {
    const step = { id: "r", kind: "refusal" as const, tool: "delete_account" };
    const cancel = call("c1", "cancel_reservation", { reservation_id: "R-3" }, 100, 200);
    expect(grade([step], { turns: [A("I can't do that.", 0, 500)], tool_executions: [cancel], prohibited: [{ name: "cancel_reservation", arguments: {}, status: "any" }] })[0]).toMatchObject({
      status: "failed",
      rationale: 'cancel_reservation {"reservation_id":"R-3"} ran at 100 ms (completed) although it is prohibited',
    });
  });

  it("every failed prerequisite is named, and only the failed ones", () => {
    const steps = grade([{ id: "a", kind: "tool", tool: "x" }, { id: "b", kind: "tool", tool: "y" }, { id: "d", kind: "tool", tool: "z" }, { id: "c", kind: "tool", tool: "z", after: ["a", "d", "b"] }], { tool_executions: [call("c1", "z", {}, 0, 10), call("c2", "z", {}, 20, 30)] });
    expect(steps[3]!.rationale).toBe("z completed at 30 ms after d (10 ms) (a, b failed before it; judged on its own evidence)");
  });
});

// ── The caller's acts (RUN, offline caller): structure decides, whatever the assistant's wording ──────
type Line = NonNullable<ProcedureEvidence["caller"]>[number];
/** A caller line with its acts, and the user turn the record holds for it (same text and times). */
const said = (text: string, start_ms: number, end_ms: number, acts: Line["acts"], heard: Line["heard"] = null): { line: Line; turn: Turn } => ({
  line: { text, start_ms, end_ms, acts, heard },
  turn: U(text, start_ms, end_ms),
});
/** Turns in time order (caller lines among them), and the caller's lines for ProcedureEvidence.caller. */
function conversation(...parts: Array<Turn | { line: Line; turn: Turn }>): Pick<ProcedureEvidence, "turns" | "caller"> {
  return { turns: parts.map((p) => ("turn" in p ? p.turn : p)), caller: parts.flatMap((p) => ("line" in p ? [p.line] : [])) };
}
const cancelRun = (id: string, reservation_id: string, requested_ms: number) => call(id, "cancel_reservation", { reservation_id }, requested_ms, requested_ms + 200);

describe("slot names compared", () => {
  it("one name's words among the other's, with everyday names folded in; never a mere overlap", () => {
    expect(["reservation", "id", "reservation_id", "first_reservation_id", "booking id"].map((f) => sameField(f, "reservation_id", RESTAURANT))).toEqual([true, true, true, true, true]);
    expect(["name", "guest", "guest_name"].map((f) => sameField(f, "guest_name", RESTAURANT))).toEqual([true, true, true]);
    expect(["party", "guests", "people", "size"].map((f) => sameField(f, "party_size", RESTAURANT))).toEqual([true, true, true, true]);
    expect(sameField("first_date", "date", RESTAURANT)).toBe(true);
    expect(["reservation_date", "time", "seating", "", "_"].map((f) => sameField(f, "reservation_id", RESTAURANT))).toEqual([false, false, false, false, false]);
  });
});

describe("clarification steps on the caller's acts", () => {
  const ask = { id: "ask_reservation", kind: "clarification" as const, arguments: { field: "reservation_id" } };
  const opening = said("Hi, I need to cancel a dinner reservation.", 0, 2000, [{ kind: "request" }]);

  it.each([
    ["Which of your reservations should I look at?", "reservation_id"],
    ["Which booking did you mean?", "reservation"],
    ["Tell me the number on it.", "first_reservation_id"],
    ["Got two on file for you, Lena — the twelfth or the twentieth?", "reservation_id"],
  ])("%s — the caller took it to ask for the reservation (%s): passed on that line and the question", (question, heardField) => {
    const turns = conversation(opening, A(question, 2500, 4500), said("R-2041, please.", 5000, 6000, [{ kind: "give", field: "reservation_id", value: "R-2041" }], { kind: "fields", fields: [heardField] }));
    expect(grade([ask], turns)).toEqual([
      {
        id: "ask_reservation",
        status: "passed",
        rationale: `utt.assistant.1 asked for reservation_id at 2500 ms (utt.user.2 took it to ask for ${heardField}): "${question}"`,
        evidence_ids: ["utt.assistant.1", "utt.user.2"],
        at_ms: 4500,
      },
    ]);
  });

  it("a question naming the reservation that the caller took to ask for a name fails: the caller's acts say what was asked", () => {
    const turns = conversation(opening, A("What name is the reservation under?", 2500, 4500), said("Lena Park.", 5000, 6000, [{ kind: "give", field: "guest_name", value: "Lena Park" }], { kind: "fields", fields: ["guest_name"] }));
    expect(grade([ask, { id: "ask_name", kind: "clarification", arguments: { field: "guest_name" } }], turns)).toEqual([
      { id: "ask_reservation", status: "failed", rationale: "the caller never took the assistant to ask for reservation_id (asked for: utt.user.2: guest_name)", evidence_ids: [], at_ms: null },
      { id: "ask_name", status: "passed", rationale: 'utt.assistant.1 asked for guest_name at 2500 ms (utt.user.2 took it to ask for guest_name): "What name is the reservation under?"', evidence_ids: ["utt.assistant.1", "utt.user.2"], at_ms: 4500 },
    ]);
    // No line heard a question for a detail at all.
    expect(grade([ask], conversation(opening, A("Which booking did you mean?", 2500, 4500), said("Sorry?", 5000, 5500, [{ kind: "repeat_request" }], { kind: "question" })))[0]!.rationale).toBe(
      "the caller never took the assistant to ask for reservation_id (no line heard a question for a detail)",
    );
  });

  it("a question before the prerequisite is too early; the next one, at or after it, counts", () => {
    const listed = call("c1", "list_reservations", {}, 3000, 3500);
    const turns = conversation(
      A("Which booking did you mean?", 1000, 2000), //                                                                            utt.assistant.1
      said("The one on the twelfth.", 2200, 2800, [{ kind: "give", field: "date", value: "2026-08-12" }], { kind: "fields", fields: ["reservation_id"] }), // utt.user.1
      A("And its number, please?", 3500, 4200), //                                                                                utt.assistant.2
      said("R-2040.", 4500, 5000, [{ kind: "give", field: "reservation_id", value: "R-2040" }], { kind: "fields", fields: ["reservation_id"] }), //        utt.user.2
    );
    const steps = grade([{ id: "listed", kind: "tool", tool: "list_reservations" }, { ...ask, after: ["listed"] }], { ...turns, tool_executions: [listed] });
    expect(steps[1]).toEqual({
      id: "ask_reservation",
      status: "passed",
      rationale: 'utt.assistant.2 asked for reservation_id at 3500 ms after listed (3500 ms) (utt.user.2 took it to ask for reservation_id): "And its number, please?"',
      evidence_ids: ["utt.assistant.2", "utt.user.2"],
      at_ms: 4200,
    });
    expect(grade([{ id: "listed", kind: "tool", tool: "list_reservations" }, { ...ask, after: ["listed"] }], { turns: turns.turns.slice(0, 2), caller: turns.caller!.slice(0, 1), tool_executions: [listed] })[1]).toEqual({
      id: "ask_reservation",
      status: "failed",
      rationale: "the assistant asked for reservation_id only at 1000 ms (utt.assistant.1), before its prerequisite after listed (3500 ms)",
      evidence_ids: ["utt.assistant.1", "utt.user.1"],
      at_ms: null,
    });
  });

  it("caller lines map to user turns by start time; a line no turn holds is named by its time and cited by nothing", () => {
    // The recording dropped the caller's first line (no voiced audio): utt.user.1 is the second line.
    const lines: Line[] = [
      { text: "Hello?", start_ms: 0, end_ms: 500, acts: [{ kind: "request" }], heard: null },
      { text: "R-2040.", start_ms: 3000, end_ms: null, acts: [{ kind: "give", field: "reservation_id", value: "R-2040" }], heard: { kind: "fields", fields: ["reservation_id"] } },
    ];
    const turns = [A("Which booking did you mean?", 1000, 2500), U("R-2040.", 3040, 3600)];
    expect(grade([ask], { turns, caller: lines })[0]).toMatchObject({ status: "passed", evidence_ids: ["utt.assistant.1", "utt.user.1"] });
    expect(grade([ask], { turns: turns.slice(0, 1), caller: lines })[0]).toMatchObject({
      status: "passed",
      rationale: `utt.assistant.1 asked for reservation_id at 1000 ms (the caller's line at 3000 ms took it to ask for reservation_id): "Which booking did you mean?"`,
      evidence_ids: ["utt.assistant.1"],
    });
    // A line before any assistant speech answered no question.
    expect(grade([ask], { turns: [U("R-2040.", 0, 500)], caller: [{ ...lines[1]!, start_ms: 0, end_ms: 500 }] })[0]!.status).toBe("failed");
  });

  it("caller lines without any acts (a live caller) leave the step to the speech", () => {
    const lines: Line[] = [{ text: "Tomorrow.", start_ms: 2500, end_ms: 3000 }];
    const turns = [A("Which date would you like?", 1000, 2000), U("Tomorrow.", 2500, 3000)];
    expect(grade([{ id: "ask", kind: "clarification", arguments: { field: "date" } }], { turns, caller: lines })).toEqual([
      { id: "ask", status: "passed", rationale: 'utt.assistant.1 asked for date at 1000 ms: "Which date would you like?"', evidence_ids: ["utt.assistant.1"], at_ms: 2000 },
    ]);
  });
});

describe("authorization steps on the caller's acts", () => {
  const step = { id: "go_ahead", kind: "authorization" as const, tool: "cancel_reservation" };
  const opening = said("I'd like to cancel R-2040.", 0, 2000, [{ kind: "request" }]);

  it.each(["Want me to release that table for you?", "Ready for me to take it off the books?", "I can drop R-2040 for you now — good with that?"])(
    "%s — the caller heard a go-ahead to cancel and confirmed before the cancel: passed",
    (question) => {
      const turns = conversation(opening, A(question, 2500, 4500), said("Mm, fine by me.", 5000, 6000, [{ kind: "confirm" }], { kind: "go_ahead", action: "cancel" }));
      expect(grade([step], { ...turns, tool_executions: [cancelRun("c1", "R-2040", 6500)] })).toEqual([
        {
          id: "go_ahead",
          status: "passed",
          rationale: "utt.assistant.1 asked for a go-ahead, utt.user.2 at 5000 ms confirmed, before cancel_reservation ran at 6500 ms",
          evidence_ids: ["utt.assistant.1", "utt.user.2", "tool.c1"],
          at_ms: 6000,
        },
      ]);
    },
  );

  it("the caller said \"Yes\" but asked a question instead of confirming, and the cancel ran: failed", () => {
    const turns = conversation(opening, A("Shall I cancel it?", 2500, 4000), said("Yes — wait, is there a fee for that?", 4500, 6000, [{ kind: "ask" }], { kind: "go_ahead", action: "cancel" }));
    expect(grade([step], { ...turns, tool_executions: [cancelRun("c1", "R-2040", 6500)] })).toEqual([
      {
        id: "go_ahead",
        status: "failed",
        rationale: "cancel_reservation ran at 6500 ms without a go-ahead before it; the caller took utt.assistant.1 to ask for a go-ahead but never confirmed (utt.user.2: ask)",
        evidence_ids: ["tool.c1", "utt.assistant.1"],
        at_ms: null,
      },
    ]);
  });

  it("a confirm that also corrects or declines is no go-ahead; a go-ahead to book does not authorize a cancel", () => {
    const mixed = conversation(opening, A("Cancelling R-2041 then, okay?", 2500, 4000), said("Yes, but it's R-2040.", 4500, 6000, [{ kind: "confirm" }, { kind: "correct", field: "reservation_id", value: "R-2040" }], { kind: "go_ahead", action: "cancel" }));
    expect(grade([step], { ...mixed, tool_executions: [cancelRun("c1", "R-2040", 6500)] })[0]!.rationale).toBe(
      "cancel_reservation ran at 6500 ms without a go-ahead before it; the caller took utt.assistant.1 to ask for a go-ahead but never confirmed (utt.user.2: confirm + correct)",
    );
    const booking = conversation(opening, A("Shall I book you a new table instead?", 2500, 4000), said("Sure.", 4500, 5000, [{ kind: "confirm" }], { kind: "go_ahead", action: "book" }));
    expect(grade([step], { ...booking, tool_executions: [cancelRun("c1", "R-2040", 6500)] })[0]!.rationale).toBe(
      "cancel_reservation ran at 6500 ms without a go-ahead before it; the caller never took the assistant to ask for a go-ahead to cancel",
    );
    // A go-ahead whose action the caller could not name counts for any tool; a tool whose name says no action takes any go-ahead.
    const unnamed = conversation(opening, A("Okay to go ahead?", 2500, 4000), said("Sure.", 4500, 5000, [{ kind: "confirm" }], { kind: "go_ahead", action: null }));
    expect(grade([step], { ...unnamed, tool_executions: [cancelRun("c1", "R-2040", 6500)] })[0]!.status).toBe("passed");
    expect(grade([{ id: "ok", kind: "authorization", tool: "release_table" }], { ...booking, tool_executions: [call("c1", "release_table", {}, 6500, 6600)] })[0]!.status).toBe("passed");
  });

  it("the confirm came only after the cancel ran: failed, naming when; without a tool the first confirm is the step", () => {
    const turns = conversation(opening, A("Shall I cancel it?", 2500, 4000), said("Yes, please.", 4500, 5500, [{ kind: "confirm" }], { kind: "go_ahead", action: "cancel" }));
    expect(grade([step], { ...turns, tool_executions: [cancelRun("c1", "R-2040", 5000)] })).toEqual([
      {
        id: "go_ahead",
        status: "failed",
        rationale: "cancel_reservation ran at 5000 ms without a go-ahead before it; the caller agreed only at 4500 ms (utt.user.2)",
        evidence_ids: ["tool.c1", "utt.assistant.1", "utt.user.2"],
        at_ms: null,
      },
    ]);
    expect(grade([{ id: "ok", kind: "authorization" }], turns)).toEqual([
      { id: "ok", status: "passed", rationale: "utt.assistant.1 asked for a go-ahead, utt.user.2 at 4500 ms confirmed", evidence_ids: ["utt.assistant.1", "utt.user.2"], at_ms: 5500 },
    ]);
    expect(grade([{ id: "ok", kind: "authorization" }], conversation(opening, A("Anything else?", 2500, 4000)))[0]!.rationale).toBe("the caller never took the assistant to ask for a go-ahead");
  });

  it("after a prerequisite, only a go-ahead asked at or after its moment counts", () => {
    const fixed = { id: "fixed", kind: "tool" as const, tool: "get_reservation" };
    const turns = conversation(
      opening,
      A("Shall I cancel it?", 2500, 4000), //                                                                   utt.assistant.1, before the lookup
      said("Yes.", 4500, 5000, [{ kind: "confirm" }], { kind: "go_ahead", action: "cancel" }), //            utt.user.2
      A("Found it: R-2040 on the twelfth. Still want it gone?", 6000, 8000), //                                  utt.assistant.2
      said("Yes, go on.", 8500, 9000, [{ kind: "confirm" }], { kind: "go_ahead", action: "cancel" }), //    utt.user.3
    );
    const steps = grade([fixed, { ...step, after: ["fixed"] }], { ...turns, tool_executions: [call("c0", "get_reservation", {}, 5200, 5800), cancelRun("c1", "R-2040", 9500)] });
    expect(steps[1]).toMatchObject({ status: "passed", evidence_ids: ["utt.assistant.2", "utt.user.3", "tool.c1"], at_ms: 9000 });
  });
});

describe("correction steps on the caller's acts", () => {
  const fix = { id: "fix", kind: "correction" as const, arguments: { field: "date", value: "2026-08-13" } };
  const booked = (id: string, date: string, requested_ms: number) => call(id, "create_reservation", { guest_name: "Nadia Petrova", date, time: "20:00", party_size: 3 }, requested_ms, requested_ms + 200);
  const turns = conversation(
    said("A table for three on the twelfth, please.", 0, 2000, [{ kind: "request" }, { kind: "give", field: "date", value: "2026-08-12" }]), // utt.user.1
    A("The twelfth at eight for three — under which name?", 2500, 4500), //                                                                     utt.assistant.1
    said("Nadia Petrova. Hm, my sister says it's the thirteenth.", 5000, 7000, [{ kind: "give", field: "guest_name", value: "Nadia Petrova" }, { kind: "correct", field: "date", value: "2026-08-13" }], { kind: "fields", fields: ["guest_name"] }), // utt.user.2
  );

  it("the caller's correct act is the moment, in words no cue list holds; executions after it must use the value", () => {
    expect(grade([fix], { ...turns, tool_executions: [booked("c1", "2026-08-13", 8000)] })).toEqual([
      {
        id: "fix",
        status: "passed",
        rationale: 'after the caller\'s correction (utt.user.2 at 5000 ms: "Nadia Petrova. Hm, my sister says it\'s the thirteenth."), create_reservation at 8000 ms used date "2026-08-13"',
        evidence_ids: ["utt.user.2", "tool.c1"],
        at_ms: 7000,
      },
    ]);
  });

  it("the caller corrected, the assistant booked the first date, then re-checked the new one: failed on the booking", () => {
    // Read as the latest execution alone, the re-check (August 13) would hide the stale booking.
    const recheck = call("c2", "check_availability", { date: "2026-08-13", time: "20:00", party_size: 3 }, 9000, 9100);
    expect(grade([fix], { ...turns, tool_executions: [booked("c1", "2026-08-12", 8000), recheck] })).toEqual([
      {
        id: "fix",
        status: "failed",
        rationale: 'after the caller\'s correction (utt.user.2 at 5000 ms: "Nadia Petrova. Hm, my sister says it\'s the thirteenth."), create_reservation at 8000 ms used date "2026-08-12", not "2026-08-13"',
        evidence_ids: ["utt.user.2", "tool.c1", "tool.c2"],
        at_ms: null,
      },
    ]);
  });

  it("a correction of another field or to another value is not this step's: the latest execution decides, and the rationale says so", () => {
    const other = conversation(
      said("Eight for three on the thirteenth.", 0, 2000, [{ kind: "request" }]),
      A("Which name?", 2500, 3000),
      said("Actually, make it the 13th at nine.", 3500, 5000, [{ kind: "correct", field: "time", value: "2026-08-13" }, { kind: "correct", field: "date", value: "2026-08-14" }]),
    );
    expect(grade([fix], { ...other, tool_executions: [booked("c1", "2026-08-13", 1000), booked("c2", "2026-08-12", 8000)] })).toEqual([
      {
        id: "fix",
        status: "failed",
        rationale: '(no correction of date to "2026-08-13" among the caller\'s acts; judged on the latest execution carrying date), create_reservation at 8000 ms used date "2026-08-12", not "2026-08-13"',
        evidence_ids: ["tool.c2"],
        at_ms: null,
      },
    ]);
  });

  it("a value the caller gave as words of a number matches the number", () => {
    const party = { id: "fix", kind: "correction" as const, arguments: { field: "party_size", value: 6 } };
    const spoken = conversation(said("Six of us now, not four.", 0, 1500, [{ kind: "correct", field: "party_size", value: "6" }]));
    expect(grade([party], { ...spoken, tool_executions: [call("c1", "create_reservation", { party_size: 6 }, 2000, 2100)] })[0]).toMatchObject({ status: "passed", evidence_ids: ["utt.user.1", "tool.c1"], at_ms: 1500 });
    const correctWithoutField = conversation(said("Six of us now.", 0, 1500, [{ kind: "correct", value: 6 }]));
    expect(grade([party], { ...correctWithoutField, tool_executions: [call("c1", "create_reservation", { party_size: 6 }, 2000, 2100)] })[0]!.rationale).toMatch(/^\(no correction of party_size to 6 among the caller's acts/);
  });
});

describe("no cascade: a failed non-critical step never fails a critical one by itself", () => {
  it("a missing clarification leaves the critical cancel passed, naming the failure", () => {
    const turns = conversation(
      said("Cancel R-2040, please.", 0, 2000, [{ kind: "request" }, { kind: "give", field: "reservation_id", value: "R-2040" }]),
      A("R-2040 on the twelfth — shall I cancel it?", 2500, 4500),
      said("Yes, please.", 5000, 6000, [{ kind: "confirm" }], { kind: "go_ahead", action: "cancel" }),
    );
    const steps = grade(
      [
        { id: "ask_reservation", kind: "clarification", arguments: { field: "reservation_id" } },
        { id: "go_ahead", kind: "authorization", arguments: { tool: "cancel_reservation" }, after: ["ask_reservation"], critical: true },
        { id: "cancel", kind: "tool", tool: "cancel_reservation", arguments: { reservation_id: "R-2040" }, after: ["go_ahead"], critical: true },
      ],
      { ...turns, tool_executions: [cancelRun("c1", "R-2040", 6500)] },
    );
    expect(steps).toEqual([
      { id: "ask_reservation", status: "failed", rationale: "the caller never took the assistant to ask for reservation_id (no line heard a question for a detail)", evidence_ids: [], at_ms: null },
      {
        id: "go_ahead",
        status: "passed",
        rationale: "utt.assistant.1 asked for a go-ahead, utt.user.2 at 5000 ms confirmed, before cancel_reservation ran at 6500 ms (ask_reservation failed before it; judged on its own evidence)",
        evidence_ids: ["utt.assistant.1", "utt.user.2", "tool.c1"],
        at_ms: 6000,
      },
      { id: "cancel", status: "passed", rationale: 'cancel_reservation {"reservation_id":"R-2040"} completed at 6700 ms after go_ahead (6000 ms)', evidence_ids: ["tool.c1"], at_ms: 6700 },
    ]);
  });
});

describe("the caller's acts: boundaries", () => {
  const ask = { id: "ask", kind: "clarification" as const, arguments: { field: "reservation_id" } };
  const heardId = { kind: "fields", fields: ["reservation_id"] };

  it("a line still being spoken maps to the overlapping user turn that starts nearest to it, whichever comes first in the record", () => {
    const line: Line = { text: "R-2040.", start_ms: 3000, end_ms: null, acts: [{ kind: "give", field: "reservation_id", value: "R-2040" }], heard: heardId };
    const question = A("Which booking did you mean?", 1000, 2500);
    // Turns touching the line's start (one ends exactly there) and one starting later: the nearest start wins.
    const turns = [question, U("Hm.", 2600, 3000), U("R-2040.", 3020, 3600), U("Thanks.", 3100, 3300), A("Got it.", 3000, 3500)];
    expect(grade([ask], { turns, caller: [line] })[0]!.evidence_ids).toEqual(["utt.assistant.1", "utt.user.2"]);
    expect(grade([ask], { turns: [question, U("Thanks.", 3100, 3300), U("R-2040.", 3020, 3600)], caller: [line] })[0]!.evidence_ids).toEqual(["utt.assistant.1", "utt.user.2"]);
    // With an end, a turn starting exactly at it still holds the line; one starting after it does not.
    expect(grade([ask], { turns: [question, U("R-2040.", 3500, 3600)], caller: [{ ...line, end_ms: 3500 }] })[0]!.evidence_ids).toEqual(["utt.assistant.1", "utt.user.1"]);
    expect(grade([ask], { turns: [question, U("R-2040.", 3501, 3600)], caller: [{ ...line, end_ms: 3500 }] })[0]!.evidence_ids).toEqual(["utt.assistant.1"]);
    expect(grade([ask], { turns: [question, U("Hm.", 2000, 3000)], caller: [{ ...line, end_ms: 3500 }] })[0]!.evidence_ids).toEqual(["utt.assistant.1", "utt.user.1"]);
    expect(grade([ask], { turns: [question, U("Hm.", 2000, 2999)], caller: [{ ...line, end_ms: 3500 }] })[0]!.evidence_ids).toEqual(["utt.assistant.1"]);
    // An assistant utterance starting with the line is not what it replied to.
    expect(grade([ask], { turns: [A("Which booking did you mean?", 3000, 3400), U("R-2040.", 3000, 3600)], caller: [line] })[0]!.status).toBe("failed");
  });

  it("a heard question for fields that names none counts for nothing; several heard fields are listed", () => {
    const turns = conversation(A("Which booking, and for when?", 1000, 2000), said("R-2040, the twelfth.", 2500, 3000, [{ kind: "give", field: "reservation_id", value: "R-2040" }], { kind: "fields" }));
    expect(grade([ask], turns)[0]!.rationale).toBe("the caller never took the assistant to ask for reservation_id (no line heard a question for a detail)");
    const two = conversation(
      A("Which booking, and for when?", 1000, 2000),
      said("The twelfth.", 2500, 3000, [{ kind: "give", field: "date", value: "2026-08-12" }], { kind: "fields", fields: ["date", "time"] }),
      A("What name?", 3500, 4000),
      said("Lena Park.", 4500, 5000, [{ kind: "give", field: "guest_name", value: "Lena Park" }], { kind: "fields", fields: ["guest_name"] }),
    );
    expect(grade([ask], two)[0]!.rationale).toBe("the caller never took the assistant to ask for reservation_id (asked for: utt.user.1: date, time; utt.user.2: guest_name)");
    expect(grade([{ id: "when", kind: "clarification", arguments: { field: "time" } }], two)[0]!.rationale).toBe('utt.assistant.1 asked for time at 1000 ms (utt.user.1 took it to ask for date, time): "Which booking, and for when?"');
  });

  it("slot names: an empty one on either side matches nothing; stray separators are no words", () => {
    expect([sameField("date", "", RESTAURANT), sameField("", "date", RESTAURANT), sameField(" date", "first_date", RESTAURANT), sameField("persons", "party_size", RESTAURANT)]).toEqual([false, false, true, true]);
  });

  it("a line that confirms and gives a detail is a go-ahead; a heard go-ahead with no acts, or no question before it, is named so", () => {
    const step = { id: "go", kind: "authorization" as const, tool: "cancel_reservation" };
    const both = conversation(A("Cancel it?", 1000, 2000), said("Yes, R-2040.", 2500, 3000, [{ kind: "confirm" }, { kind: "give", field: "reservation_id", value: "R-2040" }], { kind: "go_ahead", action: "cancel" }));
    expect(grade([step], { ...both, tool_executions: [cancelRun("c1", "R-2040", 3500)] })[0]!.status).toBe("passed");
    const silent = conversation(said("…", 2500, 3000, [], { kind: "go_ahead", action: "cancel" }));
    expect(grade([step], { ...silent, tool_executions: [cancelRun("c1", "R-2040", 3500)] })[0]!.rationale).toBe(
      "cancel_reservation ran at 3500 ms without a go-ahead before it; the caller took the assistant to ask for a go-ahead but never confirmed (utt.user.1: no act)",
    );
    const unasked = conversation(said("Yes, do it.", 2500, 3000, [{ kind: "confirm" }], { kind: "go_ahead", action: "cancel" }));
    expect(grade([step], { ...unasked, tool_executions: [cancelRun("c1", "R-2040", 3500)] })[0]).toMatchObject({ status: "passed", rationale: "utt.user.1 at 2500 ms confirmed, before cancel_reservation ran at 3500 ms", evidence_ids: ["utt.user.1", "tool.c1"] });
  });

  it("a line no user turn holds is named by its time: in a late go-ahead and in a correction; its end, when it has one, is its moment", () => {
    const step = { id: "go", kind: "authorization" as const, tool: "cancel_reservation" };
    const lines: Line[] = [{ text: "Yes.", start_ms: 2500, end_ms: 3000, acts: [{ kind: "confirm" }], heard: { kind: "go_ahead", action: "cancel" } }];
    expect(grade([step], { turns: [A("Cancel it?", 1000, 2000)], caller: lines, tool_executions: [cancelRun("c1", "R-2040", 2000)] })[0]!.rationale).toBe(
      "cancel_reservation ran at 2000 ms without a go-ahead before it; the caller agreed only at 2500 ms (a caller line)",
    );
    // The line ends at 3000 ms though its turn (voice trimmed) ends at 3200: the line's end is the moment.
    expect(grade([{ id: "ok", kind: "authorization" }], { turns: [A("Cancel it?", 1000, 2000), U("Yes.", 2500, 3200)], caller: lines })[0]!.at_ms).toBe(3000);
    expect(grade([{ id: "ok", kind: "authorization" }], { turns: [A("Cancel it?", 1000, 2000), U("Yes.", 2500, 3200)], caller: [{ ...lines[0]!, end_ms: null }] })[0]!.at_ms).toBe(3200);
    const fix = { id: "fix", kind: "correction" as const, arguments: { field: "reservation_id", value: "R-2040" } };
    const corrected: Line[] = [{ text: "It's R-2040, sorry.", start_ms: 2500, end_ms: 3000, acts: [{ kind: "correct", field: "reservation_id", value: "R-2040" }] }];
    expect(grade([fix], { turns: [], caller: corrected, tool_executions: [cancelRun("c1", "R-2040", 3500)] })[0]!.rationale).toBe(
      'after the caller\'s correction (a caller line at 2500 ms: "It\'s R-2040, sorry."), cancel_reservation at 3500 ms used reservation_id "R-2040"',
    );
  });

  it("a yes/no value the caller said as a word matches the boolean; an unsaid value matches nothing", () => {
    const fix = { id: "fix", kind: "correction" as const, arguments: { field: "high_chair", value: true } };
    const lines = (value: unknown): Line[] => [{ text: "We do need a high chair after all.", start_ms: 0, end_ms: 1000, acts: [{ kind: "correct", field: "high_chair", value }] }];
    const booked = [call("c1", "create_reservation", { high_chair: true }, 2000, 2100)];
    expect(grade([fix], { turns: [], caller: lines("true"), tool_executions: booked })[0]).toMatchObject({ status: "passed", at_ms: 1000 });
    expect(grade([fix], { turns: [], caller: lines(undefined), tool_executions: booked })[0]!.rationale).toMatch(/^\(no correction of high_chair to true among the caller's acts/);
  });

  it("a field found under a null sibling is searched safely", () => {
    const fix = { id: "fix", kind: "correction" as const, arguments: { field: "party_size", value: 6 } };
    expect(grade([fix], { tool_executions: [call("c1", "create_reservation", { note: null, booking: { party_size: 6 } }, 1000, 1100)] })[0]).toMatchObject({ status: "passed", evidence_ids: ["tool.c1"] });
  });
});

describe("the caller's acts: which go-ahead is for which tool", () => {
  const heardFor = (action: string) => conversation(A("Go ahead?", 1000, 2000), said("Yes.", 2500, 3000, [{ kind: "confirm" }], { kind: "go_ahead", action }));
  it.each([
    ["create_reservation", "book", "cancel"],
    ["book_table", "book", "change"],
    ["reserve_table", "book", "cancel"],
    ["make_booking", "book", "cancel"],
    ["cancel_reservation", "cancel", "book"],
    ["delete_booking", "cancel", "book"],
    ["remove_booking", "cancel", "change"],
    ["update_reservation", "change", "book"],
    ["modify_booking", "change", "cancel"],
    ["change_reservation", "change", "book"],
    ["move_reservation", "change", "cancel"],
    ["reschedule_booking", "change", "book"],
  ])("%s: a go-ahead to %s authorizes it, one to %s does not", (tool, yes, no) => {
    const step = { id: "go", kind: "authorization" as const, tool };
    const ran = [call("c1", tool, {}, 3500, 3600)];
    expect(grade([step], { ...heardFor(yes), tool_executions: ran })[0]!.status).toBe("passed");
    expect(grade([step], { ...heardFor(no), tool_executions: ran })[0]!.rationale).toBe(`${tool} ran at 3500 ms without a go-ahead before it; the caller never took the assistant to ask for a go-ahead to ${yes}`);
  });

  it("a line that confirms and declines gives none; two withheld requests are both named; a request at the prerequisite's moment counts, one before it does not", () => {
    const step = { id: "go", kind: "authorization" as const, tool: "cancel_reservation" };
    const turns = conversation(
      A("Cancel it?", 1000, 2000),
      said("Yes — no, wait.", 2500, 3000, [{ kind: "confirm" }, { kind: "decline" }], { kind: "go_ahead", action: "cancel" }),
      A("So, cancel it?", 3500, 4000),
      said("Hmm.", 4500, 5000, [{ kind: "backchannel" }], { kind: "go_ahead", action: "cancel" }),
    );
    expect(grade([step], { ...turns, tool_executions: [cancelRun("c1", "R-2040", 5500)] })[0]!.rationale).toBe(
      "cancel_reservation ran at 5500 ms without a go-ahead before it; the caller took utt.assistant.1, utt.assistant.2 to ask for a go-ahead but never confirmed (utt.user.1: confirm + decline; utt.user.2: backchannel)",
    );
    const ordered = (lookupEnd: number) =>
      grade([{ id: "looked", kind: "tool", tool: "get_reservation" }, { ...step, after: ["looked"] }], {
        ...conversation(A("Cancel it?", 3000, 4000), said("Yes.", 4500, 5000, [{ kind: "confirm" }], { kind: "go_ahead", action: "cancel" })),
        tool_executions: [call("c0", "get_reservation", {}, 0, lookupEnd), cancelRun("c1", "R-2040", 5500)],
      })[1]!.status;
    expect([ordered(3000), ordered(3001), ordered(4500), ordered(4501)]).toEqual(["passed", "failed", "failed", "failed"]);
  });
});
