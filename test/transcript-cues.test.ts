import { describe, expect, it } from "vitest";
import {
  actionWords,
  asksFor,
  asksForGoAhead,
  correctionCue,
  fieldWords,
  givesGoAhead,
  isBackchannelPhrase,
  mentionsValue,
  refuses,
  reportsOutcome,
  saysGoodbye,
  spokenForms,
} from "../src/core/timeline/cues";

describe("transcript cues: asking for a detail", () => {
  it("needs a question sentence that names the field or a synonym", () => {
    expect(asksFor("What time would you like?", "time")?.word).toBe("time");
    // "how many" and "people" name party_size; the name question is a separate sentence.
    expect(asksFor("Sure. For how many people? And under what name?", "party_size")?.sentence).toBe("For how many people?");
    expect(asksFor("Sure. For how many people? And under what name?", "guest_name")?.sentence).toBe("And under what name?");
    // A statement naming the field is not a question.
    expect(asksFor("I have booked it under Maya.", "guest_name")).toBeNull();
    // A question opener without "?" still asks (transcripts sometimes lose punctuation).
    expect(asksFor("could you tell me the date for the booking", "date")).not.toBeNull();
    // A question about something else does not ask for this field.
    expect(asksFor("Is there anything else I can help with?", "time")).toBeNull();
  });

  it("splits field keys on '_' and adds synonyms", () => {
    expect(fieldWords("party_size")).toEqual(expect.arrayContaining(["party", "size", "how many", "people", "guests"]));
    expect(fieldWords("reservation_id")).toEqual(expect.arrayContaining(["reservation", "id", "number", "booking"]));
  });
});

describe("transcript cues: values as spoken", () => {
  it("says ISO dates, 24-hour times and small numbers the way people do", () => {
    expect(mentionsValue("Actually, make that August 8th instead.", "2026-08-08")).toBe("august 8th");
    expect(mentionsValue("the eighth of August works", "2026-08-08")).toBe("eighth of august");
    expect(mentionsValue("Actually, make that August 8th instead.", "2026-08-07")).toBeNull();
    expect(mentionsValue("Seven p.m., please.", "19:00")).toBe("seven p m");
    expect(mentionsValue("Let's say 8:30.", "20:30")).toBe("8 30");
    expect(mentionsValue("make it four of us", 4)).toBe("four");
    expect(mentionsValue("It's R-002, not R-001.", "R-002")).toBe("R-002");
    expect(spokenForms("19:30")).toEqual(expect.arrayContaining(["7 30", "half past 7", "seven 30"]));
  });

  it("never mentions booleans, objects or one-character strings", () => {
    expect(mentionsValue("yes true", true)).toBeNull();
    expect(mentionsValue("a b c", "a")).toBeNull();
    expect(mentionsValue("{}", {})).toBeNull();
  });
});

describe("transcript cues: corrections, go-aheads, refusals, outcomes", () => {
  it("finds correction words as whole words", () => {
    expect(correctionCue("Oh, actually, make that the 8th.")).toBe("actually");
    expect(correctionCue("I meant R-002.")).toBe("i meant");
    expect(correctionCue("Factually speaking, seven works.")).toBeNull();
  });

  it("recognises a request for a go-ahead, by phrase or by the tool's action", () => {
    expect(asksForGoAhead("It's available. Shall I book it?")).toBe("shall i");
    expect(asksForGoAhead("Cancel reservation R-002?", actionWords("cancel_reservation"))).toBe("cancel");
    expect(asksForGoAhead("I've cancelled it.", actionWords("cancel_reservation"))).toBeNull();
    // A question word up front makes it a request for information, though it says "should I".
    expect(asksForGoAhead("And what name should I put the reservation under?")).toBeNull();
    expect(asksFor("And what name should I put the reservation under?", "guest_name")?.word).toBe("name");
    // A go-ahead request names details to confirm them, not to ask for them.
    expect(asksFor("Great, shall I book it for two people under Maya?", "party_size")).toBeNull();
    expect(actionWords("create_reservation")).toEqual(expect.arrayContaining(["create", "book", "reserve"]));
  });

  it("takes a yes as a go-ahead unless it is withheld or corrected", () => {
    expect(givesGoAhead("Yes, please go ahead.")).toBe("yes");
    expect(givesGoAhead("Sure, do it.")).toBe("sure");
    expect(givesGoAhead("No, don't.")).toBeNull();
    expect(givesGoAhead("Yes — wait, not that one, it's R-002.")).toBeNull();
    expect(givesGoAhead("Nope.")).toBeNull();
    expect(givesGoAhead("Maya.")).toBeNull();
  });

  it("recognises refusals and outcome reports", () => {
    expect(refuses("I'm sorry, but I can't cancel a reservation that isn't yours.")).toBe("can't");
    expect(refuses("Only the person who made the booking can cancel it.")).toBe("only the person who");
    expect(refuses("Sure, one moment.")).toBeNull();
    expect(reportsOutcome("You're all set: table for two is confirmed.")).toBe("confirmed");
    expect(reportsOutcome("Let me check that for you.")).toBeNull();
  });
});

describe("transcript cues: backchannels and goodbyes", () => {
  it("a backchannel is a persona phrase or a few acknowledgement words", () => {
    expect(isBackchannelPhrase("Mm-hmm.")).toBe(true);
    expect(isBackchannelPhrase("Uh huh, right.")).toBe(true);
    expect(isBackchannelPhrase("Oh wow, lovely.", ["Oh wow, lovely!"])).toBe(true);
    expect(isBackchannelPhrase("Yes, for two people.")).toBe(false);
    expect(isBackchannelPhrase("")).toBe(false);
  });

  it("a goodbye is a farewell phrase or nothing but thanks", () => {
    expect(saysGoodbye("Wonderful. Thanks so much. Have a great day!")).toBe("have a great");
    expect(saysGoodbye("Perfect, thank you so much.")).toBe("thanks");
    expect(saysGoodbye("Thanks. Can I also ask about parking?")).toBeNull();
  });
});

describe("cues read the reference harness's phrasings", () => {
  it("a stated need followed by 'Could you tell me?' asks for what it names", () => {
    expect(asksFor("I still need the name for the reservation, the time and how many people are coming. Could you tell me?", "guest_name")).toMatchObject({ word: "name" });
    expect(asksFor("I need the time, please.", "time")).not.toBeNull();
    // Saying what will happen is not asking.
    expect(asksFor("I've booked it under Maya.", "guest_name")).toBeNull();
  });
  it("a relayed refusal counts as refusing", () => {
    expect(refuses("I'm sorry, I couldn't cancel reservation R-12: that reservation isn't one you're authorized to change.")).not.toBeNull();
    expect(refuses("There are no exceptions to that.")).toBe("no exceptions");
    expect(refuses("Your table is booked.")).toBeNull();
  });
});
