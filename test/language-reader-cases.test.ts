/**
 * The English reader, case by case: every word of its lists and every turn of its rules, each shown by a
 * line an assistant or a caller could say and the reading it must get. Transcripts often lose their
 * punctuation, so many lines have no "?" or comma on purpose.
 */
import { describe, expect, it } from "vitest";
import { asksFor, asksForGoAhead, declines, fieldTerms, givesGoAhead, isQuestion, lemmas, mentionedIn, mentions, read, readOutcome } from "../src/core/language/reader";
import { RESTAURANT } from "./restaurant-lexicon";

/** Every line in `lines` gives `expected`. */
function each<T>(lines: readonly string[], f: (line: string) => T, expected: T) {
  for (const line of lines) expect(f(line), line).toEqual(expected);
}

describe("reader cases: sentences and clauses", () => {
  it("a clause end at the end of a sentence leaves no empty clause", () => {
    const reading = read("We have a table for four (on the patio)");
    expect(reading.sentences[0]!.clauses.map((c) => c.map((w) => w.word).join(" "))).toEqual(["we have a table for four", "on the patio"]);
    expect(read("Maya, party of four, 7 p.m. —").sentences[0]!.clauses.map((c) => c.length)).toEqual([1, 3, 2]);
    // Every reader copes with it.
    expect(isQuestion("We have a table for four (on the patio)")).toBe(false);
    expect(declines("We have a table for four (on the patio)")).toBeNull();
    expect(readOutcome("Your table for four is booked (on the patio)", RESTAURANT)).toMatchObject({ phrase: "booked", negated: false });
  });

  it("every form of 'be' reads as be", () => {
    const words = read("It has been booked and they are being seated, be there by seven.").words;
    expect(words.filter((w) => ["been", "are", "being", "be"].includes(w.word)).map((w) => `${w.word}/${w.lemma}`)).toEqual(["been/be", "are/be", "being/be", "be/be"]);
    expect(lemmas("Was it booked? Were they seated? I am here, is it you?").filter((l) => l === "be")).toHaveLength(4);
  });
});

describe("reader cases: questions without a '?'", () => {
  it("opening words do not stop a question", () => {
    each([
      "And would you like the patio",
      "So would you like a high chair",
      "Okay would that be for two",
      "Ok would you like the patio",
      "Alright can I take a name",
      "Great is there anything else",
      "Sure is that for tonight",
      "Perfect shall I put it under Maya",
      "Then would seven work",
      "Also do you need a high chair",
      "Now would you like any drinks",
      "Well do you have a preference",
      "Oh is it a birthday",
      "Um could I get a name for that",
      "Uh which name is it under",
      "Lastly would you like dessert",
      "Finally is there a dietary requirement",
      "But would eight work instead",
      "Or would you prefer the bar",
      "Lovely which day suits you",
      "Wonderful when would you like to come",
      "Excellent how many will there be",
      "Right is that everything",
      "Please would you spell the surname",
      "First could you spell the surname",
    ], isQuestion, true);
  });

  it("every question word opens a question", () => {
    each([
      "What time works for you",
      "Which day suits you",
      "When would you like to come",
      "Where would you like to sit",
      "Who is the booking for",
      "Whom should I put it under",
      "Whose name is it under",
      "How many of you are coming",
      "Why don't we try eight",
    ], isQuestion, true);
  });

  it("every auxiliary before its subject asks: a pronoun, 'there', a determiner, a noun or a number", () => {
    each([
      "Do you have a booking with us",
      "Does eight work for you",
      "Did you book online",
      "Is dinner at seven",
      "Are there any allergies",
      "Am I speaking to Maya",
      "Was it under Maya",
      "Were you hoping for seven",
      "Will you need a high chair",
      "Would you like the patio",
      "Can you hear me",
      "Could the party be smaller",
      "Shall I put it under Maya",
      "Should I put it under Maya",
      "May I have your name",
      "Might that suit you",
      "Have you dined with us before",
      "Has she booked with us before",
    ], isQuestion, true);
  });

  it("an auxiliary before an object or a noun phrase opens a statement", () => {
    each([
      "Do me a favour and hold the line.",
      "Have us call you back tomorrow.",
      "Have him call us when he lands.",
      "Have them ask for Maya at the door.",
      // "Has" asks only before a pronoun ("Has she booked…"): here the subject is left out.
      "Has a lovely view of the garden, that table.",
      "Has a private room upstairs, the Soho branch.",
    ], isQuestion, false);
  });

  it("a question word followed by its own subject, or by 'a'/'an', does not ask", () => {
    each(["When they arrive, ask for Maya.", "When he arrives, ask for Maya.", "When she arrives, ask for Maya.", "When we open, we seat walk-ins first.", "When I hear back, I'll call you.", "What an absolute pleasure.", "What a lovely evening."], isQuestion, false);
  });

  it("after a comma 'what' and 'how' still ask; a relative clause does not, whatever came before it", () => {
    each(["I have seven, what about eight", "There's room at seven, what time suits best", "We can fit you in tonight, how many of you", "We have space, how many are coming"], isQuestion, true);
    each(["I've put you on the patio now, which is heated.", "Your table is by the window now, which has the best view."], isQuestion, false);
  });

  it("every request for information asks", () => {
    each(["Tell us your arrival time", "Give us a number to call back", "Please provide the card number", "Share the reservation code with me"], isQuestion, true);
  });

  it("a stated need asks, whatever stands between the speaker and 'need'", () => {
    each([
      "I would need your name",
      "I only need the date",
      "I first need your name",
      "I'll then need the time",
      "I do need your name",
      "I'm going to need the date",
      "We're going to need a time",
      "I need to get your number",
      "I need to ask your name",
      "I need to take your phone number",
      "We need a time",
    ], isQuestion, true);
  });

  it("a line cut off mid-sentence (the caller barged in) does not ask", () => {
    each(["Okay, let me", "Sure, I need to"], isQuestion, false);
  });

  it("a text asks when any of its sentences does", () => {
    expect(isQuestion("I can do seven. What time suits?")).toBe(true);
    expect(isQuestion("Noted. I still need the name")).toBe(true);
    expect(isQuestion("Noted. Thanks.")).toBe(false);
  });
});

describe("reader cases: terms", () => {
  it("a short word is not cut down to a stem another word shares", () => {
    expect(mentions("Will that be all?", ["bed"], "derived")).toBeNull();
    expect(mentions("Shall I add an extra bed?", ["bed"], "derived")).toBe("bed");
  });

  it("only a doubled consonant at the end of a stem is single ('cancell…' is cancel); inside a word it stays", () => {
    expect(mentions("Dinner is at seven.", ["diner"], "derived")).toBeNull();
    expect(mentions("The diners are seated.", ["diner"], "derived")).toBe("diner");
    expect(mentions("The cancellation is done.", ["cancel"], "derived")).toBe("cancel");
  });

  it("the words of a read sentence match by lemma unless told otherwise", () => {
    const words = read("Which of your reservations?").sentences[0]!.words;
    expect(mentionedIn(words, ["reservation"])).toBe("reservation");
    expect(mentionedIn(words, ["reservation"], "exact")).toBeNull();
    expect(mentionedIn(words, ["reservations"], "exact")).toBe("reservations");
  });
});

describe("reader cases: refusals", () => {
  it("an idiom or a failure to find, see or hear does not decline, softened or not", () => {
    each([
      "I can't believe it's been a year already.",
      "I can't locate a booking under that name.",
      "I can't see a booking under that name.",
      "Sorry, I can't hear you very well.",
      "I can't recall the exact time.",
      "I can't remember the code offhand.",
      "You can't miss it, it's right by the station.",
      "I can't understand the line, it's breaking up.",
      "I can't seem to find it.",
      "I can't stress enough how busy Fridays are.",
      "I can't emphasize that enough.",
      "I can't imagine a better night for it.",
      "I can't resist the dessert menu either.",
      "I can't really remember the time.",
      "I can't just find another table.",
      "I can't possibly thank you enough.",
      "I can't actually find it.",
      "I can't even see it on the system.",
      "I can't quite hear you.",
      "I can't currently see a booking under that name.",
      "I can't personally recall that booking.",
    ], declines, null);
  });

  it("a bare 'can't', or one after an adverb, declines", () => {
    each(["Sorry, I can't.", "We simply can't do that.", "I just can't change it.", "Sorry, we can't tonight.", "Sorry, we can't Saturday."], declines, expect.any(String));
    each(["Yes, we can.", "We will."], declines, null);
  });

  it("every word of permission declines when negated, 'never' too", () => {
    each([
      "I'm not authorised to do that.",
      "You're not entitled to a refund on that booking.",
      "I don't have the authority to cancel it.",
      "I'm never allowed to give out a guest's number.",
      "We're never permitted to hold tables past eight.",
      "That's not something we can change.",
      "That's not something that we're allowed to change.",
      "That's not something that I'm allowed to do.",
      "There's no exception for that.",
      "There's no authority for that.",
    ], declines, expect.any(String));
  });

  it("inability in the present declines; in the past it is a failure report", () => {
    each([
      "Unable to cancel that one, I'm afraid.",
      "Because it was prepaid we are unable to refund it.",
      "As it was prepaid I'd be unable to refund it.",
      "Unable to do that as it was prepaid.",
      "Unable to change it since it was booked online.",
    ], declines, expect.any(String));
    each([
      "It was simply impossible to book at seven.",
      "I was truly unable to reach the kitchen.",
      "I hadn't been able to reach the kitchen.",
      "I had never been able to get through to them.",
      "It didn't seem possible at first.",
      "Honestly, you wouldn't be able to tell the difference.",
    ], declines, null);
  });

  it("doubt, reassurance or a negation far from any permission does not decline", () => {
    each([
      "I'm not certain that's possible",
      "It's not only possible but easy",
      "Not a problem we can do that",
      "Don't worry we're able to fit you in",
      "It's not busy tonight so you'll be able to choose any table.",
      "It's not busy tonight so we have plenty of tables.",
      "That's not something I",
      "It's not a table we",
    ], declines, null);
  });

  it("'not going to' declines only for the speaker", () => {
    each(["It's not going to take long.", "They're not going to charge you.", "I wasn't going to charge you for that.", "We're not in any rush, take your time."], declines, null);
  });

  it("'decline' is the speaker's, and 'only' restricts who may act", () => {
    expect(declines("I'm afraid we must decline as we don't take parties over twelve.")).toBe("I'm afraid we must decline as we don't take parties over twelve.");
    each(["The bank declined the card we had on file.", "They declined the offer I made."], declines, null);
    each(["Only the person who made the booking may cancel it.", "Only guests who booked online may change it here.", "Only the guest can cancel it.", "Only the account holder can change it."], declines, expect.any(String));
    each(["I can do that and it only takes a minute.", "We can seat you now and it's only a short wait."], declines, null);
  });

  it("a question after a statement does not decline", () => {
    expect(declines("Sure, we can fit you in, when?")).toBeNull();
  });
});

describe("reader cases: go-aheads", () => {
  it("an action named by a derived word after an opening marker asks for a go-ahead; a noun further on does not", () => {
    expect(asksForGoAhead("Okay, so rebooking for eight?", ["rebook"])).toBe("rebook");
    expect(asksForGoAhead("Right, so cancellation for R-2040?", ["cancel"])).toBe("cancel");
    expect(asksForGoAhead("Okay, so the booking for eight?", ["book"])).toBeNull();
  });

  it("a caller's agreeing negation at the start is no withholding", () => {
    expect(givesGoAhead("No problem, go ahead.")).toBe("go ahead");
    expect(givesGoAhead("Not a problem, do it.")).toBe("do it");
  });

  it("a withholding word right after an agreeing negation still withholds", () => {
    expect(givesGoAhead("Sure, why not. Hold on.")).toBeNull();
    expect(givesGoAhead("Okay, no rush. Wait, the 8th.")).toBeNull();
  });

  it("withholding words count only as said: 'I meant' is no 'I mean'", () => {
    expect(givesGoAhead("Yes, that's what I meant.")).toBe("yes");
    expect(givesGoAhead("Yep, that's the one I meant.")).toBe("yep");
    expect(givesGoAhead("Yes, I mean no.")).toBeNull();
  });
});

describe("reader cases: asking for a detail", () => {
  it("a question word after a statement asks for its detail", () => {
    expect(asksFor("Lovely, we can fit you in, when?", "time", RESTAURANT)).toEqual({ sentence: "Lovely, we can fit you in, when?", term: "when" });
    expect(asksFor("Great, we have tables free, when?", "time", RESTAURANT)).toEqual({ sentence: "Great, we have tables free, when?", term: "when" });
  });

  it("a field written with spaced punctuation names the same detail", () => {
    expect(fieldTerms("Party - Size", RESTAURANT)).toEqual(fieldTerms("party_size", RESTAURANT));
    expect(fieldTerms("guest  name", RESTAURANT)).toEqual(["name", "who", "called"]);
  });
});

describe("reader cases: outcome reports", () => {
  it("every outcome verb reports when said as done", () => {
    const lines: Array<[string, string]> = [
      ["It's reserved for you.", "reserved"],
      ["I've confirmed the table.", "confirmed"],
      ["The booking was created.", "created"],
      ["It's scheduled for Friday.", "scheduled"],
      ["I've changed it to eight.", "changed"],
      ["I've modified the booking.", "modified"],
      ["We've secured a table.", "secured"],
      ["I've arranged a cake.", "arranged"],
      ["It was done quickly.", "done"],
      ["The change was done quickly.", "done"],
      // An adjective without a lemma counts by its stem.
      ["Your booking is moved.", "moved"],
      ["Your reservation is moved.", "moved"],
      ["No availability at 7.", "no availability"],
      ["Your booking reference is R-2041.", "booking reference"],
    ];
    for (const [line, phrase] of lines) expect(readOutcome(line, RESTAURANT), line).toEqual({ sentence: line, phrase, negated: false });
  });

  it("a plan, a condition, a possibility or a wish before the outcome word is no report", () => {
    each([
      "We shall have it confirmed by noon.",
      "It would be booked under Maya.",
      "It could be cancelled if you're late.",
      "It can be booked online.",
      "It should be confirmed by tomorrow.",
      "It may be fully booked by then.",
      "It might get cancelled.",
      "Let's get it booked.",
      "After it's booked, I'll text you.",
      "Before it's cancelled, let me check.",
      "Until it's confirmed, the table is on hold.",
      "When you're booked, you'll get a text.",
      "We text you when it's confirmed.",
      "Whenever it's confirmed, you'll get a text.",
      "If it's booked, you'll get a text.",
      "I'm checking whether it's booked.",
      "As soon as it's confirmed, I'll text you.",
      "So you want it cancelled.",
      "We like to have bookings confirmed a day ahead.",
      "We try to get bookings confirmed the same day.",
      "You need it confirmed by Friday.",
      "I'm going to get that booked for you.",
    ], (t) => readOutcome(t, RESTAURANT), null);
  });

  it("only the words before the outcome word make it a plan", () => {
    expect(readOutcome("Your table is booked so you can relax.", RESTAURANT)).toMatchObject({ phrase: "booked", negated: false });
    expect(readOutcome("It's booked so you can come any time.", RESTAURANT)).toMatchObject({ phrase: "booked", negated: false });
  });

  it("'set' reports only as 'all set'", () => {
    each(["Set menus start at forty pounds.", "Set lunch is served from noon.", "Your table is set."], (t) => readOutcome(t, RESTAURANT), null);
  });

  it("a present or 'never' negation reports a failure", () => {
    expect(readOutcome("Your table isn't confirmed yet.", RESTAURANT)).toEqual({ sentence: "Your table isn't confirmed yet.", phrase: "confirmed", negated: true });
    expect(readOutcome("The change isn't booked yet.", RESTAURANT)).toMatchObject({ phrase: "booked", negated: true });
    expect(readOutcome("It was never booked.", RESTAURANT)).toEqual({ sentence: "It was never booked.", phrase: "booked", negated: true });
    expect(readOutcome("That booking was never confirmed.", RESTAURANT)).toMatchObject({ phrase: "confirmed", negated: true });
  });

  it("a question, with or without its '?', reports nothing", () => {
    each(["Is the table booked", "Was it cancelled in the end", "So it's cancelled?", "You're booked for seven?"], (t) => readOutcome(t, RESTAURANT), null);
  });
});
