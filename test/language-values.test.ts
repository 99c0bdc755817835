import { describe, expect, it } from "vitest";
import { emptyEvidence, evidenceValues, inEvidence, nameWord, numbersAsDigits, readValues, sameValue, startsSentence, structuredValue, type EvidenceValues, type SpokenValue } from "../src/core/language/values";
import { lexiconOf } from "../src/core/language/vocabulary";
import { RESTAURANT } from "./restaurant-lexicon";

/**
 * The values a line states, as grounding compares them: each kind read from the phrasings an assistant
 * uses, the words that make a number no value, and what JSON evidence holds. A value is shown as
 * `kind:reading/reading [the words]`.
 */

const values = (text: string, year: number | null = 2026) =>
  readValues(text, { ...(year === null ? {} : { year }), lexicon: RESTAURANT }).map((v) => `${v.kind}:${v.readings.join("/")} [${v.text}]`);

/** What evidence holds, by kind, sorted (and its words), for comparing whole. */
const held = (evidence: EvidenceValues) => ({
  ...Object.fromEntries([...evidence.values].map(([kind, set]) => [kind, [...set].sort()])),
  words: [...evidence.words].sort(),
});

const spoken = (text: string): SpokenValue => {
  const [v, ...rest] = readValues(text, { year: 2026, lexicon: RESTAURANT });
  expect(rest, text).toEqual([]);
  return v!;
};

describe("times", () => {
  it.each([
    ["Your table is at 8pm.", "time:20:00 [8pm]"],
    ["Your table is at 8:45pm.", "time:20:45 [8:45pm]"],
    ["Breakfast from 8am.", "time:08:00 [8am]"],
    ["Your table is at 8p.m.", "time:20:00 [8p.m]"],
    ["See you at 12pm.", "time:12:00 [12pm]"],
    ["See you at 1pm.", "time:13:00 [1pm]"],
    ["See you at 1 p.m.", "time:13:00 [1 p.m.]"],
    ["See you at 12:59pm.", "time:12:59 [12:59pm]"],
    ["See you at 7 p.m. tonight.", "time:19:00 [7 p.m.]"],
    ["See you at 12 am.", "time:00:00 [12 am]"],
    ["See you at 12 pm.", "time:12:00 [12 pm]"],
    ["Last seating is 9:15 p.m.", "time:21:15 [9:15 p.m.]"],
    ["We open at 7:05 a.m.", "time:07:05 [7:05 a.m.]"],
  ])("a meridiem fixes the half of the day: %s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it.each(["We close at 0pm.", "We close at 13pm.", "We close at 12:75pm.", "We close at 11:60pm.", "We close at 13 pm.", "We close at 23 pm."])("no time in an hour no clock has: %s", (text) => {
    expect(values(text)).toEqual([]);
  });

  it.each([
    ["It's at midnight.", "time:00:00 [midnight]"],
    ["It's at noon.", "time:12:00 [noon]"],
    ["Lunch is served at midday.", "time:12:00 [midday]"],
  ])("noon and midnight: %s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it.each([
    ["Your table is at quarter past seven.", "time:19:15/07:15 [quarter past seven]"],
    ["Your table is at quarter past one pm.", "time:13:15 [quarter past one pm]"],
    ["Your table is at quarter to eight.", "time:19:45/07:45 [quarter to eight]"],
    ["Your table is at quarter to one.", "time:12:45 [quarter to one]"],
    ["Your table is at quarter to 1 in the afternoon.", "time:12:45 [quarter to 1 in the afternoon]"],
    ["Your table is at half past twelve.", "time:12:30 [half past twelve]"],
    ["Your table is at half past 6 in the evening.", "time:18:30 [half past 6 in the evening]"],
    ["Your table is at quarter past twelve.", "time:12:15 [quarter past twelve]"],
  ])("quarter and half hours: %s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it("no quarter hour past an hour no clock has", () => {
    expect(values("It's at quarter past 13.")).toEqual(["time:13:00 [13]"]);
    expect(values("It's at half past thirteen.")).toEqual(["time:13:00 [thirteen]"]);
    expect(values("It's a quarter past the hour.")).toEqual([]);
    expect(values("Half the tables are free, a quarter more than yesterday.")).toEqual([]);
  });

  it.each([
    ["We open at 07:30.", "time:07:30 [07:30]"],
    ["We open at 00:30.", "time:00:30 [00:30]"],
    ["We open at 7:30.", "time:19:30/07:30 [7:30]"],
    ["We open at 10:30.", "time:22:30/10:30 [10:30]"],
    ["We're open from 0:30.", "time:00:30 [0:30]"],
    ["We close at 23:59.", "time:23:59 [23:59]"],
    ["We close at 12:15.", "time:12:15 [12:15]"],
    ["We close at 13:00 pm.", "time:13:00 [13:00 pm]"],
    ["We close at 10:00 pm.", "time:22:00 [10:00 pm]"],
  ])("clock forms: %s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it.each(["We close at 24:00.", "We close at 22:60.", "The score was 3:1 to us."])("no time in a clock form out of range: %s", (text) => {
    expect(values(text).filter((v) => v.startsWith("time"))).toEqual([]);
  });

  it.each([
    ["How about at seven thirty?", "time:19:30/07:30 [seven thirty]"],
    ["How about at seven twenty five?", "time:19:25/07:25 [seven twenty five]"],
    ["How about at seven oh five?", "time:19:05/07:05 [seven oh five]"],
    ["How about at seven o five?", "time:19:05/07:05 [seven o five]"],
    ["How about at seven oh one?", "time:19:01/07:01 [seven oh one]"],
    ["How about at seven oh nine?", "time:19:09/07:09 [seven oh nine]"],
    ["How about at seven ten?", "time:19:10/07:10 [seven ten]"],
    ["How about seven oh five pm?", "time:19:05 [seven oh five pm]"],
    ["How about at twelve fifteen?", "time:12:15 [twelve fifteen]"],
    ["How about at 12 thirty?", "time:12:30 [12 thirty]"],
    ["How about seven fifteen pm?", "time:19:15 [seven fifteen pm]"],
    ["How about 9 forty in the morning?", "time:09:40 [9 forty in the morning]"],
    ["How about ten fifty-nine at night?", "time:22:59 [ten fifty-nine at night]"],
  ])("minutes said after the hour: %s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it("minutes need words: digits after a spoken hour, or 'oh' before a digit, are not its minutes", () => {
    expect(values("How about at seven oh 5?")).toEqual([]);
    expect(values("How about at 13 thirty?")).toEqual([]);
    expect(values("How about at seven nine?")).toEqual([]);
    expect(values("How about at seven sixty?")).toEqual([]);
    expect(values("How about at seven oh ten?")).toEqual([]);
    expect(values("How about at 7 45?")).toEqual([]);
  });

  it.each([
    ["We close at 7 in the afternoon.", "time:19:00 [7 in the afternoon]"],
    ["We open at 7 in the morning.", "time:07:00 [7 in the morning]"],
    ["We close at 11 at night.", "time:23:00 [11 at night]"],
    ["We close at 11 in the night.", "time:23:00 [11 in the night]"],
    ["See you at 7 tonight.", "time:19:00 [7 tonight]"],
    ["See you at seven o'clock tonight.", "time:19:00 [seven o'clock tonight]"],
    ["See you 8 oclock.", "time:20:00/08:00 [8 oclock]"],
    ["See you at 8 o'clock.", "time:20:00/08:00 [8 o'clock]"],
  ])("a part of the day or o'clock after the hour: %s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it.each([
    ["How about at 8, then?", "time:20:00/08:00 [8]"],
    ["How about at 8", "time:20:00/08:00 [8]"],
    ["We open at 10 weekends.", "time:22:00/10:00 [10]"],
    ["How about around 8 Friday?", "time:20:00/08:00 [8]"],
    ["Would at 8 tomorrow suit you?", "time:20:00/08:00 [8]"],
    ["We have at 8 instead.", "time:20:00/08:00 [8]"],
    ["Could you come by nine?", "time:21:00/09:00 [nine]"],
    ["We're open until eleven.", "time:23:00/11:00 [eleven]"],
    ["We're open till 11; the bar stays later.", "time:23:00/11:00 [11]"],
    ["The kitchen is open from 5 on weekdays.", "time:17:00/05:00 [5]"],
    ["At twelve, then.", "time:12:00 [twelve]"],
  ])("a bare hour after a preposition, ending its clause: %s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it.each([
    ["We can seat you at 8 at the bar.", []],
    ["I can put you at 2 of our patio tables.", []],
    ["Is at 8 people the limit?", ["count:8 [8 people]"]],
    ["Seating at 7.5 is not a thing.", []],
    ["Nothing at 0.", []],
    ["Nothing at 24.", []],
    ["We have eight.", []],
    ["We have 8.", []],
    ["Room 8 is free.", []],
  ])("no time in a number without a preposition or outside a clause's end: %s", (text, expected) => {
    expect(values(text)).toEqual(expected);
  });

  it.each(["The wait is up to 20 minutes.", "Your table will be ready after 10 minutes.", "It takes around 15 minutes.", "The wait is around two hours.", "We hold tables for up to 15 minutes.", "We're booked from 3 weeks out."])(
    "no time in a number before a duration: %s",
    (text) => {
      expect(values(text)).toEqual([]);
    },
  );

  it("an hour past 12 after a preposition is an afternoon hour", () => {
    expect(values("We open at 13.")).toEqual(["time:13:00 [13]"]);
    expect(values("We close at 23 on Fridays.")).toEqual(["time:23:00 [23]"]);
    expect(values("We close at 23 o'clock.")).toEqual(["time:23:00 [23 o'clock]"]);
  });

  it("a preposition in the sentence before makes no bare hour", () => {
    expect(values("We are open until. 8 is our number of tables.")).toEqual([]);
  });

  it("a time and a count in one line", () => {
    expect(values("How about at eight for two?")).toEqual(["time:20:00/08:00 [eight]", "count:2 [two]"]);
    expect(values("A party of 4, at 7.")).toEqual(["count:4 [4]", "time:19:00/07:00 [7]"]);
  });
});

describe("dates", () => {
  it.each([
    ["Booked for May 3.", "date:2026-05-03 [May 3]"],
    ["Booked for March twenty first.", "date:2026-03-21 [March twenty first]"],
    ["Booked for the twenty first of May 2027.", "date:2027-05-21 [the twenty first of May 2027]"],
    ["Booked for Sep 9.", "date:2026-09-09 [Sep 9]"],
    ["Booked for Sept. 30th.", "date:2026-09-30 [Sept. 30th]"],
    ["Booked for Dec 31, 2026.", "date:2026-12-31 [Dec 31, 2026]"],
    ["Booked for January first.", "date:2026-01-01 [January first]"],
    ["Booked for the 1st of May.", "date:2026-05-01 [the 1st of May]"],
    ["Booked for the 2nd of May.", "date:2026-05-02 [the 2nd of May]"],
    ["Booked for May 31st.", "date:2026-05-31 [May 31st]"],
    ["Booked for August 1.", "date:2026-08-01 [August 1]"],
    ["Booked for August 31.", "date:2026-08-31 [August 31]"],
    ["Booked for the 3rd of Jun.", "date:2026-06-03 [the 3rd of Jun]"],
    ["Booked for the 7 of August.", "date:2026-08-07 [the 7 of August]"],
    ["Booked for 7 August 2026.", "date:2026-08-07 [7 August 2026]"],
    ["Booked for 7 August 1900.", "date:1900-08-07 [7 August 1900]"],
    ["Booked for August 7 2200.", "date:2200-08-07 [August 7 2200]"],
    ["Booked for the thirtieth of November.", "date:2026-11-30 [the thirtieth of November]"],
    ["Booked for October twenty.", "date:2026-10-20 [October twenty]"],
    ["Booked for 2026-12-31.", "date:2026-12-31 [2026-12-31]"],
    ["Booked for 2026-01-01.", "date:2026-01-01 [2026-01-01]"],
  ])("%s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it("a year out of range is not the date's year", () => {
    expect(values("Booked for August 7 1850.")).toEqual(["date:2026-08-07 [August 7]"]);
    expect(values("Booked for August 7 2201.")).toEqual(["date:2026-08-07 [August 7]"]);
    expect(values("Booked for 7 August 1899.", null)).toEqual(["date:08-07 [7 August]"]);
    expect(values("Booked for 7 August 2201.", null)).toEqual(["date:08-07 [7 August]"]);
  });

  it("a date without a year takes the reading's year, or none", () => {
    expect(values("Booked for the 7th of August.", null)).toEqual(["date:08-07 [the 7th of August]"]);
    expect(values("Booked for August 7th.", null)).toEqual(["date:08-07 [August 7th]"]);
    expect(values("Booked for August 7th.", 2027)).toEqual(["date:2027-08-07 [August 7th]"]);
    expect(values("Booked for 2026-08-07.", null)).toEqual(["date:2026-08-07 [2026-08-07]"]);
  });

  it.each(["Booked for 2026-13-01.", "Booked for 2026-00-10.", "Booked for 2026-02-32.", "Booked for 2026-02-00.", "Booked for August 32.", "Booked for August 0.", "Booked for the 32nd of August.", "Booked for 40 August."])(
    "no date a calendar lacks: %s",
    (text) => {
      expect(values(text).filter((v) => v.startsWith("date"))).toEqual([]);
    },
  );

  it("'may' and 'march' are months only where compromise reads a date", () => {
    expect(values("You may come at 8, then.")).toEqual(["time:20:00/08:00 [8]"]);
    expect(values("We march on.")).toEqual([]);
    expect(values("On May 3, then.")).toEqual(["date:2026-05-03 [May 3]"]);
    expect(values("On March 3, then.")).toEqual(["date:2026-03-03 [March 3]"]);
  });

  it("a month's abbreviation needs its capital", () => {
    expect(values("Booked for Jan 5.")).toEqual(["date:2026-01-05 [Jan 5]"]);
    expect(values("booked for jan 5.")).toEqual([]);
  });

  it("a month with no day is no date", () => {
    expect(values("We're open all of August.")).toEqual([]);
    expect(values("August is busy.")).toEqual([]);
  });
});

describe("record ids", () => {
  it.each([
    ["Reference AB-1234.", "reference:AB1234 [AB-1234]"],
    ["It's RE-58827.", "reference:RE58827 [RE-58827]"],
    ["That's ab 2040.", "reference:AB2040 [ab 2040]"],
    ["That's r2040.", "reference:R2040 [r2040]"],
    ["That's R-204.", "reference:R204 [R-204]"],
    ["That's R - 2040.", "reference:R2040 [R - 2040]"],
    ["My confirmation 4410.", "reference:4410 [4410]"],
    ["The code 12345.", "reference:12345 [12345]"],
    ["Booking 2040 is cancelled.", "reference:2040 [2040]"],
    ["Your id: 987.", "reference:987 [987]"],
    ["Reference 555.", "reference:555 [555]"],
  ])("%s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it.each(["We are at 2040 Main.", "We have 2040 of them.", "Booking 55 is cancelled.", "Code 12.", "That's R-12th.", "It's R-3pm.", "That's R-20.", "Take the I-405 to get here.", "2040 is the number.", "That's r 20.", "It's in 2026, sir."])(
    "no record id in %s",
    (text) => {
      expect(values(text).filter((v) => v.startsWith("reference"))).toEqual([]);
    },
  );

  it("letters said apart from their digits by other words or a sentence are no id", () => {
    expect(values("Row b. 2040 is the year.").filter((v) => v.startsWith("reference"))).toEqual([]);
    expect(values("Row b, 2040 of them.").filter((v) => v.startsWith("reference"))).toEqual([]);
    expect(values("Booking. 2040 is the year.").filter((v) => v.startsWith("reference"))).toEqual([]);
  });
});

describe("record ids spelled out with letters among the digits", () => {
  it.each([
    ["Your reservation number is R, zero, zero, D, five, one, nine.", "R00D519"],
    ["Your reservation number is R six three one E nine eight.", "R631E98"],
    ["Your reservation number is R dash 8 F F 3 8 8.", "R8FF388"],
    ["Your code is Q X seven K two B.", "QX7K2B"],
    ["Your booking L M 4 P 9 Z has been cancelled.", "LM4P9Z"],
    ["Which one: Z T 4 N 8 R or H K 2 W 6 P?", "ZT4N8R"],
  ])("%s", (text, id) => {
    expect(readValues(text, { lexicon: RESTAURANT }).filter((v) => v.kind === "reference").map((v) => v.value)[0]).toBe(id);
  });

  it("stops at a word that is no letter of an id, and keeps a phone number a phone number", () => {
    expect(readValues("It's R two zero four zero a table for two.", { lexicon: RESTAURANT }).filter((v) => v.kind === "reference").map((v) => v.value)).toEqual(["R2040"]);
    expect(readValues("Call five five five, zero one four two.", { lexicon: RESTAURANT }).map((v) => v.kind)).toEqual(["phone"]);
  });
});

describe("short codes after a cue", () => {
  // Two domains: a seat (an operation's entity cues it) and a locker (a package's id cue).
  const SEATS = lexiconOf({ operations: { change_seat: { kind: "write", effect: "update", entity: "seat" } } });
  const LOCKERS = lexiconOf({ vocabulary: { idCues: ["locker"] } });
  it.each([
    ["You're now in seat 12A.", SEATS, ["12A"]],
    ["Seat 4c is yours.", SEATS, ["4C"]],
    ["Your bag is in locker 12b until noon.", LOCKERS, ["12B"]],
  ] as const)("%s", (text, lexicon, ids) => {
    expect(readValues(text, { lexicon }).filter((v) => v.kind === "reference").map((v) => v.value)).toEqual(ids);
  });

  it("needs a cue, is a number and one letter, and is never an ordinal or a time", () => {
    expect(readValues("Your bag is in locker B12.", { lexicon: LOCKERS }).filter((v) => v.kind === "reference")).toEqual([]);
    expect(readValues("Row 12A is by the window.", { lexicon: SEATS }).filter((v) => v.kind === "reference")).toEqual([]);
    expect(readValues("The seat 2nd from the left.", { lexicon: SEATS }).filter((v) => v.kind === "reference")).toEqual([]);
    expect(structuredValue("12A")).toEqual({ kind: "reference", readings: ["12A"] });
    expect(structuredValue("2nd")).toBeNull();
    expect(structuredValue("7pm")).not.toEqual(expect.objectContaining({ kind: "reference" }));
  });
});

describe("phone numbers", () => {
  it.each([
    ["Call +1 555 014 2000.", "phone:15550142000 [+1 555 014 2000]"],
    ["Call 1-800-555-0199 please.", "phone:18005550199 [1-800-555-0199]"],
    ["Call (555) 014-2000 any time.", "phone:5550142000 [(555) 014-2000]"],
    ["Call 555-0142, any time.", "phone:5550142 [555-0142]"],
  ])("%s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it.each(["Call 5550142.", "That's 3.14159.", "Call 555.0142 now.", "It's 12345678901234567890.", "Dial 555-014.", "Call 55-01."])("no phone number in %s", (text) => {
    expect(values(text).filter((v) => v.startsWith("phone"))).toEqual([]);
  });

  it("a phone number ends where the next sentence or a date begins, and at fifteen digits", () => {
    expect(values("Call 555 0142. 2040 is the year.")).toEqual(["phone:5550142 [555 0142]"]);
    expect(values("Call 555 0142, 12 people.")).toEqual(["phone:5550142 [555 0142]", "count:12 [12 people]"]);
    expect(values("Call 555 0142 2026-08-07.")).toEqual(["phone:5550142 [555 0142]", "date:2026-08-07 [2026-08-07]"]);
    expect(values("Call 555 0142 5555 0142 555.")).toEqual(["phone:555014255550142 [555 0142 5555 0142]"]);
  });
});

describe("money", () => {
  it.each([
    ["It costs €20.", "money:20.00 [€20]"],
    ["It costs £7.5.", "money:7.50 [£7.5]"],
    ["A deposit of $1,250.00.", "money:1250.00 [$1,250.00]"],
    ["That's 30 dollars.", "money:30.00 [30 dollars]"],
    ["That's thirty bucks.", "money:30.00 [thirty bucks]"],
    ["Fifty euros and twenty cents.", "money:50.20 [Fifty euros and twenty cents]"],
    ["Twenty five pounds, please.", "money:25.00 [Twenty five pounds]"],
    ["It's 12 dollars 5 cents.", "money:12.05 [12 dollars 5 cents]"],
    ["It's twelve dollars fifty cents.", "money:12.50 [twelve dollars fifty cents]"],
    ["It's one euro and one cent.", "money:1.01 [one euro and one cent]"],
    ["It's ninety nine dollars ninety nine.", "money:99.99 [ninety nine dollars ninety nine]"],
  ])("%s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it("cents are a number below a hundred, in the same sentence, said with 'cents' after 'and'", () => {
    expect(values("It's 12 dollars 120.")).toEqual(["money:12.00 [12 dollars]"]);
    expect(values("It's 12 dollars and 5.")).toEqual(["money:12.00 [12 dollars]"]);
    expect(values("It's twelve dollars. Fifty is the tip.")).toEqual(["money:12.00 [twelve dollars]"]);
    expect(values("It's 12 dollars 4.5 more.")).toEqual(["money:12.00 [12 dollars]"]);
    expect(values("It's twelve dollars and fifty people.")).toEqual(["money:12.00 [twelve dollars]", "count:50 [fifty people]"]);
    expect(values("It's two dollars and 3 guests.")).toEqual(["money:2.00 [two dollars]", "count:3 [3 guests]"]);
  });

  it("a number without a currency is no amount", () => {
    expect(values("It's 30 total.")).toEqual([]);
    expect(values("It's $ 30.")).toEqual([]);
  });
});

describe("counts", () => {
  it.each([
    ["Seven seats left.", "count:7 [Seven seats]"],
    ["One adult, then.", "count:1 [One adult]"],
    ["Party of 12.", "count:12 [12]"],
    ["A table for 999 people.", "count:999 [999 people]"],
    ["Table for four. Thanks!", "count:4 [four]"],
    ["Table for four", "count:4 [four]"],
    ["Party of twenty.", "count:20 [twenty]"],
    ["We have 4 people.", "count:4 [4 people]"],
  ])("%s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it.each(["A table for two hours.", "For 2.5 people, no.", "For 1000 people, no.", "1000 people, no.", "For the third time, no.", "Four. People keep asking.", "For. 4 is the number.", "We have 4 options."])(
    "no count in %s",
    (text) => {
      expect(values(text).filter((v) => v.startsWith("count"))).toEqual([]);
    },
  );
});

describe("names", () => {
  it.each([
    ["Reserved under Ana María.", "name:ana maria [Ana María]"],
    ["The name is Priya Patel.", "name:priya patel [Priya Patel]"],
    ["Booked for Mr Lee.", "name:mr lee [Mr Lee]"],
    ["Booked for Maya's party.", "name:maya [Maya's]"],
    ["Under Jordan Lee Smith Jones.", "name:jordan lee smith [Jordan Lee Smith]"],
    ["Someone named Omar called.", "name:omar [Omar]"],
    ["A guest called Sofia rang.", "name:sofia [Sofia]"],
    ["Mr. Lee called.", "name:lee [Lee]"],
  ])("%s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it("a name ends at punctuation", () => {
    expect(values("For Jordan, Lee and Sam.")).toEqual(["name:jordan [Jordan]"]);
  });

  it.each(["Is Priya there?", "It's called The Harbor.", "Booked for Monday.", "Booked for August.", "Booked for Jan.", "Booked for Today.", "Under MAYA.", "Under maya.", "For. Maya called.", "This is Maya."])("no name in %s", (text) => {
    expect(values(text)).toEqual([]);
  });
});

describe("sentences", () => {
  it("a capital after a.m. or p.m. starts a sentence", () => {
    expect(startsSentence("p.m.", "Your")).toBe(true);
    expect(startsSentence("a.m.", "Your")).toBe(true);
    expect(startsSentence("pm.", "Your")).toBe(true);
    expect(startsSentence("P.M.", "Your")).toBe(true);
    expect(startsSentence("p.m.", "your")).toBe(false);
    expect(startsSentence("p.m", "Your")).toBe(false);
    expect(startsSentence("Sam.", "Your")).toBe(false);
    expect(startsSentence("xp.m.", "Your")).toBe(false);
    expect(startsSentence(undefined, "Your")).toBe(false);
  });

  it("a value does not run over that boundary", () => {
    expect(values("It's at 7 p.m. Party of six.")).toEqual(["time:19:00 [7 p.m.]", "count:6 [six]"]);
    expect(values("Come at 7 a.m. Under Maya.")).toEqual(["time:07:00 [7 a.m.]", "name:maya [Maya]"]);
  });
});

describe("evidence", () => {
  it("reads structured strings exactly", () => {
    expect(structuredValue("19:00")).toEqual({ kind: "time", readings: ["19:00"] });
    expect(structuredValue(" 7:05 ")).toEqual({ kind: "time", readings: ["07:05"] });
    expect(structuredValue("19:00:00")).toEqual({ kind: "time", readings: ["19:00"] });
    expect(structuredValue("23:59")).toEqual({ kind: "time", readings: ["23:59"] });
    expect(structuredValue("2026-08-07")).toEqual({ kind: "date", readings: ["2026-08-07"] });
    expect(structuredValue("2026-08-07T19:00:00Z")).toEqual({ kind: "date", readings: ["2026-08-07"] });
    expect(structuredValue("R-1002")).toEqual({ kind: "reference", readings: ["R1002"] });
    expect(structuredValue("RE-58827")).toEqual({ kind: "reference", readings: ["RE58827"] });
    expect(structuredValue("abc123")).toEqual({ kind: "reference", readings: ["ABC123"] });
    expect(structuredValue("R12a")).toEqual({ kind: "reference", readings: ["R12A"] });
    expect(structuredValue("555-0142")).toEqual({ kind: "phone", readings: ["5550142"] });
    expect(structuredValue("555 0142")).toEqual({ kind: "phone", readings: ["5550142"] });
    expect(structuredValue("+1 (555) 014-2000")).toEqual({ kind: "phone", readings: ["15550142000"] });
  });

  it.each(["24:00", "12:60", "7:5", "19:00 sharp", "x19:00", "ABCD-123", "R-12", "R1", "5550142", "+15550142000", "1234-567-8901-2345-6", "555-01", "2026-08-07 or so", "Maya"])("no structured value in %s", (s) => {
    expect(structuredValue(s)).toBeNull();
  });

  it("holds every reading of free text, and every number in it as a count, an hour and an amount", () => {
    expect(held(evidenceValues("Table for twenty five at 7", { lexicon: RESTAURANT }))).toEqual({
      count: ["20", "25", "7"],
      time: ["07:00", "19:00", "20:00"],
      money: ["20.00", "25.00", "7.00"],
      words: ["7", "at", "five", "for", "table", "twenty"],
    });
  });

  it("holds numbers: whole ones as counts and hours, any as an amount", () => {
    expect(held(evidenceValues(7.5, { lexicon: RESTAURANT }))).toEqual({ money: ["7.50"], words: [] });
    expect(held(evidenceValues(0, { lexicon: RESTAURANT }))).toEqual({ count: ["0"], time: ["00:00"], money: ["0.00"], words: [] });
    expect(held(evidenceValues(12, { lexicon: RESTAURANT }))).toEqual({ count: ["12"], time: ["12:00", "24:00"], money: ["12.00"], words: [] });
    expect(held(evidenceValues(1, { lexicon: RESTAURANT }))).toEqual({ count: ["1"], time: ["01:00", "13:00"], money: ["1.00"], words: [] });
    expect(held(evidenceValues(13, { lexicon: RESTAURANT }))).toEqual({ count: ["13"], time: ["13:00"], money: ["13.00"], words: [] });
    expect(held(evidenceValues(23, { lexicon: RESTAURANT }))).toEqual({ count: ["23"], time: ["23:00"], money: ["23.00"], words: [] });
    expect(held(evidenceValues(24, { lexicon: RESTAURANT }))).toEqual({ count: ["24"], money: ["24.00"], words: [] });
    expect(held(evidenceValues(-1, { lexicon: RESTAURANT }))).toEqual({ count: ["-1"], money: ["-1.00"], words: [] });
    expect(held(evidenceValues([null, true, Infinity, Number.NaN], { lexicon: RESTAURANT }))).toEqual({ words: [] });
  });

  it("holds a number written with a thousands comma, and two number words in a row as two numbers unless tens then a unit", () => {
    expect(held(evidenceValues("deposit 1,250", { lexicon: RESTAURANT }))).toEqual({ count: ["1250"], money: ["1250.00"], words: ["1", "250", "deposit"] });
    expect(held(evidenceValues("open since twenty ten", { lexicon: RESTAURANT }))).toMatchObject({ count: ["10", "20"] });
  });

  it("holds object keys and nested values", () => {
    expect(held(evidenceValues({ reservations: { "R-1002": { guest: "Maya", party_size: 2 } } }, { lexicon: RESTAURANT }))).toEqual({
      reference: ["R1002"],
      count: ["2"],
      time: ["02:00", "14:00"],
      money: ["2.00"],
      words: ["1002", "guest", "maya", "party", "r", "reservations", "size"],
    });
  });

  it("holds a bare number as a record id, and digits in a phone's characters as a phone number", () => {
    expect(held(evidenceValues("2040", { lexicon: RESTAURANT }))).toEqual({ count: ["2040"], money: ["2040.00"], reference: ["2040"], words: ["2040"] });
    expect(held(evidenceValues("5550142", { lexicon: RESTAURANT }))).toMatchObject({ reference: ["5550142"], phone: ["5550142"] });
    expect(held(evidenceValues("+15550142000", { lexicon: RESTAURANT }))).toEqual({ phone: ["15550142000"], words: ["15550142000"] });
    expect(held(evidenceValues("(555) 014-2000", { lexicon: RESTAURANT }))).toEqual({ phone: ["5550142000"], words: ["014", "2000", "555"] });
    expect(held(evidenceValues("12", { lexicon: RESTAURANT }))).not.toHaveProperty("reference");
    expect(held(evidenceValues("R2040", { lexicon: RESTAURANT }))).not.toHaveProperty("phone");
    expect(held(evidenceValues("order 1234567", { lexicon: RESTAURANT }))).not.toHaveProperty("phone");
  });

  it("holds no value in text without a digit or value word, only its words", () => {
    expect(held(evidenceValues("Maya's table, by the window", { lexicon: RESTAURANT }))).toEqual({ words: ["by", "maya", "table", "the", "window"] });
    expect(held(evidenceValues("O’Neil’s table", { lexicon: RESTAURANT }))).toEqual({ words: ["oneil", "table"] });
  });

  it("reads free text with the reading's year", () => {
    expect(held(evidenceValues("on August 7", { year: 2026, lexicon: RESTAURANT }))).toMatchObject({ date: ["2026-08-07"] });
    expect(held(evidenceValues("on August 7", { lexicon: RESTAURANT }))).toMatchObject({ date: ["08-07"] });
  });

  it("adds to evidence it is given", () => {
    const into = emptyEvidence();
    evidenceValues("R-1002", { lexicon: RESTAURANT }, into);
    evidenceValues(4, { lexicon: RESTAURANT }, into);
    expect(held(into)).toMatchObject({ reference: ["R1002"], count: ["4"] });
  });

  it("finds a spoken date with or without a year, by month and day", () => {
    const full = evidenceValues("2026-08-07", { lexicon: RESTAURANT });
    const short = evidenceValues("on August 7", { lexicon: RESTAURANT });
    expect(inEvidence(spoken("On August 7."), full)).toBe(true);
    expect(inEvidence(readValues("On August 7.", { lexicon: RESTAURANT })[0]!, full)).toBe(true);
    expect(inEvidence(spoken("On August 7."), short)).toBe(true);
    expect(inEvidence(spoken("On August 8."), full)).toBe(false);
    expect(inEvidence(spoken("On August 7, 2027."), full)).toBe(false);
    expect(inEvidence(spoken("On July 8."), evidenceValues("2026-08-07", { lexicon: RESTAURANT }))).toBe(false);
  });

  it("finds digits said for a record id when the evidence's id has letters before them", () => {
    const evidence = evidenceValues({ id: "R-2040" }, { lexicon: RESTAURANT });
    expect(inEvidence(spoken("Reservation 2040 is cancelled."), evidence)).toBe(true);
    expect(inEvidence(spoken("Reservation 2040 is cancelled."), evidenceValues("2040", { lexicon: RESTAURANT }))).toBe(true);
    expect(inEvidence(spoken("Reservation 040 is cancelled."), evidence)).toBe(false);
    expect(inEvidence(spoken("Reservation 2040 is cancelled."), evidenceValues("R-12040", { lexicon: RESTAURANT }))).toBe(false);
    expect(inEvidence(spoken("Reservation 2040 is cancelled."), evidenceValues("R1-2040", { lexicon: RESTAURANT }))).toBe(false);
    expect(inEvidence(spoken("Reservation R-2040 is cancelled."), evidenceValues("2040", { lexicon: RESTAURANT }))).toBe(false);
  });

  it("finds a name only when evidence holds every word of it", () => {
    const evidence = evidenceValues({ guest: "Jordan Lee" }, { lexicon: RESTAURANT });
    expect(inEvidence(spoken("It's under Jordan Lee."), evidence)).toBe(true);
    expect(inEvidence(spoken("It's under Jordan."), evidence)).toBe(true);
    expect(inEvidence(spoken("It's under Jordan Smith."), evidence)).toBe(false);
  });

  it("finds any reading of an ambiguous hour", () => {
    expect(inEvidence(spoken("How about at 8?"), evidenceValues("08:00", { lexicon: RESTAURANT }))).toBe(true);
    expect(inEvidence(spoken("How about at 8?"), evidenceValues("20:00", { lexicon: RESTAURANT }))).toBe(true);
    expect(inEvidence(spoken("How about at 8?"), evidenceValues("21:00", { lexicon: RESTAURANT }))).toBe(false);
    expect(inEvidence(spoken("How about at 8?"), evidenceValues({ date: "2026-08-07" }, { lexicon: RESTAURANT }))).toBe(false);
  });

  it("compares two values of one kind by any reading, dates by month and day", () => {
    expect(sameValue(spoken("At 8, then."), { kind: "time", readings: ["08:00"] })).toBe(true);
    expect(sameValue(spoken("At 8, then."), { kind: "time", readings: ["09:00"] })).toBe(false);
    expect(sameValue(spoken("At 8, then."), { kind: "count", readings: ["20:00"] })).toBe(false);
    expect(sameValue(readValues("On August 7.", { lexicon: RESTAURANT })[0]!, { kind: "date", readings: ["2026-08-07"] })).toBe(true);
    expect(sameValue(spoken("On August 7."), { kind: "date", readings: ["2027-08-07"] })).toBe(false);
    expect(sameValue(spoken("On August 7."), { kind: "date", readings: ["08-07"] })).toBe(true);
    expect(sameValue(spoken("On August 7."), { kind: "date", readings: ["2026-08-08"] })).toBe(false);
  });

  it("compares name words without case, diacritics or possessive", () => {
    expect(nameWord("María")).toBe("maria");
    expect(nameWord("Maya's")).toBe("maya");
    expect(nameWord("O’Brien’s")).toBe("obrien");
    expect(nameWord("Jean-Luc,")).toBe("jeanluc");
  });
});

describe("the words each rule knows", () => {
  const DURATIONS = ["moment", "moments", "second", "seconds", "sec", "minute", "minutes", "min", "hour", "hours", "while", "day", "days", "week", "weeks", "night", "nights", "more", "time", "times", "thing", "things"];
  it.each(DURATIONS)("'for two %s' is no count", (word) => {
    expect(values(`Hold it for two ${word}, please.`).filter((v) => v.startsWith("count"))).toEqual([]);
  });

  it("'one of' is no count", () => {
    expect(values("I can move you to one of our tables.")).toEqual([]);
  });

  const NOT_ID = ["a", "i", "at", "on", "in", "by", "to", "of", "is", "or", "no", "so", "as", "be", "we", "it", "us", "my", "me", "he", "up", "am", "pm"];
  it.each(NOT_ID)("'%s 2040' is no record id", (word) => {
    expect(values(`Then ${word} 2040 came.`).filter((v) => v.startsWith("reference"))).toEqual([]);
  });

  const NOT_ID_JOINED = ["an", "for", "the", "and", "til", "via", "per", "are", "was", "has", "had", "but", "not", "all", "any", "our", "you", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "may"];
  it.each(NOT_ID_JOINED)("'%s-2040' is no record id", (word) => {
    expect(values(`Then ${word}-2040 came.`).filter((v) => v.startsWith("reference"))).toEqual([]);
  });

  it.each(["reservation", "booking", "confirmation", "number", "reference", "code"])("'%s 2040' is a record id", (cue) => {
    expect(values(`Your ${cue} 2040 is ready.`).filter((v) => v.startsWith("reference"))).toEqual(["reference:2040 [2040]"]);
  });

  it.each(["at", "by", "until", "till", "til", "from", "around", "before", "after", "to", "past"])("'%s 8' is a time", (preposition) => {
    expect(values(`Come ${preposition} 8, please.`)).toEqual(["time:20:00/08:00 [8]"]);
  });

  it.each(["on", "for", "today", "tomorrow", "then", "instead", "sharp", "or", "and", "please", "that", "this", "next"])("'at 8 %s' is a time", (word) => {
    expect(values(`Come at 8 ${word} we said`).filter((v) => v.startsWith("time"))).toEqual(["time:20:00/08:00 [8]"]);
  });

  it.each(["Lunch is at noon", "Lunch is at midday", "We close at midnight"])("a time word with no digit and no mark after it: %s", (text) => {
    expect(values(text).length).toBe(1);
  });

  it.each([
    ["It's booked under Maya.", "maya"],
    ["A table for Maya.", "maya"],
    ["A guest named Maya.", "maya"],
    ["A guest called Maya.", "maya"],
    ["The name is Maya.", "maya"],
    ["Under the name Maya.", "maya"],
    ["It's for Mr Patel.", "mr patel"],
    ["Ask for Mrs Patel.", "mrs patel"],
    ["Ask Ms Patel.", "patel"],
    ["Ask Miss Patel.", "patel"],
    ["Ask Dr Patel.", "patel"],
  ])("a name after its cue: %s", (text, name) => {
    expect(values(text).filter((v) => v.startsWith("name")).map((v) => v.slice(5, v.indexOf(" ["))), text).toEqual([name]);
  });

  it.each(["You", "We", "It", "The", "A", "An", "This", "That", "Your", "Our", "My", "Today", "Tonight", "Tomorrow", "Yesterday", "Now", "Later", "Both"])("'%s' after a cue is no name", (word) => {
    expect(values(`It is for ${word}, thanks.`).filter((v) => v.startsWith("name"))).toEqual([]);
  });
});

describe("more edges of each reading", () => {
  it.each([
    ["It's quarter past seven.", ["time:19:15/07:15 [quarter past seven]"]],
    ["We're open from five to ten.", ["time:22:00/10:00 [ten]"]],
    ["We're at half.", []],
    ["We open at seven thirty every day.", ["time:19:30/07:30 [seven thirty]"]],
    ["Which table number are you looking at? 8?", []],
    ["That's 10 dollars 2 adults.", ["money:10.00 [10 dollars]", "count:2 [2 adults]"]],
    ["The deposit is 20 dollars, 100 percent refundable.", ["money:20.00 [20 dollars]"]],
    ["A table for 4.0 people.", []],
    ["Booked under Maya", ["name:maya [Maya]"]],
  ])("%s", (text, expected) => {
    expect(values(text)).toEqual(expected);
  });

  it("an O'- name keeps its letters", () => {
    expect(nameWord("O'Shea")).toBe("oshea");
  });

  it("a phone number of fifteen digits is structured; of sixteen, none", () => {
    expect(structuredValue("123 456 789 012 345")).toEqual({ kind: "phone", readings: ["123456789012345"] });
    expect(structuredValue("123 456 789 012 3456")).toBeNull();
  });
});


describe("the half of the day said after a time", () => {
  it.each([
    ["See you at 8 at night.", "time:20:00 [8 at night]"],
    ["Open until 11 at night.", "time:23:00 [11 at night]"],
    ["See you at 8 in the night.", "time:20:00 [8 in the night]"],
    ["Closing at 2 in the morning.", "time:02:00 [2 in the morning]"],
    ["See you at 8 in the evening.", "time:20:00 [8 in the evening]"],
    ["See you at 7 tonight.", "time:19:00 [7 tonight]"],
  ])("%s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it("only 'in the' before a part of the day fixes it: another preposition leaves both halves", () => {
    expect(values("See you at 8 on the evening.")).toEqual(["time:20:00/08:00 [8]"]);
  });
});

describe("phone numbers: how many digits, and which separators make one", () => {
  it("reads digits split by spaces or dashes, and not six digits or a range", () => {
    expect(values("Call 555 12345.")).toEqual(["phone:55512345 [555 12345]"]);
    expect(values("Call 12-345-678.")).toEqual(["phone:12345678 [12-345-678]"]);
    expect(values("Call 555-123.").filter((v) => v.startsWith("phone"))).toEqual([]);
  });
});

describe("a spoken record number found in evidence by its digits", () => {
  const reference = (text: string) => readValues(text, { year: 2026, lexicon: RESTAURANT }).find((v) => v.kind === "reference")!;
  it("matches an id whose letters precede those digits, among other ids", () => {
    expect(inEvidence(reference("My confirmation 1234."), evidenceValues({ reservation_id: "AB-1234", other: "555" }, { lexicon: RESTAURANT }))).toBe(true);
    expect(inEvidence(reference("My confirmation 234."), evidenceValues({ reservation_id: "AB-1234" }, { lexicon: RESTAURANT }))).toBe(false);
  });
  it("an id with letters matches only itself, not a longer id that ends with it", () => {
    expect(inEvidence(reference("Reference AB-1234."), evidenceValues({ reservation_id: "XAB-1234" }, { lexicon: RESTAURANT }))).toBe(false);
    expect(inEvidence(reference("Reference AB-1234."), evidenceValues({ reservation_id: "AB-1234" }, { lexicon: RESTAURANT }))).toBe(true);
  });
  it("a time said without its half matches evidence of either half", () => {
    expect(inEvidence(spoken("See you at 8."), evidenceValues({ time: "08:00" }, { lexicon: RESTAURANT }))).toBe(true);
    expect(inEvidence(spoken("See you at 8."), evidenceValues({ time: "20:00" }, { lexicon: RESTAURANT }))).toBe(true);
    expect(inEvidence(spoken("See you at 8."), evidenceValues({ time: "09:00" }, { lexicon: RESTAURANT }))).toBe(false);
  });
});

describe("a word that only looks like a value is none", () => {
  it.each([
    ["See you at x8pm.", []],
    ["See you at 8pmx.", []],
    ["See you at x8:45.", []],
    ["See you at 8:45x.", []],
    ["On August x5th.", []],
    ["On August 5thx.", []],
    ["On x2026-08-06.", []],
    ["On 2026-08-06x.", []],
    ["Booking 1234x.", []],
    ["Code ab 12345x.", []],
    ["Call 555-1234x.", []],
    ["Call x555-1234.", []],
    ["Call (555) 123-4567x.", []],
    ["That's R-5th.", []],
    ["That's R-8pm.", []],
  ])("%s", (text, expected) => {
    expect(values(text)).toEqual(expected);
  });

  it("while the same shapes, whole, are values", () => {
    expect(values("On August 5th.")).toEqual(["date:2026-08-05 [August 5th]"]);
    expect(values("That's R-x5th.")).toEqual(["reference:RX5TH [R-x5th]"]);
    expect(values("That's R-5thx.")).toEqual(["reference:R5THX [R-5thx]"]);
  });
});

describe("quarter and half hours, and hours a half of the day cannot take", () => {
  it.each([
    ["See you at quarter past 7.", ["time:19:15/07:15 [quarter past 7]"]],
    ["See you at quarter past seven.", ["time:19:15/07:15 [quarter past seven]"]],
    ["See you at quarter to one.", ["time:12:45 [quarter to one]"]],
    ["See you at quarter to 1.", ["time:12:45 [quarter to 1]"]],
    ["See you at half past twelve.", ["time:12:30 [half past twelve]"]],
    ["See you at half past 2.5.", []],
    ["See you at 13:00 pm.", ["time:13:00 [13:00 pm]"]],
    ["See you at 0:30 pm.", []],
    ["See you at 13 pm.", []],
  ])("%s", (text, expected) => {
    expect(values(text)).toEqual(expected);
  });
});

describe("record ids in evidence and names without a number", () => {
  it("an id is letters, then at least three characters with a digit", () => {
    expect(structuredValue("R-XY123")).toEqual({ kind: "reference", readings: ["RXY123"] });
    expect(structuredValue("R-1AB")).toEqual({ kind: "reference", readings: ["R1AB"] });
    expect(structuredValue("ABC12")).toBeNull();
    expect(structuredValue("AB-12")).toBeNull();
  });
  it("a capitalized cue starting the line still introduces a name", () => {
    expect(values("Under Maya Lopez, please.")).toEqual(["name:maya lopez [Maya Lopez]"]);
  });
});

describe("values said in words", () => {
  const read = (text: string) => readValues(text, { lexicon: RESTAURANT }).map((v) => `${v.kind}:${v.value} [${v.text}]`);

  it("a phone number read digit by digit, in groups or all in words", () => {
    expect(read("Call us on five five five, zero one four two.")).toEqual(["phone:5550142 [five five five, zero one four two]"]);
    expect(read("It's 555 oh one four two.")).toEqual(["phone:5550142 [555 oh one four two]"]);
    expect(read("My number is one two three four five six seven eight nine.")).toEqual(["phone:123456789 [one two three four five six seven eight nine]"]);
    // Fewer than seven digits is no phone number; two digits said in a row are not either.
    expect(read("Table for two, two people.").map((v) => v.split(" ")[0])).not.toContain("phone:22");
    expect(read("one two three four five six")).not.toContainEqual(expect.stringMatching(/^phone/));
    // A run ends at a sentence's end, and at a word between its digits.
    expect(read("Five five five. Zero one four two.")).not.toContainEqual(expect.stringMatching(/^phone/));
    expect(read("five five five and zero one four two")).not.toContainEqual(expect.stringMatching(/^phone/));
    // At most fifteen digits.
    expect(read("one two three four five six seven eight nine zero one two three four five six")).not.toContainEqual(expect.stringMatching(/^phone/));
  });

  it("a record id with its digits said one by one and its letters spelled out", () => {
    expect(read("That's R two zero four zero.")).toEqual(["reference:R2040 [R two zero four zero]"]);
    expect(read("Reference R E five eight eight two seven.")).toEqual(["reference:RE58827 [R E five eight eight two seven]"]);
    expect(read("Reservation two zero four zero, please.")).toEqual(["reference:2040 [two zero four zero]"]);
    expect(read("Confirmation number four four one zero.")).toEqual(["reference:4410 [four four one zero]"]);
    // After a cue alone, seven digits or more are a phone number.
    expect(read("Number five five five zero one four two.")).toEqual(["phone:5550142 [five five five zero one four two]"]);
    // "a" and "I" are words, not the letters of an id.
    expect(read("I two zero four zero")).not.toContainEqual(expect.stringMatching(/^reference:I/));
  });

  it("grounds a value said in words against evidence written in digits", () => {
    const evidence = evidenceValues({ phone: "555-0142", reservation_id: "R-2040" }, { lexicon: RESTAURANT });
    for (const text of ["Our number is five five five, zero one four two.", "Your reservation is R two zero four zero."]) {
      const values = readValues(text, { lexicon: RESTAURANT });
      expect(values.length, text).toBe(1);
      expect(inEvidence(values[0]!, evidence), text).toBe(true);
    }
  });

  it("numbers in words inside text are written as digits, for words compared one by one", () => {
    expect(numbersAsDigits(["fourteen", "quay", "street"])).toEqual(["14", "quay", "street"]);
    expect(numbersAsDigits(["one", "four", "quay"])).toEqual(["14", "quay"]);
    expect(numbersAsDigits(["twenty", "five", "main"])).toEqual(["25", "main"]);
    expect(numbersAsDigits(["twenty", "main"])).toEqual(["20", "main"]);
    expect(numbersAsDigits(["two", "hundred", "and", "five", "elm"])).toEqual(["205", "elm"]);
    expect(numbersAsDigits(["three", "hundred", "elm"])).toEqual(["300", "elm"]);
    expect(numbersAsDigits(["oh", "one", "four", "two"])).toEqual(["0142"]);
    expect(numbersAsDigits(["oh", "i", "see"])).toEqual(["oh", "i", "see"]);
    expect(numbersAsDigits(["the", "one", "on", "14"])).toEqual(["the", "1", "on", "14"]);
    expect(numbersAsDigits(["1", "4", "quay"])).toEqual(["1", "4", "quay"]);
    expect(numbersAsDigits(["1", "four", "quay"])).toEqual(["14", "quay"]);
    // "hundred" multiplies one to nine only; "and" before the rest is optional; a bare "hundred" stays a word.
    expect(numbersAsDigits(["twenty", "hundred"])).toEqual(["20", "hundred"]);
    expect(numbersAsDigits(["zero", "hundred"])).toEqual(["0", "hundred"]);
    expect(numbersAsDigits(["nine", "hundred", "ninety", "nine"])).toEqual(["999"]);
    expect(numbersAsDigits(["one", "hundred", "and", "x"])).toEqual(["100", "and", "x"]);
    expect(numbersAsDigits(["hundred", "acres"])).toEqual(["hundred", "acres"]);
    expect(numbersAsDigits(["twenty", "oh"])).toEqual(["20", "oh"]);
    expect(numbersAsDigits([])).toEqual([]);
  });
});
