import { describe, expect, it } from "vitest";
import { readClaims } from "../src/core/language/claims";
import { toolOutcome as outcomeOf } from "../src/core/language/vocabulary";
import { RESTAURANT } from "./restaurant-lexicon";

const kinds = (text: string) => readClaims(text, RESTAURANT).map((c) => c.kind);
const toolOutcome = (name: string) => outcomeOf(RESTAURANT, name);

describe("where a claim is", () => {
  it("is the clause that makes it, with its span in the text", () => {
    expect(readClaims("Done — it's booked.", RESTAURANT)).toEqual([{ kind: "created", word: "booked", text: "it's booked", start: 7, end: 18 }]);
    expect(readClaims("Not a problem - your table is booked.", RESTAURANT)).toEqual([{ kind: "created", word: "booked", text: "your table is booked", start: 16, end: 36 }]);
  });

  it("a spaced hyphen ends a clause like a dash, so a leading 'not a problem' or 'no worries' negates nothing", () => {
    expect(kinds("Not a problem - your table is booked.")).toEqual(["created"]);
    expect(kinds("No worries - it's cancelled.")).toEqual(["cancelled"]);
  });

  it("'and', 'but' and 'so' start a new clause: each action is its own claim, a failure does not negate what follows", () => {
    expect(kinds("I've cancelled the old reservation and booked the new one.")).toEqual(["cancelled", "created"]);
    expect(kinds("I couldn't get you 7 but you're booked for 7:30.")).toEqual(["created"]);
    expect(kinds("Nothing was free at 7 so I booked 8 p.m. instead.")).toEqual(["created"]);
    expect(kinds("And it's booked.")).toEqual(["created"]);
  });
});

describe("questions", () => {
  it("a question claims nothing, whatever word it ends on", () => {
    expect(kinds("Has your reservation been cancelled?")).toEqual([]);
    expect(kinds("Is the table booked for 7 p.m.?")).toEqual([]);
    // The "?" follows a contraction's unwritten half ("wasn't" is read as "was" + "not").
    expect(kinds("Has your reservation been cancelled, or would you rather it wasn't?")).toEqual([]);
    expect(kinds("Has your booking been moved to Friday, or do you think it hasn't?")).toEqual([]);
  });

  it("a statement after a question still claims", () => {
    expect(kinds("Has your reservation been cancelled? Yes, it has been cancelled.")).toEqual(["cancelled"]);
    expect(kinds("Anything else? Your table is booked.")).toEqual(["created"]);
  });
});

describe("what counts as an accomplished action", () => {
  it.each([
    ["I've modified your reservation.", "updated"],
    ["The booking has been modified.", "updated"],
    ["I've updated your booking to four people.", "updated"],
    ["Your reservation has been updated.", "updated"],
    ["I've switched your table to the patio.", "updated"],
    ["We got it switched to the patio.", "updated"],
  ])("%s claims %s", (text, kind) => {
    expect(kinds(text)).toEqual([kind]);
  });

  it.each([
    // compromise reads these as adjectives and gives them no lemma.
    ["Your reservation is canceled.", "cancelled"],
    ["The booking is cancelled.", "cancelled"],
    ["Your table is booked.", "created"],
    ["Your reservation is rescheduled.", "updated"],
  ])("an adjectival past form claims its action: %s", (text, kind) => {
    expect(kinds(text)).toEqual([kind]);
  });

  it.each([
    "Any changes to your booking are free of charge.",
    "The host usually books the patio for large groups.",
    "Maya often cancels her bookings at the last minute.",
  ])("a present tense or a noun is no accomplishment: %s", (text) => {
    expect(kinds(text)).toEqual([]);
  });

  it.each(["We'll have it booked by tonight.", "It'll be cancelled in a moment.", "Your table'll be reserved by noon."])("a promise whose modal is a contraction ('ll) is an intention: %s", (text) => {
    expect(kinds(text)).toEqual([]);
  });

  it.each(["It isnt booked yet.", "Your booking wasnt cancelled."])("a negation written without its apostrophe still negates: %s", (text) => {
    expect(kinds(text)).toEqual([]);
  });

  it.each(["We're booked up that night.", "Friday is booked solid.", "We are booked solid on Friday."])("'booked up' and 'booked solid' are a full slot, not a booking: %s", (text) => {
    expect(kinds(text)).toEqual([]);
  });
});

describe("claims that name no action", () => {
  it("'taken care of' claims, when a record is mentioned", () => {
    expect(kinds("Your reservation is all taken care of.")).toEqual(["any"]);
    expect(kinds("That's all taken care of for your table.")).toEqual(["any"]);
    expect(kinds("I've taken care of it.")).toEqual([]);
  });

  it.each(["I'm sorry, that table is taken.", "That seat is taken.", "Our staff takes great care with every booking."])("'taken' alone, or another word before 'care', claims nothing: %s", (text) => {
    expect(kinds(text)).toEqual([]);
  });

  it("'all set' claims when the text mentions a record, seating included", () => {
    expect(kinds("You're all set: we'll have you seated by the window.")).toEqual(["any"]);
    expect(kinds("We're all set with your booking.")).toEqual(["any"]);
    expect(kinds("Okay, you're all set. Have a good evening!")).toEqual([]);
  });

  it.each(["The patio tables are set aside for groups of eight.", "Just so you know: set menus are served on Fridays."])("'set' without 'all' claims nothing: %s", (text) => {
    expect(kinds(text)).toEqual([]);
  });

  it.each([
    ["Your reservation has been confirmed.", ["any"]],
    ["Your booking has been confirmed for Friday.", ["any"]],
    // The copula is only in compromise's tag of the contraction "you're".
    ["The table you're confirmed for is by the window.", ["any"]],
    ["With this booking you're confirmed for two at 7 p.m.", ["any"]],
    // A clitic written apart, as some transcripts do.
    ["Your reservation 's confirmed.", ["any"]],
    ["Your reservations 're confirmed.", ["any"]],
    // No form of "be": the record was a topic, not what got confirmed.
    ["For a table of six I confirmed availability with our manager.", []],
    ["For your booking I confirmed the menu with our chef.", []],
  ])("'confirmed' claims after a record and a form of 'be': %s", (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });

  it.each([
    ["The booking is yours.", "any"],
    ["The tables are yours.", "any"],
    ["Both seats are yours.", "any"],
    ["The seat by the window is yours.", "any"],
    ["Your seat is confirmed.", "any"],
    ["Your seats are confirmed for 7 p.m.", "any"],
    ["Your reservations are confirmed.", "any"],
    ["Your bookings were confirmed.", "any"],
  ])("every record noun, singular or plural, is a record: %s", (text, kind) => {
    expect(kinds(text)).toEqual([kind]);
  });

  it.each([
    ["You're now on the booking for Friday.", ["any"]],
    ["Your booking is now in seat 4.", ["any"]],
    ["You are now booked.", ["created"]],
    // No record after "now", no form of "be" before it, or not yet: no claim.
    ["You're now speaking with the desk.", []],
    ["Now the booking can be changed.", []],
    ["You will now be on the booking for Friday.", []],
    ["You're not now on the booking.", []],
  ])("a state the record is now in is a claim that names no action: %s", (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });
});

describe("record ids", () => {
  it("an id is one word, never the letters left without its digits", () => {
    // "R-E58827" would leave "re" (a copula), "NO-4821" "no" (a negation), "TO-2040" "to" (an intention).
    expect(kinds("Reservation R-E58827 confirmed.")).toEqual(kinds("Reservation R-758827 confirmed."));
    expect(kinds("Reservation R-E58827 confirmed.")).toEqual([]);
    expect(kinds("Reservation NO-4821 is cancelled.")).toEqual(["cancelled"]);
    expect(kinds("Reservation TO-2040 is cancelled.")).toEqual(["cancelled"]);
  });
});

describe("tool names", () => {
  it("reads the words of a camelCase name wherever the action sits", () => {
    expect([toolOutcome("reservationCancel"), toolOutcome("bookingUpdate"), toolOutcome("guestReservationCreate")]).toEqual(["cancelled", "updated", "created"]);
    expect([toolOutcome("bookTable"), toolOutcome("cancelBooking"), toolOutcome("getReservation")]).toEqual(["created", "cancelled", null]);
  });

  it("a word that begins with an action names it", () => {
    expect([toolOutcome("request_cancellation"), toolOutcome("submitAmendment"), toolOutcome("booking_request")]).toEqual(["cancelled", "updated", "created"]);
  });

  it("a name without letters, or without an action, backs no kind", () => {
    expect([toolOutcome(""), toolOutcome("__42"), toolOutcome("check_availability"), toolOutcome("lookupHours")]).toEqual([null, null, null, null]);
  });
});
