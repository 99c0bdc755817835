import { describe, expect, it } from "vitest";
import {
  ACTION_WORDS,
  actionWords,
  asksFor,
  asksForGoAhead,
  BACKCHANNEL_TOKENS,
  CHANGE_WORDS,
  CONSENT_PHRASES,
  CONSENT_REQUESTS,
  containsPhrase,
  CORRECTION_WORDS,
  correctionCue,
  FAREWELL_PHRASES,
  FIELD_SYNONYMS,
  fieldWords,
  givesGoAhead,
  goAheadRequest,
  isBackchannelPhrase,
  isQuestionSentence,
  mentionsField,
  mentionsValue,
  OUTCOME_PHRASES,
  plainText,
  QUESTION_OPENERS,
  questionSentences,
  REFUSAL_PHRASES,
  refuses,
  reportsOutcome,
  saysGoodbye,
  sentences,
  spokenForms,
  WITHHOLDING_PHRASES,
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

  it("splits an utterance into sentences, each with its own end", () => {
    expect(sentences("What time? For how many?")).toEqual(["What time?", "For how many?"]);
    expect(sentences("Hi!!  Yes.  ")).toEqual(["Hi!!", "Yes."]);
    expect(sentences("No punctuation at all")).toEqual(["No punctuation at all"]);
    expect(sentences("...")).toEqual([]);
    expect(sentences("")).toEqual([]);
  });

  it("a sentence asks when it ends with '?' or opens with a question opener as a whole word", () => {
    expect(isQuestionSentence("For two? ")).toBe(true);
    expect(isQuestionSentence("What")).toBe(true);
    expect(isQuestionSentence("What works for you.")).toBe(true);
    expect(isQuestionSentence("Whatever works.")).toBe(false);
    expect(isQuestionSentence("I can do seven.")).toBe(false);
    for (const opener of QUESTION_OPENERS) expect(isQuestionSentence(`${opener} anything.`), opener).toBe(true);
    expect(questionSentences("I can do seven. What time suits? Or eight")).toEqual(["What time suits?"]);
  });
});

describe("transcript cues: field words", () => {
  it("a key's words are its parts, the synonyms of the whole key, then the synonyms of each part", () => {
    expect(fieldWords("party_size")).toEqual(["party", "size", "how many", "people", "guests", "persons", "group"]);
    expect(fieldWords("party-size")).toEqual(fieldWords("party_size"));
    expect(fieldWords("Guest Name")).toEqual(["guest", "name", "called", "who"]);
    expect(fieldWords("reservation.id")).toEqual(["reservation", "id", "booking", "confirmation", "number", "code", "reference"]);
    expect(fieldWords("_notes-")).toEqual(["notes"]);
  });

  it("each field is named by its synonyms", () => {
    const examples: Array<[string, string, string]> = [
      ["name", "What are you called?", "called"],
      ["guest", "And your name?", "name"],
      ["time", "Seven o'clock?", "o'clock"],
      ["date", "Is Monday good?", "monday"],
      ["party", "How many persons?", "how many"],
      ["size", "How many guests?", "how many"],
      ["reservation", "Your booking?", "booking"],
      ["id", "The reference?", "reference"],
      ["seating", "Patio or bar?", "patio"],
      ["phone", "Where can we call you?", "call you"],
      ["email", "Your e-mail?", "e mail"],
    ];
    expect(examples.map(([field]) => field).sort()).toEqual(Object.keys(FIELD_SYNONYMS).sort());
    for (const [field, text, word] of examples) expect(mentionsField(text, field), field).toBe(word);
    for (const [field, words] of Object.entries(FIELD_SYNONYMS)) for (const w of words) expect(mentionsField(w, field), `${field}: ${w}`).not.toBeNull();
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

describe("transcript cues: every listed phrase works on its own", () => {
  it("corrections", () => {
    for (const w of [...CORRECTION_WORDS, ...CHANGE_WORDS]) expect(correctionCue(`${w}.`), w).toBe(w);
  });

  it("requests for a go-ahead, by phrase or by the action's words, unless a question word comes first", () => {
    for (const phrase of CONSENT_REQUESTS) expect(goAheadRequest(`${phrase}?`), phrase).toBe(phrase);
    expect(actionWords("create_reservation")).toEqual(["create", "book", "reserve", "make the reservation", "make the booking"]);
    expect(actionWords("book_table")).toEqual(["book", "reserve"]);
    expect(actionWords("Cancel Reservation")).toEqual(["cancel", "cancellation"]);
    expect(actionWords("update.reservation")).toEqual(["update", "change", "modify", "move"]);
    expect(actionWords("modify-booking")).toEqual(["modify", "change", "update", "move"]);
    expect(actionWords("delete_reservation")).toEqual(["delete", "remove"]);
    expect(actionWords("list_tables")).toEqual(["list"]);
    expect(actionWords("")).toEqual([]);
    for (const [verb, words] of Object.entries(ACTION_WORDS)) {
      for (const w of words) expect(goAheadRequest(`${w} it?`, actionWords(`${verb}_reservation`)), w).toBe(w);
    }
    expect(goAheadRequest("I will book it.", ["book"])).toBeNull();
    for (const wh of ["what", "which", "when", "where", "who", "whose", "how"]) expect(goAheadRequest(`Okay, ${wh} should I book?`), wh).toBeNull();
    // Only the first three words are looked at: a question word later does not make it a request for information.
    expect(goAheadRequest("Okay so what should I do?")).toBeNull();
    expect(goAheadRequest("Okay so then what should I do?")).toBe("should i");
    expect(asksForGoAhead("Done. It's free. Shall I also cancel?")).toBe("shall i");
    expect(asksForGoAhead("Done. It's free.")).toBeNull();
  });

  it("go-aheads, and what withholds one", () => {
    for (const phrase of CONSENT_PHRASES) expect(givesGoAhead(`${phrase}.`), phrase).toBe(phrase);
    for (const phrase of WITHHOLDING_PHRASES) expect(givesGoAhead(`Yes, ${phrase}.`), phrase).toBeNull();
    for (const no of ["No.", "No, sure.", "Nope, okay.", "Nah, go ahead."]) expect(givesGoAhead(no), no).toBeNull();
    // "no" withholds only as the first word.
    expect(givesGoAhead("Nothing else, yes, go ahead.")).toBe("yes");
    expect(givesGoAhead("Yes, no problem.")).toBe("yes");
    // Doubt is not a go-ahead, though it says "sure".
    expect(givesGoAhead("Hmm, not sure.")).toBeNull();
    expect(givesGoAhead("I'm unsure, let me think.")).toBeNull();
  });

  it("refusals and outcome reports", () => {
    for (const phrase of REFUSAL_PHRASES) expect(refuses(`${phrase}.`), phrase).not.toBeNull();
    for (const phrase of OUTCOME_PHRASES) expect(reportsOutcome(`${phrase}.`), phrase).not.toBeNull();
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
