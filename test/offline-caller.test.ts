import { describe, expect, it } from "vitest";
import { OfflineCaller, type CallerSynthesizer } from "../src/core/caller/offline-caller";
import type { AgendaItem, CallerScript, CallerSession } from "../src/core/caller/types";
import { bestTrigger } from "../src/core/caller/triggers";
import { VirtualClock } from "../src/core/time/clock";

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
    expect(bestTrigger("You're booked: a table for three under Ines on September 2 at 6 p.m.", [hour, bye])?.item).toBe(bye);
    // A question about the hour is the other item's moment, not the goodbye's.
    expect(bestTrigger("What time would you like?", [hour, bye])?.item).toBe(hour);
  });

  it("'the cancellation request' is a noun: a refusal without a question still reaches the item", () => {
    const press = { trigger_condition: "The assistant keeps refusing the cancellation request.", facts: [] };
    expect(bestTrigger("I'm sorry, I can't cancel reservation R-200.", [press])?.item).toBe(press);
    // "The assistant requests …" does wait for a question.
    const asked = { trigger_condition: "The assistant requests the reservation number.", facts: ["reservation_id"] };
    expect(bestTrigger("I still need your reservation number.", [asked])).toBeNull();
    expect(bestTrigger("What is your reservation number?", [asked])?.item).toBe(asked);
  });
});
