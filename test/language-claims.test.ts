import { describe, expect, it } from "vitest";
import { readClaims, toolOutcome } from "../src/core/language/claims";

const kinds = (text: string) => readClaims(text).map((c) => c.kind);

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
    expect(kinds("Anything else? Your table is booked.")).toEqual(["booked"]);
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
    expect([toolOutcome("reservationCancel"), toolOutcome("bookingUpdate"), toolOutcome("guestReservationCreate")]).toEqual(["cancelled", "changed", "booked"]);
    expect([toolOutcome("bookTable"), toolOutcome("cancelBooking"), toolOutcome("getReservation")]).toEqual(["booked", "cancelled", null]);
  });

  it("a word that begins with an action names it", () => {
    expect([toolOutcome("request_cancellation"), toolOutcome("submitAmendment"), toolOutcome("booking_request")]).toEqual(["cancelled", "changed", "booked"]);
  });

  it("a name without letters, or without an action, backs no kind", () => {
    expect([toolOutcome(""), toolOutcome("__42"), toolOutcome("check_availability"), toolOutcome("lookupHours")]).toEqual([null, null, null, null]);
  });
});
