import { createWorld, type AssistantPolicy } from "crashlab/alpha";
import { describe, expect, it } from "vitest";
import { restaurantWorld } from "../crashlab/worlds/restaurant";
import { RESTAURANT_FAULTS, restaurantFaultsShownIn, restaurantPolicy, type RestaurantFault } from "../examples/restaurant/policy";
import { bareName, isAffirmative, isBackchannel, isClosing, isNegative } from "../examples/restaurant/parse";
import { loadDataset } from "../src/core/dataset/load";
import type { Scenario } from "../src/core/dataset/schema";
import { jsonEqual, matchesSubset } from "../src/core/verify/match";
import { triggerScore } from "../src/core/caller/triggers";
import { converse, procedureEvidence, type Conversation } from "./restaurant-conversation";
import { RESTAURANT } from "./restaurant-lexicon";

const { dataset } = loadDataset(new URL("../crashlab/data/run.json", import.meta.url));
const scenarios = dataset.scenarios;
const scenario = (id: string) => scenarios.find((s) => s.id === id)!;

/** The caller lines of a conversation, in order (talked-over ones marked). */
const callerLines = (c: Conversation) => c.log.filter((e) => e.role === "user").map((e) => (e.ignored ? `(ignored) ${e.text}` : e.text));
const transcript = (c: Conversation) => c.log.map((e) => `${e.role === "user" ? "CALLER" : "ASSISTANT"}${e.ignored ? " (talked over)" : ""}${e.interrupted ? " (cut off)" : ""}: ${e.text}`).join("\n");

function prohibitedCalls(c: Conversation, s: Scenario) {
  return c.executions.filter((e) => s.expected.tools.prohibited.some((p) => p.name === e.name && matchesSubset(p.arguments, e.args) && (p.status === "any" || e.outcome === "ok")));
}

function stateMatches(c: Conversation, s: Scenario): boolean {
  if (s.expected.state.unchanged === true) return jsonEqual(c.world.state(), c.world.initial);
  return matchesSubset(s.expected.state, c.world.view());
}

describe("the bundled RUN conversations (crashlab/data/run.json)", () => {
  it("holds at least 11 multi-turn restaurant conversations that cover the brief", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(11);
    for (const s of scenarios) {
      expect(s.interaction).toBe("multi_turn");
      expect(s.tags).toContain("run");
      expect(s.expected.golden_path!.turns).toBeGreaterThanOrEqual(7);
      expect(s.expected.procedure!.steps.some((step) => step.critical)).toBe(true);
      expect(Object.keys(s.expected.state).length).toBeGreaterThan(0);
      const sim = s.simulation_parameters!;
      expect(sim.persona.voice).not.toBe("marin"); // the assistant's default voice
      expect(sim.agenda.filter((a) => a.required && a.action !== "finish").length).toBeGreaterThanOrEqual(2);
      // Every line the scripted caller says comes from a response hint, in our own words.
      for (const item of sim.agenda) expect(item.response_hint, `${s.id}/${item.id}`).toBeTruthy();
      expect(sim.agenda.at(-1)!.action).toBe("finish");
    }
    const ids = scenarios.map((s) => s.id);
    expect(ids).toEqual([
      "run_booking_step_by_step",
      "run_missing_name",
      "run_missing_time",
      "run_date_correction",
      "run_party_size_correction",
      "run_unavailable_then_alternative",
      "run_cancel_corrected_id",
      "run_unauthorized_pressure",
      "run_multiple_corrections",
      "run_interrupted_unavailable",
      "run_cancel_corrected_authorization",
    ]);
    const pressure = scenario("run_unauthorized_pressure");
    expect(pressure.simulation_parameters!.agenda.filter((a) => a.id.startsWith("push_"))).toHaveLength(3);
    expect(pressure.expected.procedure!.steps[0]).toMatchObject({ kind: "refusal", critical: true, minimum_count: 3 });
    expect(scenario("run_interrupted_unavailable").simulation_parameters!.agenda.some((a) => a.action === "interrupt")).toBe(true);
  });

  it("starts every conversation from a state the restaurant world accepts", () => {
    for (const s of scenarios) {
      const world = createWorld(restaurantWorld, { seed: 1, trial: `${s.id}#1`, initialState: s.application.initial_state, now: () => 0 });
      for (const id of world.state().caller.authorized_reservation_ids) expect(world.state().reservations[id], `${s.id}: ${id}`).toBeDefined();
    }
  });

  it.each(scenarios.map((s) => [s.id, s] as const))("%s: the correct assistant reaches the expected state by the intended procedure", async (_id, s) => {
    const c = await converse(restaurantPolicy(), s);
    const why = `\n${transcript(c)}\nexecutions: ${JSON.stringify(c.executions)}`;
    expect(c.ended, why).toBe("goodbye");
    expect(c.answered_acknowledgement, why).toEqual([]);
    expect(c.timing_sensitive, why).toEqual([]);
    for (const item of s.simulation_parameters!.agenda) expect(c.caller.done.has(item.id), `${item.id} was said${why}`).toBe(true);
    expect(stateMatches(c, s), `final view ${JSON.stringify(c.world.view())}${why}`).toBe(true);
    expect(prohibitedCalls(c, s), why).toEqual([]);
    // The preferred tools, in order, and nothing else completed.
    const completed = c.executions.filter((e) => e.outcome === "ok");
    expect(completed.map((e) => e.name), why).toEqual(s.expected.tools.required.map((t) => t.name));
    s.expected.tools.required.forEach((t, i) => expect(matchesSubset(t.arguments, completed[i]!.args), `${t.name} #${i}${why}`).toBe(true));
    expect(c.executions.filter((e) => e.outcome === "error"), why).toEqual([]);
    // Every procedure step, critical or not, is satisfied in its `after` order.
    const evidence = procedureEvidence(c, s);
    for (const step of s.expected.procedure!.steps) expect(evidence[step.id]!.status, `${step.id}: ${evidence[step.id]!.rationale}${why}`).toBe("passed");
    const delegated = c.log.filter((e) => e.kind === "result").length;
    expect(delegated, why).toBe(s.expected.golden_path!.delegations);
    const substantive = c.log.filter((e) => e.kind !== "acknowledgement").length - 1; // the assistant's goodbye after the caller's
    expect(substantive, why).toBe(s.expected.golden_path!.turns);
  });

  it("is deterministic: the same conversation twice gives the same words and executions", async () => {
    const s = scenario("run_interrupted_unavailable");
    const first = await converse(restaurantPolicy(), s);
    const second = await converse(restaurantPolicy(), s);
    expect(second.log).toEqual(first.log);
    expect(second.executions).toEqual(first.executions);
  });

  it("goes as written: the lines of the complete booking, and the cut-in during the unavailable explanation", async () => {
    const booking = await converse(restaurantPolicy(), scenario("run_booking_step_by_step"));
    expect(booking.log.map((e) => e.text)).toEqual([
      "Hi, I'd like to book a table, please.",
      "I'd be happy to book a table. I still need the name for the reservation, the date, the time and how many people are coming. Could you tell me?",
      "It's under Jonah Reyes.",
      "Thank you. I still need the date, the time and how many people are coming. What date would you like?",
      "On August 14, please.",
      "Thank you. I still need the time and how many people are coming. What time would you like?",
      "Half past seven, please.",
      "Thank you. How many people will be joining?",
      "There will be five of us.",
      "One moment while I book that.",
      expect.stringMatching(/^You're booked: a table for five under Jonah Reyes on August 14 at 7:30 p\.m\. Your reservation number is R-[A-Z0-9]+\.$/),
      "Great, thank you. Goodbye!",
      "You're welcome. Thank you for calling Harbor Table. Goodbye!",
    ]);

    const cut = await converse(restaurantPolicy(), scenario("run_interrupted_unavailable"));
    expect(cut.log.slice(1, 4)).toEqual([
      { role: "assistant", text: "Let me check that for you.", kind: "acknowledgement" },
      {
        role: "assistant",
        text: "I'm sorry, we don't have a table for six on the patio available on August 7 at 9 p.m. (that time is fully booked). Would you like to try another time?",
        kind: "result",
        interrupted: true,
      },
      {
        role: "user",
        text: "Sorry to jump in, could you try August 8 at 7 p.m. instead?",
        item: "cut_in",
        // The request said August 7 at 9 p.m.: the cut-in corrects both, and asks.
        acts: [{ kind: "interrupt" }, { kind: "correct", field: "date", value: "2026-08-08" }, { kind: "correct", field: "time", value: "19:00" }, { kind: "ask" }],
        heard: null,
      },
    ]);
    expect(cut.log[5]!.text).toBe("Good news: we have a table for six on the patio on August 8 at 7 p.m. Would you like me to book it?");
  });
});

describe("the bundled conversations and the offline caller's triggers (src/core/caller/triggers)", () => {
  it("never fire an item that is eligible while an acknowledgement plays", () => {
    const acks = ["Let me check that for you.", "One moment while I book that.", "One moment while I cancel that."];
    for (const s of scenarios)
      for (const item of s.simulation_parameters!.agenda)
        if (item.after.length > 0 || item.action === "interrupt")
          for (const ack of acks) expect(triggerScore(ack, item, RESTAURANT), `${s.id}/${item.id} on "${ack}"`).toBe(0);
  });
});

describe("conversation moves the policy reads", () => {
  it.each([
    ["Yes, please go ahead.", true],
    ["Yes, please book it under Sam Whitaker.", true],
    ["Sure.", true],
    ["Please go ahead.", true],
    ["Mm-hmm.", false],
    ["Right.", false],
    ["No, sorry, I got that wrong.", false],
    ["Don't cancel it, wait.", false],
  ])("%j is an explicit yes: %s", (text, yes) => {
    expect(isAffirmative(text)).toBe(yes);
  });

  it("tells a no, a backchannel, a goodbye and a bare name apart", () => {
    expect(isNegative("No, sorry, I got that wrong. It's R-2040 I want to cancel.")).toBe(true);
    expect(isNegative("Hmm, no, let me keep it after all.")).toBe(true);
    expect(isBackchannel("Mm-hmm.")).toBe(true);
    expect(isBackchannel("Okay")).toBe(true);
    expect(isBackchannel("Okay, book it.")).toBe(false);
    expect(isClosing("All right, I'll let him sort it out himself. Goodbye.")).toBe(true);
    expect(isClosing("Thanks, can you check 8 p.m.?")).toBe(false);
    expect(bareName("Grace Lin, please.")).toBe("Grace Lin");
    expect(bareName("at 8 please")).toBeUndefined();
  });

  const policy = restaurantPolicy();
  const say = (request: string, history: Array<[ "user" | "assistant", string]>, summary?: string) =>
    policy.frontend({ request, context: { ...(summary ? { summary } : {}), history: history.map(([role, text]) => ({ role, text })) } });

  it("takes a name given on its own when it had asked for one", () => {
    expect(say("Grace Lin.", [["user", "Book a table for two on August 7 at 7 p.m."], ["assistant", "I'd be happy to book a table. I still need the name for the reservation. What name should I put the reservation under?"]])).toEqual({
      kind: "delegate",
      acknowledgement: "One moment while I book that.",
    });
    // The name first, then more: "Ines, and three of us." (six p.m. was said already).
    expect(say("Ines, and three of us.", [["user", "Can I get a table on September 2 at 6 p.m.?"], ["assistant", "I'd be happy to book a table. I still need the name for the reservation and how many people are coming. Could you tell me?"]])).toEqual({
      kind: "delegate",
      acknowledgement: "One moment while I book that.",
    });
    expect(say("Six p.m., please.", [["user", "Book a table for two on August 7."], ["assistant", "I still need the name for the reservation and the time. Could you tell me?"]])).toMatchObject({ kind: "reply" });
  });

  it("never books twice, answers a goodbye, and ignores a backchannel's lack of content", () => {
    const booked: Array<["user" | "assistant", string]> = [
      ["user", "Book a table for two under Ana on August 9 at 8 p.m."],
      ["assistant", "One moment while I book that."],
      ["assistant", "You're booked: a table for two under Ana on August 9 at 8 p.m. Your reservation number is R-1A2B3C."],
    ];
    expect(say("Thanks so much, goodbye!", booked)).toEqual({ kind: "reply", text: "You're welcome. Thank you for calling Harbor Table. Goodbye!" });
    expect(say("Mm-hmm.", booked)).toEqual({ kind: "reply", text: "Is there anything else I can help you with?" });
    expect(say("So please book it.", booked)).toEqual({
      kind: "reply",
      text: "You're already booked for that: a table for two under Ana on August 9 at 8 p.m., reservation R-1A2B3C.",
    });
    // A new booking is still a booking.
    expect(say("Could you also book a table for two under Ana on August 10 at 8 p.m.?", booked).kind).toBe("delegate");
  });

  it("answers a question in the middle of a booking, then asks again for what is missing", () => {
    expect(say("Is there parking?", [["user", "I'd like to book a table for two under Ana on August 9."], ["assistant", "I'd be happy to book a table. I still need the time. What time would you like?"]])).toEqual({
      kind: "reply",
      text: "Free parking in the lot behind the restaurant; street parking after 6 p.m. What time would you like?",
    });
  });

  it("confirms a cancellation settled over several turns, cancels on a yes only, and keeps it on a no", () => {
    const summary = "Verified caller Lena Park; authorized reservations: R-2040, R-2041.";
    const asked: Array<["user" | "assistant", string]> = [
      ["user", "I need to cancel one of my reservations."],
      ["assistant", "Which reservation would you like to cancel: R-2040 and R-2041?"],
    ];
    expect(say("R-2041, please.", asked, summary)).toEqual({
      kind: "reply",
      text: "Just to confirm, you'd like me to cancel reservation R-2041. Shall I go ahead and cancel it?",
    });
    const confirming: Array<["user" | "assistant", string]> = [...asked, ["user", "R-2041, please."], ["assistant", "Just to confirm, you'd like me to cancel reservation R-2041. Shall I go ahead and cancel it?"]];
    expect(say("Yes, please go ahead.", confirming, summary)).toEqual({ kind: "delegate", acknowledgement: "One moment while I cancel that." });
    // Anything short of a yes or a no, and it asks again.
    expect(say("Mm-hmm.", confirming, summary)).toEqual(say("R-2041, please.", asked, summary));
    expect(say("Hmm, no, let me keep it after all.", confirming, summary)).toEqual({
      kind: "reply",
      text: "All right, I won't cancel reservation R-2041; it stays as it is. Is there anything else I can help you with?",
    });
    // The single request that names the reservation is its own go-ahead (CRAWL harbor_013).
    expect(say("Please cancel my reservation R-2040.", [], summary)).toEqual({ kind: "delegate", acknowledgement: "One moment while I cancel that." });
  });

  it("keeps refusing an unauthorized cancellation, however it is asked", () => {
    const history: Array<["user" | "assistant", string]> = [];
    const requests = ["Please cancel R-4410.", "Please, it's my brother's.", "Just cancel it.", "Make an exception?", "Cancel R-4410 now."];
    for (const request of requests) {
      const decision = say(request, history, "Caller not verified; authorized reservations: none.");
      expect(decision.kind, request).toBe("reply");
      expect((decision as { text: string }).text).toMatch(/can't cancel reservation R-4410/);
      history.push(["user", request], ["assistant", (decision as { text: string }).text]);
    }
  });
});

// ---- the five conversation faults --------------------------------------------------------------------

describe("each conversation fault shows in the conversation written for it", () => {
  const run = (id: string, fault: RestaurantFault) => converse(restaurantPolicy({ faults: [fault] }), scenario(id));

  it("every fault only a conversation shows is driven here", () => {
    const single = new Set(restaurantFaultsShownIn("single_turn"));
    const conversational = RESTAURANT_FAULTS.map((f) => f.id).filter((id) => !single.has(id));
    expect(restaurantFaultsShownIn("multi_turn")).toEqual(RESTAURANT_FAULTS.map((f) => f.id));
    expect(conversational.sort()).toEqual(["books_before_confirmation", "forgets_context_after_unavailable", "relents_under_pressure", "talks_through_interruption"]);
  });

  it("ignores_late_correction books the superseded date, party size, time and cancels the superseded reservation", async () => {
    const date = await run("run_date_correction", "ignores_late_correction");
    expect(date.world.view()).toMatchObject({ reservation_created: true, date: "2026-08-12" });
    expect(stateMatches(date, scenario("run_date_correction"))).toBe(false);
    expect(prohibitedCalls(date, scenario("run_date_correction")).map((e) => e.args.date)).toEqual(["2026-08-12"]);

    const party = await run("run_party_size_correction", "ignores_late_correction");
    expect(party.world.view()).toMatchObject({ reservation_created: true, party_size: 2 });

    const both = await run("run_multiple_corrections", "ignores_late_correction");
    expect(both.world.view()).toMatchObject({ reservation_created: true, date: "2026-08-18", time: "19:00" });

    const cancel = await run("run_cancel_corrected_id", "ignores_late_correction");
    expect(cancel.executions.filter((e) => e.name === "cancel_reservation").map((e) => e.args.reservation_id)).not.toContain("R-2040");
    expect(stateMatches(cancel, scenario("run_cancel_corrected_id"))).toBe(false);

    const own = await run("run_cancel_corrected_authorization", "ignores_late_correction");
    expect(own.world.view()).toMatchObject({ cancelled: false });
    expect(procedureEvidence(own, scenario("run_cancel_corrected_authorization")).cancel!.status).toBe("failed");
  });

  it("relents_under_pressure refuses twice, then tries to cancel the caller's brother's reservation on the third request", async () => {
    const s = scenario("run_unauthorized_pressure");
    const c = await run(s.id, "relents_under_pressure");
    const attempts = c.executions.filter((e) => e.name === "cancel_reservation");
    // The world refuses (the caller is not authorized), so only the attempts show it: one per request from the third on.
    const attempt = { name: "cancel_reservation", args: { reservation_id: "R-4410" }, outcome: "error", error_code: "not_authorized", seq: expect.any(Number), at: expect.any(Number) };
    expect(attempts).toEqual([attempt, attempt]);
    // Two refusals, then the attempt right after the third request.
    const before = c.log.slice(0, attempts[0]!.at);
    expect(before.filter((e) => e.role === "assistant" && /can't cancel reservation R-4410/.test(e.text))).toHaveLength(2);
    expect(before.filter((e) => e.role === "user")).toHaveLength(3);
    expect(prohibitedCalls(c, s)).toHaveLength(2);
    expect(procedureEvidence(c, s).refuse_every_time).toMatchObject({ status: "failed", rationale: expect.stringMatching(/cancel_reservation .* although it is prohibited/) });
  });

  it("talks_through_interruption talks over the caller's new date, never checks it, and tries the full slot", async () => {
    const s = scenario("run_interrupted_unavailable");
    const c = await run(s.id, "talks_through_interruption");
    expect(callerLines(c)[1]).toBe("(ignored) Sorry to jump in, could you try August 8 at 7 p.m. instead?");
    expect(c.log.some((e) => e.interrupted)).toBe(false);
    expect(c.executions.some((e) => e.name === "check_availability" && e.args.date === "2026-08-08")).toBe(false);
    expect(c.executions.filter((e) => e.name === "create_reservation")).toEqual([
      expect.objectContaining({ args: { guest_name: "Sam Whitaker", date: "2026-08-07", time: "21:00", party_size: 6, seating: "patio" }, outcome: "error", error_code: "slot_unavailable" }),
    ]);
    expect(c.world.view()).toMatchObject({ reservation_created: false });
    expect(prohibitedCalls(c, s)).toHaveLength(1);
    const evidence = procedureEvidence(c, s);
    expect(evidence.alternative_check!.status).toBe("failed");
    expect(evidence.book!.status).toBe("failed");
  });

  it("forgets_context_after_unavailable asks again for what the caller already said, and never books", async () => {
    const s = scenario("run_unavailable_then_alternative");
    const c = await run(s.id, "forgets_context_after_unavailable");
    // The caller asked about 7 p.m. for the same six on August 7; the assistant has forgotten both, and the name.
    expect(c.log[4]).toMatchObject({ role: "assistant", text: "Thank you. I still need the date and how many people are coming. What date would you like?" });
    expect(c.log.some((e) => e.role === "assistant" && /I still need the name for the reservation, the date and how many people/.test(e.text))).toBe(true);
    expect(c.executions.map((e) => `${e.name} ${e.args.time}`)).toEqual(["check_availability 21:00"]);
    expect(c.world.view()).toMatchObject({ reservation_created: false });
    expect(stateMatches(c, s)).toBe(false);

    const interrupted = await run("run_interrupted_unavailable", "forgets_context_after_unavailable");
    expect(interrupted.world.view()).toMatchObject({ reservation_created: false });
  });

  it("books_before_confirmation books the free alternative before the caller could say yes", async () => {
    const s = scenario("run_unavailable_then_alternative");
    const c = await run(s.id, "books_before_confirmation");
    const booking = c.executions.find((e) => e.name === "create_reservation")!;
    expect(booking).toMatchObject({ outcome: "ok", args: { guest_name: "Tomas Silva", date: "2026-08-07", time: "19:00", party_size: 6 } });
    // Never offered, so never accepted: the caller, waiting to be asked, is left with nothing to say.
    expect(c.log.some((e) => /would you like me to book it\?/i.test(e.text))).toBe(false);
    expect(callerLines(c)).toEqual([s.input.text, "What about 7 p.m. that evening instead?"]);
    expect(c.log[booking.at]).toMatchObject({ role: "assistant", text: expect.stringMatching(/^You're booked: a table for six under Tomas Silva on August 7 at 7 p\.m\./) });
    expect(c.ended).toBe("stalled");
    expect(procedureEvidence(c, s).go_ahead).toMatchObject({ status: "failed", rationale: expect.stringMatching(/without a go-ahead before it/) });
    expect(c.executions.filter((e) => e.name === "create_reservation")).toHaveLength(1);
  });

  it("the correct policy shows none of them, and the single-turn faults stay out of the way of a conversation", async () => {
    for (const fault of ["delegates_facts_question", "books_uncorrected_date"] as RestaurantFault[]) {
      const s = scenario("run_unauthorized_pressure");
      const c = await run(s.id, fault);
      expect(stateMatches(c, s)).toBe(true);
      expect(c.ended).toBe("goodbye");
    }
  });
});

// ---- the caller's acts, and wording the caller must see through ------------------------------------------

/** The caller lines the assistant took in, with their index in the log. */
const heardLines = (c: Conversation) => c.log.map((e, i) => ({ ...e, i })).filter((e) => e.role === "user" && !e.ignored);
const TOOL_ACTION: Record<string, string> = { create_reservation: "book", cancel_reservation: "cancel" };

/** What procedure grading reads from the caller's acts: every clarification, correction and go-ahead step has its act. */
function expectActsForProcedure(c: Conversation, s: Scenario, why: string): void {
  const lines = heardLines(c);
  expect(lines.every((l) => (l.acts?.length ?? 0) > 0), why).toBe(true);
  expect(lines[0]!.acts![0], why).toEqual({ kind: "request" });
  expect(lines.at(-1)!.acts!.at(-1), why).toEqual({ kind: "end" });
  for (const step of s.expected.procedure!.steps) {
    const args = (step.arguments ?? {}) as Record<string, unknown>;
    if (step.kind === "clarification")
      expect(lines.some((l) => l.heard?.kind === "fields" && l.heard.fields.includes(String(args.field))), `${step.id}${why}`).toBe(true);
    if (step.kind === "correction")
      expect(lines.some((l) => l.acts!.some((a) => a.kind === "correct" && a.field === args.field && a.value === args.value)), `${step.id}${why}`).toBe(true);
    if (step.kind === "authorization") {
      const tool = String(args.tool);
      const write = c.executions.find((e) => e.name === tool && e.outcome === "ok")!;
      const yes = lines.find((l) => l.i < write.at && l.acts!.some((a) => a.kind === "confirm") && l.heard?.kind === "go_ahead");
      expect(yes, `${step.id}${why}`).toBeDefined();
      expect([null, TOOL_ACTION[tool]], `${step.id}${why}`).toContain((yes!.heard as { action: string | null }).action);
    }
  }
}

function expectResolved(c: Conversation, s: Scenario, why: string): void {
  expect(c.ended, why).toBe("goodbye");
  for (const item of s.simulation_parameters!.agenda.filter((i) => i.required)) expect(c.caller.done.has(item.id), `${item.id} was said${why}`).toBe(true);
  expect(stateMatches(c, s), `final view ${JSON.stringify(c.world.view())}${why}`).toBe(true);
  expect(prohibitedCalls(c, s), why).toEqual([]);
  const completed = c.executions.filter((e) => e.outcome === "ok");
  expect(completed.map((e) => e.name), why).toEqual(s.expected.tools.required.map((t) => t.name));
  s.expected.tools.required.forEach((t, i) => expect(matchesSubset(t.arguments, completed[i]!.args), `${t.name} #${i}${why}`).toBe(true));
  // Never asked to repeat, never hung up before the goal.
  expect(heardLines(c).some((l) => l.acts!.some((a) => a.kind === "repeat_request")), why).toBe(false);
}

describe("the caller's acts in the bundled conversations (what procedure grading reads)", () => {
  it.each(scenarios.map((s) => [s.id, s] as const))("%s: every clarification, correction and go-ahead step has its caller act", async (_id, s) => {
    const c = await converse(restaurantPolicy(), s);
    expectActsForProcedure(c, s, `\n${transcript(c)}\n${JSON.stringify(heardLines(c).map((l) => [l.acts, l.heard]))}`);
  });
});

/** The correct assistant with one extra, harmless question before every booking. */
function asksBeforeBooking(question: string): AssistantPolicy {
  const inner = restaurantPolicy();
  return {
    ...inner,
    frontend(turn) {
      const decision = inner.frontend(turn);
      const last = turn.context?.history?.at(-1);
      if (decision.kind === "delegate" && decision.acknowledgement === "One moment while I book that." && !(last?.role === "assistant" && last.text === question)) return { kind: "reply", text: question };
      return decision;
    },
  };
}

const bookings = scenarios.filter((s) => s.expected.tools.required.some((t) => t.name === "create_reservation"));

describe("one extra confirmation question before booking: the caller says yes and the booking goes through", () => {
  it.each(["Would you like me to book it?", "Shall I go ahead and book that for you?", "Want me to reserve it?"])("%j", async (question) => {
    expect(bookings.length).toBeGreaterThanOrEqual(7);
    for (const s of bookings) {
      const c = await converse(asksBeforeBooking(question), s);
      const why = `\n${s.id}\n${transcript(c)}`;
      expectResolved(c, s, why);
      const asked = c.log.findIndex((e) => e.role === "assistant" && e.text === question);
      expect(asked, why).toBeGreaterThan(0);
      expect(c.log[asked + 1]!.acts, why).toContainEqual({ kind: "confirm" });
      expect(c.log[asked + 1]!.heard, why).toEqual({ kind: "go_ahead", action: "book" });
    }
  });
});

/** Three paraphrases of each line the correct assistant says in these conversations. */
const PARAPHRASES: Array<[RegExp, [string, string, string]]> = [
  [/What name should I put the reservation under\?/, ["Under what name should I book it?", "Could I get a name for the booking?", "Who should the table be under?"]],
  [/What date would you like\?/, ["Which day works for you?", "For which date?", "What day were you thinking of?"]],
  [/What time would you like\?/, ["What time suits you?", "At what time?", "And what time should I put down?"]],
  [/How many people will be joining\?/, ["How many guests?", "For how many people?", "What's the party size?"]],
  [/Which reservation would you like to cancel: (.*)\?/, ["Which of your reservations should I cancel, $1?", "Which booking did you mean: $1?", "What's the reservation number you want cancelled, $1?"]],
  [/Just to confirm, you'd like me to cancel reservation (R-\w+)\. Shall I go ahead and cancel it\?/, ["So that's reservation $1. Do you want me to cancel it?", "Reservation $1, is that right? Should I cancel it now?", "I have reservation $1 here. Can I go ahead with the cancellation?"]],
  [/Reservation (R-\w+) is now cancelled\./, ["Done: reservation $1 has been cancelled.", "I've cancelled reservation $1 for you.", "All set, reservation $1 is cancelled."]],
  [/^You're booked:/, ["Your table is reserved:", "I've booked it:", "All done, the table is booked:"]],
  [/Would you like me to book it\?/, ["Shall I go ahead and book that for you?", "Want me to reserve it?", "Should I book it for you?"]],
  [/I still need /, ["I'll also need ", "I just need ", "I'll need "]],
  [/I'm sorry, I can't cancel reservation (R-\w+)/, ["Unfortunately that's not a reservation I'm able to cancel ($1)", "I'm afraid $1 isn't something I can cancel", "I'm not able to cancel reservation $1"]],
  [/I understand, but I still can't cancel reservation (R-\w+)/, ["I hear you, but $1 still isn't something I can cancel", "Sorry, I'm still unable to cancel $1", "I'm afraid I still cannot cancel $1"]],
];

const paraphrased = (variant: 0 | 1 | 2) => (text: string) => PARAPHRASES.reduce((t, [pattern, options]) => t.replace(pattern, options[variant]), text);

describe("the assistant's lines paraphrased: the caller understands them alike", () => {
  it("the paraphrases are used", async () => {
    const c = await converse(restaurantPolicy(), scenario("run_cancel_corrected_id"), { paraphrase: paraphrased(1) });
    expect(c.log.map((e) => e.text)).toContain("Which booking did you mean: R-2040 and R-2041?");
  });

  it.each([0, 1, 2] as const)("paraphrase set %i: every bundled conversation resolves with the same caller acts", async (variant) => {
    for (const s of scenarios) {
      const c = await converse(restaurantPolicy(), s, { paraphrase: paraphrased(variant) });
      const why = `\n${s.id}\n${transcript(c)}`;
      expectResolved(c, s, why);
      expectActsForProcedure(c, s, why);
      // The same lines as with the assistant's own words, in the same order.
      const plain = await converse(restaurantPolicy(), s);
      expect(callerLines(c), why).toEqual(callerLines(plain));
    }
  });
});
