import { describe, expect, it } from "vitest";
import type { Turn } from "../src/core/record/trial-record";
import { actualTurns, substantiveTurnCount } from "../src/core/verify/turns";

const A = (text: string, start_ms: number, end_ms: number): Turn => ({ role: "assistant", text, start_ms, end_ms });
const U = (text: string, start_ms: number, end_ms: number, action?: Turn["action"]): Turn => ({ role: "user", text, start_ms, end_ms, ...(action ? { action } : {}) });

/** The seed's worked RUN transcript (003, "Transcript and event timeline"), scored there as 7 turns. */
const SEED: Turn[] = [
  A("Hi, I'm John from Acme. How can I help you today?", 1180, 3320),
  U("Hi John! I was hoping to book a table on August 7th, if that's possible.", 4840, 8100, "SPEAK"),
  A("Sure, let me check that for you.", 9800, 10840),
  A("Sure. What time would you like, for how many guests, and under what name?", 11640, 14780),
  U("7 p.m., please, for two under Maya.", 16280, 19120, "SPEAK"),
  A("Checking that now.", 20920, 21580),
  A("All set, Maya. You're confirmed for August 7th at 7 p.m. for two.", 24240, 28360),
  A("Your confirmation number is R-001.", 28980, 31580),
  U("Wonderful. Thanks so much. Have a great day!", 33300, 36400, "STOP"),
  A("You're welcome! You too.", 37440, 38400),
];

describe("substantive turns", () => {
  it("scores the seed's transcript as 7: ten rows, but consecutive rows of one side are one turn", () => {
    // assistant (1 row) · caller · assistant (2 rows) · caller · assistant (3 rows) · caller · assistant = 7.
    expect(substantiveTurnCount(SEED)).toBe(7);
  });

  it("a backchannel is not a turn and does not split the assistant's turn around it", () => {
    // "Mm-hmm." between "All set…" and "Your confirmation number…": still 7. Counted, it would make 9.
    const withBackchannel = [...SEED, U("Mm-hmm.", 28500, 28800, "BACKCHANNEL")];
    expect(substantiveTurnCount(withBackchannel)).toBe(7);
    const asIfSpoken = [...SEED, U("Mm-hmm.", 28500, 28800, "SPEAK")];
    expect(substantiveTurnCount(asIfSpoken)).toBe(9);
  });

  it("an interruption is a turn: it splits the assistant's speech into two turns", () => {
    const turns = [A("That slot is unavailable, but we do have", 0, 3000), U("What about the ninth?", 2500, 4000, "INTERRUPT"), A("The ninth at seven is free.", 4500, 6000)];
    expect(substantiveTurnCount(turns)).toBe(3);
  });

  it("orders by start time, whatever the record order, and skips empty utterances", () => {
    expect(substantiveTurnCount([SEED[2]!, SEED[1]!, SEED[0]!])).toBe(3);
    expect(substantiveTurnCount([A("Hello.", 0, 500), U("  ", 600, 700), A("Anyone there?", 2000, 2500)])).toBe(1);
  });

  it("CRAWL and WALK keep counting the caller's requests; RUN counts substantive turns", () => {
    const single = [U("Book a table for two.", 0, 1500), A("Checking.", 2000, 2500), A("Booked.", 4000, 4500)];
    expect(actualTurns("crawl", single)).toBe(1);
    expect(actualTurns("walk", single)).toBe(1);
    expect(actualTurns("run", single)).toBe(2);
    expect(actualTurns("run", SEED)).toBe(7);
  });
});

describe("substantive turns: blanks and ties", () => {
  it("a blank utterance holds no floor: it neither counts nor splits a turn", () => {
    expect(substantiveTurnCount([A("Hello.", 0, 500), U("   ", 600, 700), A("How can I help?", 800, 1200)])).toBe(1);
  });

  it("utterances starting together keep their record order", () => {
    // The assistant's greeting and the caller's hello both start at 0: assistant, caller, assistant = 3.
    expect(substantiveTurnCount([A("Hello.", 0, 500), U("Hi.", 0, 400), A("How can I help?", 800, 1200)])).toBe(3);
  });
});
