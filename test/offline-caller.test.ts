import { describe, expect, it } from "vitest";
import { OfflineCaller, type CallerSynthesizer } from "../src/core/caller/offline-caller";
import type { AgendaItem, CallerScript, CallerSession } from "../src/core/caller/types";
import { AgendaFollower } from "../src/core/caller/agenda-follower";
import { callerScript } from "../src/core/caller/script";
import { bestTrigger, isQuestion, isRefusal, triggerScore } from "../src/core/caller/triggers";
import { loadDataset } from "../src/core/dataset/load";
import { VirtualClock } from "../src/core/time/clock";
import { RESTAURANT } from "./restaurant-lexicon";

// A synthesizer that gives every utterance 200 ms of a quiet tone at 24 kHz: the caller's decisions, not
// its voice, are under test here (the espeak synthesizer has tests of its own).
const tone: CallerSynthesizer = {
  provider: "test-tone",
  async synthesize() {
    return { samples: new Int16Array(4800).fill(500), sampleRate: 24_000 };
  },
};

function item(overrides: Partial<AgendaItem> & Pick<AgendaItem, "id" | "action" | "trigger_condition">): AgendaItem {
  return {
    commitment: overrides.id,
    completion_condition: "",
    completion_basis: "expression",
    wording_policy: "adapt_to_live_context",
    facts: [],
    after: [],
    required: true,
    ...overrides,
  };
}

const script: CallerScript = {
  request: "A table for six on the patio on August 7 at 9 p.m., please.",
  opens: "caller",
  goal: "Book a patio table for six.",
  persona: { id: "p", description: "", voice: "sage", verbosity: "brief", interrupt_tendency: 1, backchannel_tendency: 0, backchannels: [] },
  known_facts: { date: "August 8", time: "7 p.m." },
  agenda: [
    item({
      id: "cut_in",
      action: "interrupt",
      trigger_condition: "The assistant starts to explain that no table is available at 9 p.m.",
      facts: ["date", "time"],
      response_hint: "Sorry, could you try August 8 at 7 p.m. instead?",
    }),
    item({ id: "bye", action: "finish", trigger_condition: "The assistant confirms the booking.", after: ["cut_in"], response_hint: "Thanks, goodbye." }),
  ],
  expectations: [],
  // The restaurant's words: "no table available" is a report of a full slot where tables are its slots.
  lexicon: RESTAURANT,
};

async function start(): Promise<{ session: CallerSession; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const caller = new OfflineCaller({ synthesizer: () => tone, voice: "sage" });
  const session = await caller.start(script, { clock, seed: 7, signal: new AbortController().signal, log: () => {}, utteranceAudio: (_u, pcm) => pcm });
  return { session, clock };
}

/** Tick the caller every 20 ms from `from` to `to`, letting its synthesis promises settle between ticks. */
async function tick(session: CallerSession, from: number, to: number): Promise<void> {
  for (let t = from; t < to; t += 20) {
    session.speak(t);
    await new Promise((r) => setImmediate(r));
  }
}

describe("the offline caller", () => {
  it("answers a turn it cut into once: the words it interrupted draw no second reply after the assistant yields", async () => {
    const { session } = await start();
    await tick(session, 0, 1000); // the opening request: 300 ms delay + 200 ms of speech
    expect(session.utterances().map((u) => u.intent)).toEqual(["opening"]);

    // The assistant starts explaining; the trigger words arrive while it speaks, so the caller cuts in.
    session.hearAssistantSpeaking(true, 1200);
    // The cut-off turn ends in a question: answered by the cut-in, it must not be answered again.
    session.hearAssistantText("I'm sorry, there is no table available at 9 p.m. on the patio. Would another time", 1400);
    await tick(session, 1400, 1460);
    session.hearAssistantText("work for you?", 1460);
    await tick(session, 1460, 1800);
    session.hearAssistantSpeaking(false, 1800); // it yields
    await tick(session, 1800, 4000); // well past the 700 ms settle time

    const said = session.utterances();
    expect(said.map((u) => [u.intent, u.agenda_item])).toEqual([
      ["opening", null],
      ["interrupt", "cut_in"],
    ]);
    expect(session.progress().agenda.find((a) => a.id === "cut_in")?.status).toBe("done");

    // Its next turn is new: the confirmation draws the finish item, as the agenda says.
    session.hearAssistantSpeaking(true, 4000);
    session.hearAssistantText("You're booked for August 8 at 7 p.m. for six. Anything else?", 4100);
    session.hearAssistantSpeaking(false, 4600);
    await tick(session, 4600, 6500);
    expect(session.utterances().map((u) => u.intent)).toEqual(["opening", "interrupt", "finish"]);
    expect(session.progress().closing_said).toBe(true);
  });
});

describe("offline caller triggers", () => {
  it("hears a finished booking in 'You're booked', so a goodbye item written that way is reached", () => {
    const bye = { trigger_condition: "The assistant has reported the finished booking.", facts: [] };
    const hour = { trigger_condition: "The assistant wants to know the hour.", facts: ["time"] };
    expect(bestTrigger("You're booked: a table for three under Ines on September 2 at 6 p.m.", [hour, bye], RESTAURANT)?.item).toBe(bye);
    // A question about the hour is the other item's moment, not the goodbye's.
    expect(bestTrigger("What time would you like?", [hour, bye], RESTAURANT)?.item).toBe(hour);
  });

  it("'the cancellation request' is a noun: a refusal without a question still reaches the item", () => {
    const press = { trigger_condition: "The assistant keeps refusing the cancellation request.", facts: [] };
    expect(bestTrigger("I'm sorry, I can't cancel reservation R-200.", [press], RESTAURANT)?.item).toBe(press);
    // "The assistant requests …" does wait for a question (a stated need asks too); a statement is not one.
    const asked = { trigger_condition: "The assistant requests the reservation number.", facts: ["reservation_id"] };
    expect(bestTrigger("Reservation R-200 is on August 12.", [asked], RESTAURANT)).toBeNull();
    expect(bestTrigger("I still need your reservation number.", [asked], RESTAURANT)?.item).toBe(asked);
    expect(bestTrigger("What is your reservation number?", [asked], RESTAURANT)?.item).toBe(asked);
  });
});

// ---- the caller against scripted assistant turns (src/core/caller/agenda-follower.ts) -----------------------

const { dataset } = loadDataset(new URL("../crashlab/data/run.json", import.meta.url));
const follower = (id: string) => new AgendaFollower(callerScript(dataset.scenarios.find((s) => s.id === id)!, "caller", RESTAURANT));
const kinds = (line: { acts: Array<{ kind: string }> } | null) => line?.acts.map((a) => a.kind) ?? null;

/** The booking caller with every detail given: what is left is the booking itself. */
function detailsGiven(): AgendaFollower {
  const f = follower("run_booking_step_by_step");
  f.opening(null);
  for (const ask of ["Under what name?", "Which day would you like?", "What time works for you?", "How many guests?"]) f.respondTo(ask);
  expect([...f.done]).toEqual(["give_name", "give_date", "give_time", "give_party_size"]);
  return f;
}

describe("the offline caller understands a go-ahead question", () => {
  const bookIt = ["Would you like me to book it?", "Shall I go ahead and book that for you?", "Want me to reserve it?", "So a table for five on August 14 at 7:30 p.m. Should I book it?"];

  it.each(bookIt)("%j → yes (confirm) when its goal wants a booking, with no agenda item written for it", (ask) => {
    const f = detailsGiven();
    const line = f.respondTo(ask)!;
    expect(line).toMatchObject({ text: "Yes, please book it.", intent: "answer", item: null, acts: [{ kind: "confirm" }], heard: { kind: "go_ahead", action: "book" } });
    expect(f.closingSaid).toBe(false);
  });

  it.each(bookIt)("the goodbye waiting for a finished booking never fires on %j", (ask) => {
    const hangUp = dataset.scenarios[0]!.simulation_parameters!.agenda.find((i) => i.id === "hang_up")!;
    expect(hangUp.trigger_condition).toBe("The assistant says the table is booked.");
    expect(triggerScore(ask, hangUp, RESTAURANT)).toBe(0);
  });

  it.each([
    "You're booked: a table for five under Jonah Reyes on August 14 at 7:30 p.m.",
    "Great news, your table is reserved. Your confirmation number is R-1A2B.",
    "I've booked it for you: five people on August 14 at 7:30 p.m.",
  ])("the goodbye fires on the finished booking %j, and the line ends the call", (done) => {
    const f = detailsGiven();
    f.respondTo("Would you like me to book it?");
    const line = f.respondTo(done)!;
    expect(line).toMatchObject({ text: "Great, thank you. Goodbye!", intent: "finish", acts: [{ kind: "end" }], heard: null });
    expect(line.item?.id).toBe("hang_up");
    expect(f.closingSaid).toBe(true);
  });

  it.each(["Shall I go ahead and cancel it?", "Do you want me to cancel reservation R-2040?", "Can I go ahead with the cancellation?"])(
    "%j → yes for a cancelling caller once its correction is said",
    (ask) => {
      const f = follower("run_cancel_corrected_id");
      f.opening(null);
      expect(f.respondTo("Which of your reservations would you like to cancel?")!.item?.id).toBe("name_reservation");
      expect(f.respondTo("That's R-2041, is that right?")!.item?.id).toBe("correct_reservation");
      const line = f.respondTo(ask)!;
      expect(line.item?.id).toBe("give_go_ahead");
      expect(line.acts).toEqual([{ kind: "confirm" }]);
      expect(line.heard).toEqual({ kind: "go_ahead", action: "cancel" });
    },
  );

  it("declines a go-ahead for something its goal does not want", () => {
    const f = follower("run_cancel_corrected_id");
    f.opening(null);
    expect(f.respondTo("Would you like me to book a table for you as well?")).toMatchObject({ acts: [{ kind: "decline" }], heard: { kind: "go_ahead", action: "book" } });
  });
});

describe("the offline caller understands a question for its details", () => {
  it.each(["Which of your reservations would you like to cancel?", "Which booking did you mean?", "What's the reservation number?"])("%j → the reservation item, giving the number it says", (ask) => {
    const f = follower("run_cancel_corrected_id");
    f.opening(null);
    const line = f.respondTo(ask)!;
    expect(line.item?.id).toBe("name_reservation");
    expect(line.text).toBe("R-2041, please.");
    // It reads out its first, mistaken number: the act says so.
    expect(line.acts).toEqual([{ kind: "give", field: "reservation_id", value: "R-2041" }]);
    expect(line.heard).toEqual({ kind: "fields", fields: ["reservation_id"] });
  });

  it.each([
    ["What name should I put it under?", "give_name", ["guest_name"]],
    ["Under which name is the booking?", "give_name", ["guest_name"]],
    ["And who is the reservation for — could I have a name?", "give_name", ["guest_name"]],
  ] as const)("%j → %s", (ask, item, fields) => {
    const f = follower("run_booking_step_by_step");
    f.opening(null);
    const line = f.respondTo(ask)!;
    expect(line.item?.id).toBe(item);
    expect(line.heard).toEqual({ kind: "fields", fields });
  });

  it.each(["How many people are coming?", "How many guests will be joining?", "What's the party size?"])("%j asks for the party size", (ask) => {
    const f = follower("run_booking_step_by_step");
    f.opening(null);
    for (const q of ["Under what name?", "Which day would you like?", "What time works for you?"]) f.respondTo(q);
    expect(f.respondTo(ask)).toMatchObject({ text: "There will be five of us.", acts: [{ kind: "give", field: "party_size", value: 5 }], heard: { kind: "fields", fields: ["party_size"] } });
  });
});

describe("a question the caller cannot place", () => {
  const odd = ["Could you hold on for a second?", "Are you calling from a mobile?", "Do you have any allergies we should know of?"];

  it.each(odd)("%j: asks to repeat, at most twice in a row, then answers with the next item it owes — never a hang-up", (ask) => {
    const f = follower("run_booking_step_by_step");
    f.opening(null);
    expect(f.respondTo(ask)).toMatchObject({ text: "Sorry, could you say that again?", acts: [{ kind: "repeat_request" }], heard: { kind: "question" } });
    expect(kinds(f.respondTo(ask))).toEqual(["repeat_request"]);
    const third = f.respondTo(ask)!;
    expect(third.item?.id).toBe("give_name");
    expect(third.acts).toEqual([{ kind: "give", field: "guest_name", value: "Jonah Reyes" }]);
    // The count starts again after a real answer.
    expect(kinds(f.respondTo(ask))).toEqual(["repeat_request"]);
    expect(f.closingSaid).toBe(false);
  });

  it.each(odd)("%j with every detail given but nothing booked yet: repeats twice, then keeps listening", (ask) => {
    const f = detailsGiven();
    expect(kinds(f.respondTo(ask))).toEqual(["repeat_request"]);
    expect(kinds(f.respondTo(ask))).toEqual(["repeat_request"]);
    expect(f.respondTo(ask)).toBeNull();
    expect(f.closingSaid).toBe(false);
  });

  it.each(odd)("%j after the booking was reported: the caller is done and says goodbye", (ask) => {
    const f = detailsGiven();
    f.respondTo("Would you like me to book it?");
    const fork = f.fork();
    // Without its optional goodbye item (taken here by a fork), the caller closes on its own.
    expect(fork.respondTo("You're booked: a table for five on August 14 at 7:30 p.m.")!.item?.id).toBe("hang_up");
    f.done.add("hang_up");
    f.respondTo("Your table is reserved.");
    expect(f.respondTo(ask)).toMatchObject({ intent: "closing", acts: [{ kind: "end" }], heard: { kind: "question" } });
  });
});

describe("trigger conditions are read as the move they wait for", () => {
  const item = (trigger_condition: string, facts: string[] = []) => ({ trigger_condition, facts });

  it.each([
    ["The assistant asks which reservation the caller wants to cancel.", ["reservation_id"], ["Which of your reservations should I cancel?", "Which booking did you mean?", "What's the reservation number?"], ["Reservation R-2040 is now cancelled.", "Shall I cancel it?"]],
    ["The assistant has reported the finished booking.", [], ["You're booked for Friday.", "Your table has been reserved.", "I've booked a table for two."], ["Would you like me to book it?", "One moment while I book that.", "That time is fully booked."]],
    ["The assistant reads back the reservation number and asks to confirm.", ["reservation_id"], ["That's R-2041, is that right?", "Just to confirm: reservation R-2041. Shall I go ahead?", "Reservation R-2041 — should I cancel it?"], ["Which reservation is it?", "Reservation R-2041 is cancelled."]],
    ["The assistant refuses again.", [], ["I'm sorry, I still can't cancel that reservation.", "That still isn't something I can cancel.", "I'm not able to do that, I'm afraid."], ["Would you like me to cancel it?", "Reservation R-4410 is now cancelled."]],
    ["The assistant says there is no table for six at 9 p.m.", [], ["I'm sorry, we don't have a table for six at 9 p.m.", "9 p.m. is fully booked, unfortunately.", "There's nothing available for six at nine."], ["We have a table for six at 9 p.m.", "What time would you like?"]],
  ] as const)("%j", (condition, facts, fires, quiet) => {
    const it_ = item(condition, [...facts]);
    for (const turn of fires) expect(triggerScore(turn, it_, RESTAURANT), turn).toBeGreaterThan(0);
    for (const turn of quiet) expect(triggerScore(turn, it_, RESTAURANT), turn).toBe(0);
  });

  it("a trigger waiting for a report never fires on a question, one waiting for a question never on a statement", () => {
    const report = item("The assistant says the table is booked.");
    const question = item("The assistant asks what time the caller would like.", ["time"]);
    for (const q of ["Is the table booked?", "Should I book the table?", "Would you like me to book a table?"]) expect(triggerScore(q, report, RESTAURANT), q).toBe(0);
    for (const st of ["The time is 7 p.m.", "Your table is booked for 7 p.m.", "We close at 10 p.m."]) expect(triggerScore(st, question, RESTAURANT), st).toBe(0);
  });

  it("reads questions and refusals by sentence, plurals and contractions included", () => {
    expect(isQuestion("I'd be happy to help. Which of your reservations?", RESTAURANT)).toBe(true);
    expect(isQuestion("I still need the name for the reservation.", RESTAURANT)).toBe(true);
    expect(isQuestion("Your table is booked.", RESTAURANT)).toBe(false);
    for (const r of ["I'm afraid that still isn't something I can cancel.", "I'm unable to cancel a reservation that isn't yours.", "I won't be able to make an exception."]) expect(isRefusal(r, RESTAURANT), r).toBe(true);
    for (const r of ["We don't have a table at 9 p.m.", "Your reservation is cancelled.", "Would you like another time?"]) expect(isRefusal(r, RESTAURANT), r).toBe(false);
  });
});

describe("the caller's acts", () => {
  it("a correction is the value that replaces one the caller said before, as the line says it", () => {
    const f = follower("run_multiple_corrections");
    expect(f.opening(null).acts).toEqual([{ kind: "request" }, { kind: "give", field: "date", value: "2026-08-18" }]);
    expect(f.respondTo("What name should the reservation be under?")!.acts).toEqual([{ kind: "give", field: "guest_name", value: "Grace Lin" }]);
    // "At 7 p.m. And sorry, can we move it to August 19 instead?": 7 p.m. is given, August 19 corrects August 18.
    expect(f.respondTo("What time would you like?")!.acts).toEqual([
      { kind: "give", field: "time", value: "19:00" },
      { kind: "correct", field: "date", value: "2026-08-19" },
      { kind: "ask" },
    ]);
    expect(f.respondTo("How many people are coming?")!.acts).toEqual([
      { kind: "give", field: "party_size", value: 4 },
      { kind: "correct", field: "time", value: "19:30" },
      { kind: "ask" },
    ]);
  });

  it("a no to a read-back is a decline and a correction; a yes to the go-ahead is a confirm", () => {
    const f = follower("run_cancel_corrected_id");
    f.opening(null);
    f.respondTo("Which booking did you mean?");
    expect(f.respondTo("So that's R-2041. Is that right?")!.acts).toEqual([{ kind: "decline" }, { kind: "correct", field: "reservation_id", value: "R-2040" }]);
    expect(f.respondTo("Got it, R-2040. Shall I go ahead and cancel it?")!.acts).toEqual([{ kind: "confirm" }]);
  });

  it("the audio caller records acts and heard on every line and logs them when the line starts", async () => {
    const clock = new VirtualClock();
    const logged: Array<{ kind: string; data: unknown }> = [];
    const caller = new OfflineCaller({ synthesizer: () => tone, voice: "sage" });
    const session = await caller.start(script, { clock, seed: 7, signal: new AbortController().signal, log: (kind, data) => logged.push({ kind, data }), utteranceAudio: (_u, pcm) => pcm });
    await tick(session, 0, 1000);
    session.hearAssistantSpeaking(true, 1200);
    session.hearAssistantText("I'm sorry, there is no table available at 9 p.m. on the patio.", 1400);
    await tick(session, 1400, 2400);
    session.hearAssistantSpeaking(false, 2400);
    const said = session.utterances();
    expect(said.map((u) => [u.acts, u.heard])).toEqual([
      [[{ kind: "request" }], null],
      [[{ kind: "interrupt" }, { kind: "give", field: "date", value: "August 8" }, { kind: "give", field: "time", value: "7 p.m." }, { kind: "ask" }], null],
    ]);
    expect(logged.filter((l) => l.kind === "utterance.started").map((l) => (l.data as { acts: unknown }).acts)).toEqual(said.map((u) => u.acts));
  });
});
