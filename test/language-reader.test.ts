import { describe, expect, it } from "vitest";
import {
  asksFor,
  asksForGoAhead,
  declines,
  fieldTerms,
  FIELD_SYNONYMS,
  givesGoAhead,
  isQuestion,
  lemmas,
  mentions,
  questionSentences,
  read,
  readOutcome,
  sentencesOf,
} from "../src/core/language/reader";
import { RESTAURANT } from "./restaurant-lexicon";

/** Every phrasing in `lines` gives `expected`. */
function each<T>(lines: readonly string[], f: (line: string) => T, expected: T) {
  for (const line of lines) expect(f(line), line).toEqual(expected);
}

describe("reader: sentences", () => {
  it("splits at sentence ends, keeps abbreviations and times whole, drops punctuation-only text", () => {
    expect(sentencesOf("What time? For how many?")).toEqual(["What time?", "For how many?"]);
    expect(sentencesOf("Hi!!  Yes.  ")).toEqual(["Hi!!", "Yes."]);
    expect(sentencesOf("Dr. Okafor booked R-2040 at 7 p.m. on Aug. 8. Is that ok?")).toEqual(["Dr. Okafor booked R-2040 at 7 p.m. on Aug. 8.", "Is that ok?"]);
    expect(sentencesOf("No punctuation at all")).toEqual(["No punctuation at all"]);
    expect(sentencesOf("...")).toEqual([]);
    expect(sentencesOf("")).toEqual([]);
  });

  it("reads each text once: the same text gives the same reading", () => {
    expect(read("Shall I book it for Maya?")).toBe(read("Shall I book it for Maya?"));
    expect(read("Shall I book it for Maya?").sentences[0]!.clauses.map((c) => c.map((w) => w.word))).toEqual([["shall", "i", "book", "it", "for", "maya"]]);
    expect(read("Okay, so; which one — the 8th: fine (yes) or - no").sentences[0]!.clauses.map((c) => c.map((w) => w.word).join(" "))).toEqual(["okay", "so", "which one", "the 8th", "fine", "yes", "or", "no"]);
  });
});

describe("reader: questions", () => {
  it("a '?' asks", () => {
    each(["For two?", "Seven p.m.?", "Maya, right?"], isQuestion, true);
  });

  it("an auxiliary before its subject asks, with or without '?'", () => {
    each(["Would you like a table for four", "Can't you move it to eight", "Is that OK to book", "Do you want me to cancel R-2040", "Could the party be smaller", "Are there any allergies", "Have you booked with us before", "Was Maya the name"], isQuestion, true);
    // An auxiliary with no subject after it opens a statement.
    each(["Will do.", "Could be worse.", "Have a great evening.", "Can do seven.", "Would love to."], isQuestion, false);
  });

  it("a question word opens a question, but not a clause with its own subject or an exclamation", () => {
    each(["What time works for you", "Which of your reservations would you like to cancel", "How many of you will there be", "Who is the booking for", "Okay so what should I do", "And when would you like to come"], isQuestion, true);
    each(["When you arrive, ask for Maya.", "What you need is a table by the window.", "What a lovely evening.", "Whatever works."], isQuestion, false);
  });

  it("after a comma: an inverted auxiliary or 'what'/'how' ask; a relative 'which/when/who' does not", () => {
    each(["I booked it, is that ok", "Got it, and which day", "Lovely, what time", "Alright, how many", "I have seven, when would you like to come"], isQuestion, true);
    each(["We open at 5, when the kitchen starts.", "I've put you on the patio, which is heated.", "The table is for Maya, who called earlier."], isQuestion, false);
  });

  it("a request for information asks: 'tell me', 'let me know', 'please give me'", () => {
    each(["Tell me your name", "Please let me know the time", "Just let us know how many are coming", "Please give me the reservation number", "Spell the last name for me", "Okay, confirm the date for me"], isQuestion, true);
    each(["Please hold.", "Let me check that.", "Give it a minute."], isQuestion, false);
  });

  it("a stated need asks; the speaker's own task does not", () => {
    each(["I still need the name", "I'll need your phone number", "I'm going to need the date", "We just need a time", "I also need to know how many guests", "I need to have the reservation number", "I really need a phone number", "I actually need the date"], isQuestion, true);
    each(["I need to check availability first.", "I need to confirm with the kitchen.", "I need.", "You need the code."], isQuestion, false);
  });

  it("statements do not ask", () => {
    each(["I can do seven.", "Your table is booked for 7 p.m.", "Thanks for calling.", "Okay."], isQuestion, false);
  });

  it("lists the sentences that ask", () => {
    expect(questionSentences("I can do seven. What time suits? Or eight")).toEqual(["What time suits?"]);
    expect(questionSentences("Noted. I still need the name. Thanks.")).toEqual(["I still need the name."]);
  });
});

describe("reader: lemmas and terms", () => {
  it("reads lemmas, contractions expanded", () => {
    expect(lemmas("Which reservations were booked? Isn't it")).toEqual(["which", "reservation", "be", "book", "be", "not", "it"]);
    expect(lemmas("I can't, we won't, I'm")).toEqual(["i", "can", "not", "we", "will", "not", "i", "be"]);
  });

  it("matches terms in any form of a base word or noun, plural-insensitive", () => {
    expect(mentions("Which of your reservations?", ["reservation"])).toBe("reservation");
    expect(mentions("Four guests tonight.", ["guest"])).toBe("guest");
    expect(mentions("A table for one guest.", ["guests"])).toBe("guests");
    expect(mentions("I've booked it.", ["book"])).toBe("book");
    expect(mentions("What's the party size?", ["party size"])).toBe("party size");
    expect(mentions("The party is large, what size?", ["party size"])).toBeNull();
    // An inflected verb matches only itself (and its own plural), not the base word.
    expect(mentions("Can I call you back?", ["called"])).toBeNull();
    expect(mentions("What are you called?", ["called"])).toBe("called");
    // The first term of the list that matches is the answer.
    expect(mentions("The booking for Maya.", ["maya", "booking"])).toBe("maya");
    expect(mentions("Nothing here.", ["reservation", "guest"])).toBeNull();
    expect(mentions("Anything", ["..."])).toBeNull();
  });

  it("derived forms only when asked: booking/booked/cancellation relate to book/cancel", () => {
    expect(mentions("Is that the booking?", ["book"])).toBeNull();
    expect(mentions("Is that the booking?", ["book"], "derived")).toBe("book");
    expect(mentions("Confirm the cancellation?", ["cancel"], "derived")).toBe("cancel");
    expect(mentions("Shall I make the reservation?", ["reserve"], "derived")).toBe("reserve");
    expect(mentions("I've booked it.", ["booked"], "exact")).toBe("booked");
    expect(mentions("I'll book it.", ["booked"], "exact")).toBeNull();
    expect(mentions("I'll book it.", ["booking"], "exact")).toBeNull();
  });

  it("matches phrases with a gap, in order", () => {
    expect(mentions("Which of your two reservations?", ["which … reservation"])).toBe("which … reservation");
    expect(mentions("The reservation, which one?", ["which … reservation"])).toBeNull();
    expect(mentions("Which one?", ["which … reservation"])).toBeNull();
  });
});

describe("reader: refusals", () => {
  it("a negated 'can' or 'will' of the speaker declines", () => {
    each(["I can't cancel that.", "I cannot change a reservation under another name.", "Sorry, can't do that.", "I'm afraid we can't move R-2040.", "I can't tell you who booked it.", "I won't be cancelling it.", "We will not change that booking."], declines, expect.any(String));
  });

  it("a negated permission, or a present ability, declines", () => {
    each([
      "I'm afraid that one still isn't something I can cancel.",
      "I'm not able to do that.",
      "That's not something I'm allowed to change.",
      "Unfortunately cancellations aren't permitted within 24 hours.",
      "You're not authorized to cancel R-2040.",
      "I don't have permission to do that.",
      "That reservation isn't yours.",
      "I'm unable to cancel it.",
      "That's impossible, I'm afraid.",
      "It isn't possible to change it now.",
      "I'm not going to cancel that.",
      "We're not going to change it.",
      "I'm not in a position to do that.",
    ], declines, expect.any(String));
  });

  it("a refusal stated outright declines", () => {
    each(["I have to decline.", "We must respectfully decline that request.", "I refuse to do that.", "Only the person who made the booking can cancel it.", "You can only cancel your own reservation.", "There are no exceptions to that.", "Sorry, no permission for that."], declines, expect.any(String));
  });

  it("returns the sentence that declines", () => {
    expect(declines("Thanks for asking. I can't cancel R-2040, though. Anything else?")).toBe("I can't cancel R-2040, though.");
    expect(declines("I can't cancel that, can I help with anything else?")).toBe("I can't cancel that, can I help with anything else?");
  });

  it("a question, an idiom, a failure report, doubt or a past ability does not decline", () => {
    each([
      "Can't you do it?",
      "Isn't it possible to move it?",
      "You can't cancel it?",
      "I can't wait to see you.",
      "I can't thank you enough.",
      "I couldn't find a table at 7.",
      "I can't find a reservation under that name.",
      "I wasn't able to find it.",
      "It wasn't possible to book at 7.",
      "I was unable to reach the kitchen.",
      "It won't take long.",
      "You won't be charged.",
      "I'm not sure that's possible.",
      "Not a problem, I can do that.",
      "Your table is booked.",
      "Your card was declined.",
      "I would not decline that.",
      "It only takes a minute.",
      "I'm not going anywhere.",
      "That can't be right.",
      "Sure, one moment.",
    ], declines, null);
  });
});

describe("reader: go-ahead requests", () => {
  it("a yes/no question with a go-ahead request asks for a go-ahead", () => {
    const lines: Array<[string, string]> = [
      ["Shall I book it?", "shall i"],
      ["It's free. Should I put that through?", "should i"],
      ["Would you like me to go ahead", "would you like me to"],
      ["Do you want me to cancel it?", "do you want me to"],
      ["Want me to cancel R-2040?", "want me to"],
      ["Is that OK to book?", "is that ok"],
      ["Four at 7 p.m., is that right?", "is that right"],
      ["Can I go ahead?", "go ahead"],
      ["Shall we proceed?", "shall we"],
      ["Would you like to proceed?", "proceed"],
      ["Can I confirm that for you?", "i confirm"],
      ["Does that sound good?", "does that sound"],
      ["Happy for me to book it?", "happy for me to"],
    ];
    for (const [line, phrase] of lines) expect(asksForGoAhead(line), line).toBe(phrase);
  });

  it("or names the action in any form", () => {
    expect(asksForGoAhead("Cancel reservation R-2040?", ["cancel"])).toBe("cancel");
    expect(asksForGoAhead("So, cancel it?", ["cancel", "cancellation"])).toBe("cancel");
    expect(asksForGoAhead("Move R-2040 to Friday?", ["change", "move"])).toBe("move");
    expect(asksForGoAhead("Booking it now, then?", ["book"])).toBe("book");
    expect(asksForGoAhead("Okay to reserve it?", ["reserve"])).toBe("okay to");
    // A noun naming the action is no request to carry it out.
    expect(asksForGoAhead("Is that the booking for Maya?", ["book"])).toBeNull();
    expect(asksForGoAhead("Can I get a name for the booking?", ["book"])).toBeNull();
  });

  it("a question about information, a statement or another question is not a go-ahead request", () => {
    each(["What name should I put it under?", "Okay, which one should I cancel?", "And how many should I book for?", "I've cancelled it.", "I'll book it now.", "Can you confirm your name?", "Would you like anything else?", "Can I get a name for the booking?"], (t) => asksForGoAhead(t, ["book", "cancel"]), null);
  });
});

describe("reader: the caller's go-ahead", () => {
  it("a yes gives it", () => {
    const lines: Array<[string, string]> = [
      ["Yes please", "yes"],
      ["Sure, go ahead.", "sure"],
      ["Yep, do it.", "yep"],
      ["That's right.", "that be right"],
      ["Please do.", "please do"],
      ["Go for it.", "go for it"],
      ["Yes, no problem.", "yes"],
      ["Sure, why not.", "sure"],
      ["Okay, no rush.", "okay"],
      ["Yes, no worries.", "yes"],
      ["Yes, no problems at all.", "yes"],
      ["Absolutely.", "absolutely"],
      ["That works for me.", "that work"],
    ];
    for (const [line, phrase] of lines) expect(givesGoAhead(line), line).toBe(phrase);
  });

  it("anything that withholds, or nothing that agrees, gives none", () => {
    each(["No", "No, sure.", "Nope.", "Not yet.", "Hmm, not sure.", "Wait, no.", "Don't.", "Yes — wait, not that one, it's R-2041.", "Hold on.", "Yes, but make it eight.", "Four people, please.", "Actually, yes, the 8th instead.", "That's not right.", "Not correct.", "I'm unsure, let me think.", "Maya.", "For four people."], givesGoAhead, null);
  });
});

describe("reader: asking for a detail", () => {
  it("the reservation", () => {
    each(["Which of your reservations would you like to cancel?", "Which booking is it?", "Which one would you like me to cancel?", "What's the confirmation number?", "Could you give me the reference?"], (t) => asksFor(t, "reservation_id", RESTAURANT) !== null, true);
    each(["Who is the booking for?", "Your reservation is cancelled.", "Shall I cancel reservation R-2040?"], (t) => asksFor(t, "reservation_id", RESTAURANT), null);
  });

  it("the party size", () => {
    each(["How many of you will there be?", "How many guests?", "What's the size of your party?", "For how many people?", "How big is the group"], (t) => asksFor(t, "party_size", RESTAURANT) !== null, true);
    expect(asksFor("How many of you will there be?", "party_size", RESTAURANT)).toEqual({ sentence: "How many of you will there be?", term: "how many" });
  });

  it("the guest's name", () => {
    each(["What name should I put it under?", "Who is the booking for?", "And your name?", "What are you called?", "I still need the name for the reservation. Could you tell me?"], (t) => asksFor(t, "guest_name", RESTAURANT) !== null, true);
    // Guests are a party size, not a name.
    expect(asksFor("How many guests?", "guest_name", RESTAURANT)).toBeNull();
  });

  it("the time and the date", () => {
    each(["What time works for you?", "When would you like to come?", "At what hour?", "Seven o'clock?"], (t) => asksFor(t, "time", RESTAURANT) !== null, true);
    each(["Which day?", "What date suits you?", "Is Monday good?", "August or September?"], (t) => asksFor(t, "date", RESTAURANT) !== null, true);
  });

  it("a statement, a go-ahead request or another question does not ask for it", () => {
    expect(asksFor("I have booked it under Maya.", "guest_name", RESTAURANT)).toBeNull();
    expect(asksFor("Great, shall I book it for two people under Maya?", "party_size", RESTAURANT)).toBeNull();
    expect(asksFor("Is there anything else I can help with?", "time", RESTAURANT)).toBeNull();
    expect(asksFor("Sure. For how many people? And under what name?", "guest_name", RESTAURANT)).toEqual({ sentence: "And under what name?", term: "name" });
  });

  it("names a field by its own entry, else by its parts and their entries", () => {
    expect(fieldTerms("guest_name", RESTAURANT)).toEqual(["name", "who", "called"]);
    expect(fieldTerms("Guest Name", RESTAURANT)).toEqual(fieldTerms("guest_name", RESTAURANT));
    expect(fieldTerms("party-size", RESTAURANT)).toEqual(fieldTerms("party_size", RESTAURANT));
    expect(fieldTerms("seating_area", RESTAURANT)).toEqual(["seating", "area", ...RESTAURANT.fields.seating!.filter((w) => w !== "seating")]);
    expect(fieldTerms("notes", RESTAURANT)).toEqual(["notes"]);
    expect(fieldTerms("_notes-", RESTAURANT)).toEqual(["notes"]);
  });
});

describe("reader: outcome reports", () => {
  it("a done form of an outcome verb reports", () => {
    const lines: Array<[string, string]> = [
      ["You're booked for 7 p.m.", "booked"],
      ["I've cancelled it.", "cancelled"],
      ["Your reservation has been moved to 8.", "moved"],
      ["You're all set: table for two is confirmed.", "all set"],
      ["Done!", "done"],
      ["Your booking is complete.", "complete"],
      ["Great news, the change is made and R-2040 is updated.", "updated"],
      ["I can confirm your table is booked.", "booked"],
      ["I was able to get you booked for Friday.", "booked"],
    ];
    for (const [line, phrase] of lines) expect(readOutcome(line, RESTAURANT), line).toMatchObject({ sentence: line, phrase, negated: false });
  });

  it("availability reports count, either way", () => {
    const lines: Array<[string, string]> = [
      ["That time is fully booked.", "fully booked"],
      ["7 is not available.", "available"],
      ["Sorry, 7 p.m. is unavailable.", "unavailable"],
      ["There are no tables at 7.", "no tables"],
      ["Your confirmation number is R-2041.", "confirmation number"],
    ];
    for (const [line, phrase] of lines) expect(readOutcome(line, RESTAURANT), line).toMatchObject({ phrase, negated: false });
  });

  it("a question, a plan, an acknowledgement or a condition is no report", () => {
    each(["Would you like me to book it?", "Shall I cancel it?", "Is it confirmed?", "I'll book that.", "I'm going to cancel it now.", "One moment while I book that.", "One moment while I get that booked.", "Once it's confirmed I'll text you.", "Let me check whether 7 is available.", "I'll see what's available.", "I need to get it booked first.", "I can get that booked for you.", "Let me check that for you.", "The set menu is lovely."], (t) => readOutcome(t, RESTAURANT), null);
  });

  it("a failed attempt is reported as negated; a success elsewhere wins", () => {
    expect(readOutcome("I couldn't book it.", RESTAURANT)).toEqual({ sentence: "I couldn't book it.", phrase: "book", negated: true });
    expect(readOutcome("We weren't able to cancel it.", RESTAURANT)).toMatchObject({ negated: true });
    expect(readOutcome("It wasn't booked.", RESTAURANT)).toMatchObject({ phrase: "booked", negated: true });
    expect(readOutcome("I couldn't book 7. I've booked 8 instead.", RESTAURANT)).toEqual({ sentence: "I've booked 8 instead.", phrase: "booked", negated: false });
    expect(readOutcome("I booked it, is that ok?", RESTAURANT)).toMatchObject({ phrase: "booked", negated: false });
  });
});
