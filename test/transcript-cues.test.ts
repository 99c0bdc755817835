import { describe, expect, it } from "vitest";
import {
  actionWords as actionWordsIn,
  BACKCHANNEL_TOKENS,
  CHANGE_WORDS,
  containsPhrase,
  CORRECTION_WORDS,
  correctionCue,
  FAREWELL_PHRASES,
  isBackchannelPhrase,
  mentionsField as mentionsFieldIn,
  mentionsValue,
  plainText,
  reportsOutcome as reportsOutcomeIn,
  saysGoodbye,
  spokenForms,
} from "../src/core/language/cues";
import {
  asksFor as asksForIn,
  asksForGoAhead,
  availabilityTerms,
  CONSENT_TERMS,
  declines,
  FIELD_SYNONYMS as GENERIC_FIELD_SYNONYMS,
  fieldTerms,
  givesGoAhead,
  GO_AHEAD_REQUESTS,
  isQuestion,
  questionSentences,
  REFUSAL_EXPRESSIONS,
  sentencesOf,
  WH_WORDS,
  WITHHOLDING_TERMS,
} from "../src/core/language/reader";
import { RESTAURANT } from "./restaurant-lexicon";

/** The phrase rules as the bundled restaurant package reads them (its vocabulary: docs/worlds.md). */
const actionWords = (tool: string) => actionWordsIn(tool, RESTAURANT);
const mentionsField = (text: string, field: string) => mentionsFieldIn(text, field, RESTAURANT);
const reportsOutcome = (text: string) => reportsOutcomeIn(text, RESTAURANT);
const fieldWords = (field: string) => fieldTerms(field, RESTAURANT);
const asksFor = (text: string, field: string) => {
  const asked = asksForIn(text, field, RESTAURANT);
  return asked ? { sentence: asked.sentence, word: asked.term } : null;
};
const FIELD_SYNONYMS = { ...GENERIC_FIELD_SYNONYMS, ...RESTAURANT.fields };
/** Openers by which a sentence asks even when the transcript lost its "?". */
const QUESTION_OPENERS = [...WH_WORDS, "tell me", "let me know", "please tell me", "please give me", "i still need", "i need", "i'll need", "i just need", "i also need"] as const;

/** Every phrasing in `lines` gives `expected`. */
function each<T>(lines: readonly string[], f: (line: string) => T, expected: T) {
  for (const line of lines) expect(f(line), line).toEqual(expected);
}

describe("transcript cues: asking for a detail", () => {
  it("a question sentence that names the field in any form", () => {
    expect(asksFor("What time would you like?", "time")).toEqual({ sentence: "What time would you like?", word: "time" });
    expect(asksFor("When would you like to come?", "time")?.word).toBe("when");
    expect(asksFor("Seven o'clock, or later?", "time")?.word).toBe("o'clock");
    // "how many" and "guest" name party_size; the name question is a separate sentence.
    expect(asksFor("Sure. For how many people? And under what name?", "party_size")?.sentence).toBe("For how many people?");
    expect(asksFor("Sure. For how many people? And under what name?", "guest_name")?.sentence).toBe("And under what name?");
    each(["How many guests?", "How many of you will there be?", "What's the size of your party?"], (t) => asksFor(t, "party_size")?.sentence, expect.any(String));
    each(["Which of your reservations would you like to cancel?", "Which booking should I cancel?", "What's the confirmation number?"], (t) => asksFor(t, "reservation_id")?.sentence, expect.any(String));
    each(["What name should I put it under?", "Who is the booking for?", "And your name, please?"], (t) => asksFor(t, "guest_name")?.sentence, expect.any(String));
  });

  it("a statement, a go-ahead request or a question about something else does not ask", () => {
    each(["I have booked it under Maya.", "I've booked it under Maya.", "Your name is on the booking."], (t) => asksFor(t, "guest_name"), null);
    each(["Great, shall I book it for two people under Maya?", "Would you like me to book it for four guests?", "Four people at 7, is that right?"], (t) => asksFor(t, "party_size"), null);
    each(["Is there anything else I can help with?", "How many guests?", "Would you like the patio?"], (t) => asksFor(t, "time"), null);
    // Guests are a party size, not a name; a booking's owner is a name, not which reservation.
    expect(asksFor("How many guests?", "guest_name")).toBeNull();
    expect(asksFor("Who is the booking for?", "reservation_id")).toBeNull();
  });

  it("a question that lost its '?' still asks", () => {
    each(["could you tell me the date for the booking", "which day works for you", "tell me the date please"], (t) => asksFor(t, "date")?.sentence, expect.any(String));
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
  it("finds correction words as whole words, not a request to repeat", () => {
    expect(correctionCue("Oh, actually, make that the 8th.")).toBe("actually");
    expect(correctionCue("I meant R-2041.")).toBe("i meant");
    expect(correctionCue("Sorry, 8 not 7.")).toBe("sorry");
    expect(correctionCue("Sorry, actually four of us?")).toBe("actually");
    each(["Factually speaking, seven works.", "Sorry, what was that?", "Sorry?", "Yes, that's it."], correctionCue, null);
  });

  it("recognises a request for a go-ahead, by phrase or by the tool's action", () => {
    each(["It's available. Shall I book it?", "Should I put that through?", "Shall I go ahead and book it?"], asksForGoAhead, expect.stringMatching(/^(shall|should) i$/));
    expect(asksForGoAhead("Would you like me to go ahead?")).toBe("would you like me to");
    expect(asksForGoAhead("Want me to cancel R-2040?")).toBe("want me to");
    expect(asksForGoAhead("Is that OK to book?")).toBe("is that ok");
    each(["Cancel reservation R-2040?", "So, cancel it?", "Do you still want to cancel R-2040?"], (t) => asksForGoAhead(t, actionWords("cancel_reservation")), "cancel");
    each(["I've cancelled it.", "I'll cancel it now.", "Your cancellation is done."], (t) => asksForGoAhead(t, actionWords("cancel_reservation")), null);
    // A question word up front makes it a request for information, though it says "should I".
    each(["And what name should I put the reservation under?", "Okay, so what should I do?", "Which one should I book?"], asksForGoAhead, null);
    expect(asksFor("And what name should I put the reservation under?", "guest_name")?.word).toBe("name");
    // The restaurant declares create_reservation a create and book, reserve its verbs; a tool it does not declare is read from its name's verbs.
    expect(actionWords("create_reservation")).toEqual(["create", "book", "reserve", "make the reservation", "make the table", "make the booking", "make the seat"]);
    expect(actionWords("book_table")).toEqual(["book", "reserve", "create", "make the reservation", "make the table", "make the booking", "make the seat"]);
    expect(actionWords("Cancel Reservation")).toEqual(["cancel", "delete", "remove"]);
    expect(actionWords("update.reservation")).toEqual(["update", "change", "modify", "move", "reschedule", "switch", "edit", "amend"]);
    expect(actionWords("modify-booking")).toEqual(["modify", "change", "update", "move", "reschedule", "switch", "edit", "amend"]);
    expect(actionWords("delete_reservation")).toEqual(["delete", "cancel", "remove"]);
    expect(actionWords("list_tables")).toEqual(["list"]);
    expect(actionWords("check_availability")).toEqual(["check"]);
    expect(actionWords("")).toEqual([]);
    // Without the restaurant's words, book names nothing.
    expect(actionWordsIn("book_table")).toEqual(["book"]);
    for (const tool of ["create_reservation", "cancel_reservation", "update_reservation", "delete_reservation"]) {
      for (const w of actionWords(tool)) expect(asksForGoAhead(`${w} it?`, actionWords(tool)), w).toBe(w);
    }
    expect(asksForGoAhead("I will book it.", ["book"])).toBeNull();
    for (const wh of ["what", "which", "when", "where", "who", "whose", "how"]) expect(asksForGoAhead(`Okay, ${wh} should I book?`), wh).toBeNull();
    expect(asksForGoAhead("Okay so then what should I do?")).toBeNull();
    expect(asksForGoAhead("Done. It's free. Shall I also cancel?")).toBe("shall i");
    expect(asksForGoAhead("Done. It's free.")).toBeNull();
  });

  it("go-aheads, and what withholds one", () => {
    for (const phrase of CONSENT_TERMS) expect(givesGoAhead(`${phrase.replace(" be ", " is ")}.`), phrase).not.toBeNull();
    for (const phrase of WITHHOLDING_TERMS) expect(givesGoAhead(`Yes, ${phrase}.`), phrase).toBeNull();
    for (const no of ["No.", "No, sure.", "Nope, okay.", "Nah, go ahead."]) expect(givesGoAhead(no), no).toBeNull();
    // A negation that agrees does not withhold.
    expect(givesGoAhead("Yes, no problem.")).toBe("yes");
    expect(givesGoAhead("Sure, why not.")).toBe("sure");
    // Doubt is not a go-ahead, though it says "sure".
    expect(givesGoAhead("Hmm, not sure.")).toBeNull();
    expect(givesGoAhead("I'm unsure, let me think.")).toBeNull();
  });

  it("refusals and outcome reports", () => {
    for (const phrase of REFUSAL_EXPRESSIONS) expect(declines(`There are ${phrase}.`), phrase).not.toBeNull();
    for (const phrase of availabilityTerms(RESTAURANT)) expect(reportsOutcome(`It is ${phrase}.`), phrase).toBe(phrase);
  });

  it("backchannels: up to four acknowledgement words, one- and two-word tokens", () => {
    for (const token of BACKCHANNEL_TOKENS) expect(isBackchannelPhrase(`${token}.`), token).toBe(true);
    expect(isBackchannelPhrase("Uh huh, uh huh.")).toBe(true);
    expect(isBackchannelPhrase("Yes, got it.")).toBe(true);
    expect(isBackchannelPhrase("Yes yes yes yes.")).toBe(true);
    expect(isBackchannelPhrase("Yes yes yes yes yes.")).toBe(false);
    expect(isBackchannelPhrase("Right, got.")).toBe(false);
    expect(isBackchannelPhrase("Okay, book.")).toBe(false);
    expect(isBackchannelPhrase("Sure thing.", ["sure THING"])).toBe(true);
    expect(isBackchannelPhrase("Sure thing.", ["Oh wow, lovely!"])).toBe(false);
    expect(isBackchannelPhrase("Yes, for two people.", [])).toBe(false);
    expect(isBackchannelPhrase("...", ["..."])).toBe(false);
  });

  it("goodbyes: every farewell phrase, and thanks with nothing else", () => {
    for (const phrase of FAREWELL_PHRASES) expect(saysGoodbye(`${phrase}.`), phrase).not.toBeNull();
    expect(saysGoodbye("Thank you so much, thanks a lot, very good, great, perfect, wonderful, lovely, ok, okay, alright, cheers, awesome.")).toBe("thanks");
    expect(saysGoodbye("Thanks.")).toBe("thanks");
    expect(saysGoodbye("Thank you.")).toBe("thanks");
    expect(saysGoodbye("Great, perfect.")).toBeNull();
    expect(saysGoodbye("")).toBeNull();
  });
});
