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

describe("transcript cues: text as the rules read it", () => {
  it("normalizes width, case, punctuation, symbols and spaces, and matches whole words only", () => {
    expect(plainText("  Don't   BOOK—it, ＴＷＯ!! €5 + tip ")).toBe("don t book it two 5 tip");
    expect(containsPhrase("Cancel", ["cancel"])).toBe("cancel");
    expect(containsPhrase("Can't do it.", ["can t"])).toBe("can t");
    expect(containsPhrase("We'll scancel it", ["cancel"])).toBeNull();
    // The first phrase of the list that matches is the answer; a phrase of punctuation alone never matches.
    expect(containsPhrase("No, wait.", ["wait", "no wait"])).toBe("wait");
    expect(containsPhrase("?!", ["?"])).toBeNull();
  });

  it("a field is named by its words in the generic lexicon too", () => {
    expect(mentionsFieldIn("What's your phone number?", "phone")).toBe("phone");
    expect(mentionsFieldIn("Your e-mail?", "email")).toBe("e mail");
    expect(mentionsFieldIn("Which day suits?", "phone")).toBeNull();
  });
});

describe("transcript cues: spoken values, form by form", () => {
  const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
  const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth", "twenty first", "twenty second", "twenty third", "twenty fourth", "twenty fifth", "twenty sixth", "twenty seventh", "twenty eighth", "twenty ninth", "thirtieth", "thirty first"];
  const SUFFIXED = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th", "11th", "12th", "13th", "14th", "15th", "16th", "17th", "18th", "19th", "20th", "21st", "22nd", "23rd", "24th", "25th", "26th", "27th", "28th", "29th", "30th", "31st"];
  const NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"];

  it("whole numbers up to twenty also as words, as numbers or as digit strings", () => {
    NUMBERS.forEach((word, n) => expect(spokenForms(n)).toEqual([String(n), word]));
    expect(spokenForms("07")).toEqual(["07", "seven"]);
    for (const other of [21, -1, 2.5, "7a", "a7", "R-002"]) expect(spokenForms(other)).toEqual([String(other)]);
  });

  it("an ISO date by day number, ordinal and ordinal word, each month by name", () => {
    expect(spokenForms("2026-08-08")).toEqual([
      "2026-08-08",
      "august 8", "8 of august", "the 8 of august",
      "august 8th", "8th of august", "the 8th of august",
      "august eighth", "eighth of august", "the eighth of august",
    ]);
    MONTHS.forEach((month, i) => expect(spokenForms(`2026-${String(i + 1).padStart(2, "0")}-08`)).toContain(`${month} 8`));
    for (let day = 1; day <= 31; day++) {
      const forms = spokenForms(`2026-08-${String(day).padStart(2, "0")}`);
      expect(forms).toContain(`august ${SUFFIXED[day - 1]}`);
      expect(forms).toContain(`the ${ORDINALS[day - 1]} of august`);
    }
    for (const notADate of ["2026-08-32", "2026-08-00", "2026-13-01", "2026-00-10", "2026-8-08", "12026-08-08", "2026-08-08T10", "x2026-08-08"]) {
      expect(spokenForms(notADate)).toEqual([notADate]);
    }
  });

  it("a 24-hour time on the 12-hour clock, with am/pm or o'clock on the hour and half past at 30", () => {
    expect(spokenForms("19:00")).toEqual([
      "19:00",
      "7 pm", "7 p m", "7 in the evening", "7 at night", "7 o clock",
      "seven pm", "seven p m", "seven in the evening", "seven at night", "seven o clock",
    ]);
    expect(spokenForms("19:30")).toEqual(["19:30", "7 30", "half past 7", "seven 30", "half past seven"]);
    expect(spokenForms("9:05")).toEqual(["9:05", "9 05", "nine 05"]);
    expect(spokenForms("07:00")).toEqual([
      "07:00",
      "7 am", "7 a m", "7 in the morning", "7 o clock",
      "seven am", "seven a m", "seven in the morning", "seven o clock",
    ]);
    expect(spokenForms("00:00")).toEqual(expect.arrayContaining(["12 am", "twelve in the morning"]));
    expect(spokenForms("11:00")).toContain("11 am");
    expect(spokenForms("12:00")).toEqual(expect.arrayContaining(["12 pm", "twelve o clock"]));
    expect(spokenForms("12:00")).not.toContain("12 am");
    for (const notATime of ["123:45", "19:5", "x19:30", "19:30x"]) expect(spokenForms(notATime)).toEqual([notATime]);
  });

  it("a value is mentioned when any spoken form is; strings need two characters", () => {
    expect(mentionsValue("Table 12, please", 12)).toBe("12");
    expect(mentionsValue("Under AB, please", "ab")).toBe("ab");
    expect(mentionsValue("a", "a.")).toBeNull();
    expect(mentionsValue("Tomorrow at seven", "19:00")).toBeNull();
  });
});

describe("transcript cues: the cue found in any sentence, and what is not one", () => {
  it("a correction in a later sentence; 'Sorry?' asks to hear it again", () => {
    expect(correctionCue("Hello there. Actually, make it 8.")).toBe("actually");
    expect(correctionCue("Sorry? What was that?")).toBeNull();
    expect(correctionCue("Sorry? I mean eight.")).toBe("i mean");
  });

  it("a denied outcome is no outcome report", () => {
    expect(reportsOutcome("It's not cancelled.")).toBeNull();
    expect(reportsOutcome("It isn't booked.")).toBeNull();
    expect(reportsOutcome("It is cancelled.")).toBe("cancelled");
  });

  it("thanks with a request beside it is no goodbye", () => {
    expect(saysGoodbye("Thanks, book it.")).toBeNull();
    expect(saysGoodbye("Great, thanks.")).toBe("thanks");
  });
});
