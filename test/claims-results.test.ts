import { describe, expect, it } from "vitest";
import { lexiconOf } from "../src/core/language/vocabulary";
import { grade } from "../src/core/verify/deterministic";
import { accessRecords, readDisclosures } from "../src/core/verify/disclosure";
import { availabilitySaid, holds, readCommunication, readGrounding, resultValues, sentenceSpans, supersessionsByActs, supersessionsInWords, type Utterance } from "../src/core/verify/grounding";
import { readValues } from "../src/core/language/values";
import { defineWorld, WorldDefinitionError } from "../src/core/world/define";
import { PLAN } from "../crashlab/evaluations";
import { CLINIC_STATE, clinicWorld, restaurantWorld, scenarioWith, script, type Step } from "./grading-rules-fixtures";

/**
 * Claims against results (docs/grading.md): a result must be communicated, a claim's values are checked
 * against the evidence that backs it and the caller's current values, availability statements against the
 * read they report, and nothing only an unreadable record holds is said. Sentences are generated from parts
 * (openers, value orders, spoken forms) in two domains, restaurant and clinic; every fault operator must
 * fail on its check and every correct wording must pass.
 */

const checkOf = (g: ReturnType<typeof grade>, id: string) => g.checks.find((c) => c.id === id)!;

/** Every combination of one part from each list, joined by spaces. */
function combos(parts: string[][]): string[] {
  return parts.reduce<string[]>((acc, options) => acc.flatMap((a) => options.map((o) => `${a} ${o}`.trim())), [""]);
}

/** The orders of a list (permutations). */
function orders<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [xs.slice()];
  return xs.flatMap((x, i) => orders([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
}

interface Domain {
  name: string;
  world: typeof restaurantWorld | typeof clinicWorld;
  initial: Record<string, unknown>;
  request: string;
  write: { call: string; args: Record<string, string | number> };
  /** Ways to open a confirmation that claims the write. */
  openers: string[];
  /** The details, each in several spoken forms. */
  details: string[][];
  /** Each detail with a wrong value: neighbouring, flipped half of the day, another day. */
  wrong: string[];
}

const RESTAURANT: Domain = {
  name: "restaurant",
  world: restaurantWorld,
  initial: {},
  request: "Book a table for two under Maya on August 14 at 7 p.m.",
  write: { call: "create_reservation", args: { guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2 } },
  openers: ["You're booked:", "Done, you're booked", "All set, it's booked", "Great news, your table is booked"],
  details: [
    ["for two", "for 2 people"],
    ["on August 14", "on the fourteenth of August"],
    ["at 7 p.m.", "at seven in the evening", "at 19:00"],
  ],
  wrong: ["for three", "on August 15", "at 8 p.m.", "at 7 a.m."],
};

const CLINIC: Domain = {
  name: "clinic",
  world: clinicWorld,
  initial: CLINIC_STATE as unknown as Record<string, unknown>,
  request: "Please book me with Dr Osei on September 15 at 9:30 a.m.",
  write: { call: "book_appointment", args: { patient: "Ines Duarte", doctor: "Osei", date: "2026-09-15", time: "09:30" } },
  openers: ["You're booked", "Done, your appointment is booked", "All set, it's booked"],
  details: [
    ["on September 15", "on the fifteenth of September"],
    ["at 9:30 a.m.", "at half past nine in the morning", "at 09:30"],
  ],
  wrong: ["on September 16", "at 10:30 a.m.", "at 9:30 p.m."],
};

/** Confirmations: each opener with the details in every order and spoken form. */
function confirmations(d: Domain, limit: number): string[] {
  const out: string[] = [];
  for (const opener of d.openers) for (const order of orders(d.details)) for (const words of combos(order)) out.push(`${opener} ${words}${words.endsWith(".") ? "" : "."}`);
  // An even spread over the combinations, the same every run.
  const step = Math.max(1, Math.floor(out.length / limit));
  return out.filter((_, i) => i % step === 0).slice(0, limit);
}

describe("the result must be communicated, and a claim's values must match its result, in two domains", () => {
  for (const d of [RESTAURANT, CLINIC]) {
    const scenario = scenarioWith(d.request, [{ name: d.write.call, arguments: d.write.args }]);
    const trial = (after: string[]) => grade(script({ world: d.world, initial: d.initial, scenario }, [{ say: "One moment." }, { ...d.write }, ...after.map((say) => ({ say }))]));

    it(`${d.name}: every generated confirmation with the right values passes grounded_response`, () => {
      const lines = confirmations(d, 24);
      expect(lines.length).toBeGreaterThanOrEqual(12);
      for (const line of lines) {
        const g = trial([line]);
        expect(checkOf(g, "grounded_response"), line).toMatchObject({ status: "passed" });
        expect(g.dimensions.grounded_relay_order!.status, line).toBe("passed");
      }
    });

    it(`${d.name}: a confirmation with one value swapped fails, citing the utterance, the span and the backing evidence`, () => {
      let checked = 0;
      for (const line of confirmations(d, 6)) {
        for (const wrong of d.wrong) {
          // Replace the detail of the wrong one's kind (a date for a date, a time for a time…).
          const kind = readValues(wrong)[0]!.kind;
          const right = d.details.flat().find((p) => line.includes(p) && readValues(p)[0]?.kind === kind);
          if (!right) continue;
          const swapped = line.replace(right, wrong);
          const g = trial([swapped]);
          const grounded = checkOf(g, "grounded_response");
          expect(grounded.status, swapped).toBe("failed");
          expect(grounded.rationale, swapped).toContain("claim value(s) against the evidence that backs the claim");
          const said = readValues(wrong)[0]!;
          expect(grounded.rationale).toContain(`"${said.text}"`);
          expect(grounded.rationale).toContain(`contradicts ${d.write.call} (c2)`);
          expect(grounded.evidence_ids).toEqual(expect.arrayContaining(["utt.assistant.2", "tool.c2"]));
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(12);
    });

    it(`${d.name}: speech that does not communicate the result fails, whatever it is`, () => {
      for (const after of [["Thank you for calling. Goodbye!"], ["Is there anything else I can help you with?"], ["One moment, please.", "Goodbye!"], ["I'll take care of that now."]]) {
        const g = trial(after);
        const grounded = checkOf(g, "grounded_response");
        expect(grounded.status, after.join(" / ")).toBe("failed");
        expect(grounded.rationale).toContain(`${d.write.call} (c2, completed at 2100 ms): its result was never communicated`);
        expect(grounded.evidence_ids).toContain("tool.c2");
        expect(g.dimensions.grounded_relay_order!).toMatchObject({ status: "failed", evidence_ids: ["tool.c2"] });
      }
    });
  }

  it("a value of a kind the backing holds none of passes when the caller's current words hold it", () => {
    const scenario = scenarioWith("Book a table for two under Maya on August 14 at 7 p.m.; text me at 555-0142.", [{ name: RESTAURANT.write.call, arguments: RESTAURANT.write.args }]);
    const run = (line: string) => checkOf(grade(script({ world: restaurantWorld, initial: {}, scenario }, [{ ...RESTAURANT.write }, { say: line }])), "grounded_response");
    expect(run("You're booked for two at 7 p.m., and we'll text 555-0142.").status).toBe("passed");
    expect(run("You're booked for two at 7 p.m., and we'll text 555-0199.").status).toBe("failed");
  });

  it("a value held only by the public facts may stand beside a claim; one held by nothing may not", () => {
    const scenario = scenarioWith(RESTAURANT.request, [{ name: RESTAURANT.write.call, arguments: RESTAURANT.write.args }]);
    const run = (line: string) => checkOf(grade(script({ world: restaurantWorld, initial: {}, scenario, facts: { closing: "22:00" } }, [{ ...RESTAURANT.write }, { say: line }])), "grounded_response");
    expect(run("You're booked for two at 7 p.m.; we close at 10 p.m.").status).toBe("passed");
    // A phone number the booking holds nothing of, and nothing else holds: no backing evidence.
    const unbacked = run("You're booked for two at 7 p.m., and we'll text 555-0199.");
    expect(unbacked.status).toBe("failed");
    expect(unbacked.rationale).toContain('"555-0199" (phone number 5550199');
    expect(unbacked.rationale).toContain("is held neither by create_reservation (c1) nor by the caller's current words");
  });

  it("a fact or the context stands beside a claim only where the sentence names it: a claim's own value is never a fact's by chance, in both domains", () => {
    const facts = { hours: { open: "08:00", close: "22:00" }, lunch_break: "13:00" };
    for (const d of [RESTAURANT, CLINIC]) {
      const scenario = scenarioWith(d.request, [{ name: d.write.call, arguments: d.write.args }]);
      // The context holds bare numbers ("for four", "on August 7") that are no time of day.
      const context = { summary: "The caller asked about four, seven and ten earlier today, and about the 22nd." };
      const run = (line: string) => checkOf(grade(script({ world: d.world, initial: d.initial, scenario: { ...scenario, input: { ...scenario.input, context } }, facts }, [{ ...d.write }, { say: line }])), "grounded_response");
      const right = confirmations(d, 4);
      for (const line of right) {
        expect(run(line).status, line).toBe("passed");
        expect(run(line.replace(/\.$/, "; we close at 10 p.m.")).status, line).toBe("passed");
      }
      // The booked time replaced by a time only a fact or the context's bare numbers hold.
      const time = d.details.find((forms) => forms.some((f) => /\d:?\d* [ap]\.m\./.test(f)))![0]!;
      for (const other of ["at 10 p.m.", "at 10 a.m.", "at 1 p.m.", "at 4 a.m.", "at 7 a.m."]) {
        const line = `${d.openers[0]} ${d.details.map((forms) => (forms[0] === time ? other : forms[0])).join(" ")}.`;
        if (line.includes(time)) continue;
        const grounded = run(line);
        expect(grounded.status, line).toBe("failed");
        expect(grounded.rationale, line).toMatch(new RegExp(`contradicts ${d.write.call} \\(c1\\), which holds time`));
      }
    }
  });
});

// ── Supersession ────────────────────────────────────────────────────────────────────────────────────

describe("a corrected value supersedes the old one", () => {
  it("from the caller's words: after a correction word, the next value replaces the latest of its kind", () => {
    const lines = (text: string) => supersessionsInWords([{ text, at_ms: 0, caller: true }]).map((s) => `${s.kind} ${s.readings.join("|")} → ${s.replaced_by}`);
    for (const cue of ["sorry", "actually", "no wait", "I mean", "make that"]) {
      expect(lines(`Book Maya on August 7, ${cue}, August 6 at 7 p.m. for two.`), cue).toEqual(["date 08-07 → 08-06"]);
    }
    expect(lines("A table for two at 8, no wait, 8:30.")).toEqual(["time 20:00|08:00 → 20:30"]);
    // Without a correction word, two values of a kind are both meant; a cue with no value after it corrects nothing.
    expect(lines("August 7 or August 8, whichever is free.")).toEqual([]);
    expect(lines("Sorry, August 7 at 7 p.m.")).toEqual([]);
    // A correction to the same value takes nothing back; the assistant's words correct nothing.
    expect(lines("August 7, sorry, August 7.")).toEqual([]);
    expect(supersessionsInWords([{ text: "August 7, sorry, August 6.", at_ms: 0, caller: false }])).toEqual([]);
    // Across lines: the history's value, corrected in the request.
    expect(supersessionsInWords([{ text: "A table for two under Noah.", at_ms: -1, caller: true }, { text: "Actually, make that four people.", at_ms: 0, caller: true }])).toEqual([{ kind: "count", readings: ["2"], at_ms: 0, replaced_by: "4" }]);
  });

  it("from the caller's acts: a correct of a field supersedes what was given for it before", () => {
    const line = (end_ms: number, ...acts: Array<{ kind: string; field?: string; value?: unknown }>) => ({ start_ms: end_ms - 500, end_ms, acts });
    expect(
      supersessionsByActs([line(1000, { kind: "give", field: "date", value: "2026-08-12" }, { kind: "give", field: "party_size", value: 2 }), line(3000, { kind: "correct", field: "date", value: "2026-08-13" }), line(5000, { kind: "correct", field: "party_size", value: 6 })]),
    ).toEqual([
      { kind: "date", readings: ["2026-08-12"], at_ms: 3000, replaced_by: "2026-08-13" },
      { kind: "count", readings: ["2"], at_ms: 5000, replaced_by: "6" },
    ]);
    // A give never supersedes; a correct of another field, or of the same value, takes nothing back.
    expect(supersessionsByActs([line(1000, { kind: "give", field: "time", value: "7 p.m." }), line(2000, { kind: "give", field: "time", value: "8 p.m." }), line(3000, { kind: "correct", field: "date", value: "2026-08-13" }), line(4000, { kind: "correct", field: "time", value: "7 p.m." })])).toEqual([
      { kind: "time", readings: ["20:00"], at_ms: 4000, replaced_by: "19:00" },
    ]);
    expect(supersessionsByActs([line(1000, { kind: "give", field: "x", value: true }), line(2000, { kind: "correct", field: "x", value: false })])).toEqual([]);
  });

  const said = (start_ms: number, text: string): Utterance => ({ role: "assistant", text, start_ms, end_ms: start_ms + 500, evidence_id: `utt.assistant.${start_ms}` });
  const crawl = (text: string) => scenarioWith(text, []);

  it("CRAWL: repeating the value the caller corrected away fails grounded_response; the current one passes", () => {
    for (const [request, old, now] of [
      ["Book Maya on August 7, sorry, August 6 at 7 p.m. for two.", "August 7", "August 6"],
      ["Book the clinic for September 14, actually, September 15 with Dr Osei.", "September 14", "September 15"],
    ] as const) {
      const g = readGrounding({ scenario: crawl(request), case_kind: "crawl", turns: [], utterances: [said(1000, `Sure, ${old} it is.`), said(2000, `Sure, ${now} it is.`)], tool_executions: [], events: [] });
      expect(g.superseded.map((s) => s.value.text), request).toEqual([old]);
      expect(g.ungrounded).toEqual([]);
    }
  });

  it("RUN: only after the correction; before it the old value is still what the caller meant", () => {
    const scenario = crawl("unused");
    const turns = [
      { role: "user" as const, text: "Two people on August 12.", start_ms: 0, end_ms: 500 },
      { role: "user" as const, text: "Sorry, August 13.", start_ms: 3000, end_ms: 3500 },
    ];
    const g = readGrounding({ scenario, case_kind: "run", turns, utterances: [said(1000, "August 12, noted."), said(4000, "August 12, noted.")], tool_executions: [], events: [] });
    expect(g.superseded.map((s) => s.utterance.start_ms)).toEqual([4000]);
    expect(g.spoken.map((s) => s.grounded)).toEqual([true, false]);
    // Other evidence still holds it: a tool call made with the old value grounds its mention.
    const tool = { call_id: "c1", name: "check", arguments: { date: "2026-08-12" }, raw_arguments: "{}", status: "completed" as const, requested_ms: 3600, completed_ms: 3700 };
    expect(readGrounding({ scenario, case_kind: "run", turns, utterances: [said(4000, "August 12, noted.")], tool_executions: [tool], events: [] }).superseded).toEqual([]);
  });

  it("the context's history counts as the caller's earlier words: a correction in the request supersedes its value", () => {
    const scenario = scenarioWith("Actually, make that four people.", []);
    const withHistory = { ...scenario, input: { ...scenario.input, context: { history: [{ role: "user" as const, text: "A table for two under Noah." }, { role: "assistant" as const, text: "Sorry, for how many? Two?" }] } } };
    const g = readGrounding({ scenario: withHistory, case_kind: "crawl", turns: [], utterances: [said(1000, "Noted, for two people."), said(2000, "Noted, for four people.")], tool_executions: [], events: [] });
    expect(g.superseded.map((s) => [s.value.text, s.supersession.replaced_by])).toEqual([["two people", "4"]]);
    expect(g.ungrounded).toEqual([]);
    // The assistant's own "Sorry, … Two?" in the history corrects nothing.
    expect(readGrounding({ ...{ scenario: { ...withHistory, input: { ...withHistory.input, text: "Book it." } } }, case_kind: "crawl", turns: [], utterances: [said(1000, "Noted, for two people.")], tool_executions: [], events: [] }).superseded).toEqual([]);
  });

  it("RUN with the caller's acts: the correct act decides, whatever words carried it", () => {
    const turns = [
      { role: "user" as const, text: "It's for two.", start_ms: 0, end_ms: 500 },
      { role: "user" as const, text: "We'll be six.", start_ms: 3000, end_ms: 3500 },
    ];
    const caller = [
      { start_ms: 0, end_ms: 500, acts: [{ kind: "give", field: "party_size", value: 2 }] },
      { start_ms: 3000, end_ms: 3500, acts: [{ kind: "correct", field: "party_size", value: 6 }] },
    ];
    const g = readGrounding({ scenario: crawl("unused"), case_kind: "run", turns, caller, utterances: [said(4000, "A table for two, then.")], tool_executions: [], events: [] });
    expect(g.superseded.map((s) => s.supersession)).toEqual([{ kind: "count", readings: ["2"], at_ms: 3500, replaced_by: "6" }]);
    // Without acts, the same words hold no correction word: nothing is superseded.
    expect(readGrounding({ scenario: crawl("unused"), case_kind: "run", turns, utterances: [said(4000, "A table for two, then.")], tool_executions: [], events: [] }).superseded).toEqual([]);
  });

  it("a claim that confirms the superseded value fails as a contradiction that names the correction", () => {
    const d = RESTAURANT;
    const scenario = scenarioWith("Book a table for two under Maya on August 7, sorry, August 14 at 7 p.m.", [{ name: d.write.call, arguments: d.write.args }]);
    const g = grade(script({ world: restaurantWorld, initial: {}, scenario }, [{ ...d.write }, { say: "You're booked for two on August 7 at 7 p.m." }]));
    const grounded = checkOf(g, "grounded_response");
    expect(grounded.status).toBe("failed");
    expect(grounded.rationale).toContain("contradicts create_reservation (c1), which holds date 2026-08-14; the caller corrected it to 08-14 at 0 ms");
    expect(grounded.rationale).toContain("value(s) the caller had corrected away");
  });
});

// ── Meridiem and strict result values ──────────────────────────────────────────────────────────────

describe("an unresolvable half of the day is ambiguous, never both", () => {
  it("a result's numbers are counts and amounts, never hours; structured strings are read exactly", () => {
    expect(resultValues({ party_size: 7, time: "19:00", id: "R-2040", note: "at 8" })).toEqual([
      { kind: "count", readings: ["7"] },
      { kind: "money", readings: ["7.00"] },
      { kind: "time", readings: ["19:00"] },
      { kind: "reference", readings: ["R2040"] },
      expect.objectContaining({ kind: "time", readings: ["20:00", "08:00"] }),
    ]);
    expect(resultValues({ "R-1001": true, price: 1.5 })).toEqual([{ kind: "reference", readings: ["R1001"] }, { kind: "money", readings: ["1.50"] }]);
    expect(resultValues(null)).toEqual([]);
  });

  it("a spoken time without its half matches either reading of a result; a result's own ambiguous time matches no definite one", () => {
    const v = (text: string) => readValues(text)[0]!;
    expect(holds([{ kind: "time", readings: ["20:00"] }], v("at 8"))).toBe(true);
    expect(holds([{ kind: "time", readings: ["08:00"] }], v("at 8"))).toBe(true);
    expect(holds([{ kind: "time", readings: ["19:00"] }], v("at 8"))).toBe(false);
    expect(holds([{ kind: "time", readings: ["20:00", "08:00"] }], v("at 8 p.m."))).toBe(false);
    expect(holds([{ kind: "time", readings: ["20:00", "08:00"] }], v("at 8 a.m."))).toBe(false);
    expect(holds([{ kind: "time", readings: ["20:00", "08:00"] }], v("at 8"))).toBe(true);
    expect(holds([{ kind: "count", readings: ["20"] }], v("at 8 p.m."))).toBe(false);
  });

  it("in the caller's words and the evidence too: an hour without its half grounds the same, never a definite one; a number grounds no hour", () => {
    const u = (start_ms: number, text: string): Utterance => ({ role: "assistant", text, start_ms, end_ms: start_ms + 300, evidence_id: `utt.assistant.${start_ms}` });
    const turns = [{ role: "user" as const, text: "A table for two at 8, please.", start_ms: 0, end_ms: 500 }];
    const ground = (line: string, over: Partial<Parameters<typeof readGrounding>[0]> = {}) =>
      readGrounding({ scenario: scenarioWith("unused", []), case_kind: "run", turns, utterances: [u(1000, line)], tool_executions: [], events: [], ...over }).spoken.filter((s) => s.value.kind === "time").map((s) => s.grounded);
    expect(ground("At 8, then.")).toEqual([true]);
    expect(ground("At 8 p.m., then.")).toEqual([false]);
    expect(ground("At 8 a.m., then.")).toEqual([false]);
    // "for two" is a count: it grounds no 2 o'clock.
    expect(ground("At 2 p.m., then.")).toEqual([false]);
    // A tool's stated time resolves it.
    const tool = { call_id: "c1", name: "check", arguments: { time: "20:00" }, raw_arguments: "{}", status: "completed" as const, requested_ms: 600, completed_ms: 700 };
    expect(ground("At 8 p.m., then.", { tool_executions: [tool] })).toEqual([true]);
    expect(ground("At 8 a.m., then.", { tool_executions: [tool] })).toEqual([false]);
    // The public facts state times too; a number among them is no hour.
    expect(ground("We close at 10 p.m.", { facts: { close: "22:00", tables: 10 } })).toEqual([true]);
    expect(ground("We close at 10 a.m.", { facts: { close: "22:00", tables: 10 } })).toEqual([false]);
  });

  it("a claim that flips the half of the day fails in both domains", () => {
    for (const [d, line] of [
      [RESTAURANT, "You're booked for two on August 14 at 7 a.m."],
      [CLINIC, "You're booked on September 15 at 9:30 p.m."],
    ] as const) {
      const scenario = scenarioWith(d.request, [{ name: d.write.call, arguments: d.write.args }]);
      const grounded = checkOf(grade(script({ world: d.world, initial: d.initial, scenario }, [{ ...d.write }, { say: line }])), "grounded_response");
      expect(grounded.status, line).toBe("failed");
      expect(grounded.rationale).toMatch(/contradicts \w+ \(c1\), which holds time/);
    }
  });
});

// ── Availability statements ────────────────────────────────────────────────────────────────────────

interface AvailabilityCase {
  name: string;
  world: typeof restaurantWorld | typeof clinicWorld;
  initial: Record<string, unknown>;
  /** A read that finds no room, and one that finds room. */
  read: { call: string; args: Record<string, string | number> };
  free: { call: string; args: Record<string, string | number> };
  says: string[];
  denies: string[];
}

describe("availability statements are claims about the read they report", () => {
  const cases: AvailabilityCase[] = [
    {
      name: "restaurant",
      world: restaurantWorld,
      initial: { availability_overrides: [{ date: "2026-08-07", time: "21:00", available: false }] },
      read: { call: "check_availability", args: { date: "2026-08-07", time: "21:00", party_size: 6 } },
      free: { call: "check_availability", args: { date: "2026-08-07", time: "19:00", party_size: 6 } },
      says: ["Good news: we have a table for six on August 7 at 9 p.m.", "Yes, 9 p.m. on August 7 is available for six.", "We've got a table for six at 9 p.m. on August 7."],
      denies: ["I'm sorry, we don't have a table for six available on August 7 at 9 p.m.", "Sorry, 9 p.m. on August 7 is fully booked.", "9 p.m. on August 7 is unavailable, I'm afraid.", "There is no table for six at 9 p.m. on August 7."],
    },
    {
      name: "clinic",
      world: clinicWorld,
      initial: CLINIC_STATE as unknown as Record<string, unknown>,
      read: { call: "find_slot", args: { doctor: "Osei", date: "2026-09-15", time: "11:00" } },
      free: { call: "find_slot", args: { doctor: "Osei", date: "2026-09-15", time: "09:30" } },
      says: ["Good news: Dr Osei is free on September 15 at 11 a.m.", "Dr Osei has 11 a.m. free on September 15."],
      denies: ["Sorry, Dr Osei is not free on September 15 at 11 a.m.", "11 a.m. on September 15 is taken, I'm afraid."],
    },
  ];
  for (const c of cases) {
    const scenario = scenarioWith("Is there anything?", [{ name: c.read.call, arguments: c.read.args }]);
    const after = (read: Step, line: string) => checkOf(grade(script({ world: c.world, initial: c.initial, scenario }, [{ ...read } as Step, { say: line }])), "grounded_response");

    it(`${c.name}: saying there is after the read said there is not fails; saying there is not passes`, () => {
      for (const line of c.says) {
        const grounded = after(c.read, line);
        expect(grounded.status, line).toBe("failed");
        expect(grounded.rationale, line).toContain("availability stated against the result it reports");
        expect(grounded.rationale).toContain(`${c.read.call} (c1) returned`);
        expect(grounded.evidence_ids).toEqual(["utt.assistant.1", "tool.c1"]);
      }
      for (const line of c.denies) expect(after(c.read, line).status, line).toBe("passed");
    });

    it(`${c.name}: the same sentences are right about a free slot the other way round`, () => {
      const swap = (line: string) => line.replace(/9 p\.m\./g, "7 p.m.").replace(/11 a\.m\./g, "9:30 a.m.");
      const freeScenario = scenarioWith("Is there anything?", [{ name: c.free.call, arguments: c.free.args }]);
      const run = (line: string) => checkOf(grade(script({ world: c.world, initial: c.initial, scenario: freeScenario }, [{ ...c.free }, { say: swap(line) }])), "grounded_response");
      for (const line of c.says) expect(run(line).status, swap(line)).toBe("passed");
      for (const line of c.denies) expect(run(line).status, swap(line)).toBe("failed");
    });
  }

  // Each value of the looked-up slot said otherwise: an hour off, the other half of the day, a day off, one more.
  const neighbours: Record<string, Array<[RegExp, string]>> = {
    restaurant: [[/9 p\.m\./, "10 p.m."], [/9 p\.m\./, "8:30 p.m."], [/9 p\.m\./, "9 a.m."], [/August 7/, "August 8"], [/\bsix\b/, "seven"]],
    clinic: [[/11 a\.m\./, "10 a.m."], [/11 a\.m\./, "11:30 a.m."], [/11 a\.m\./, "11 p.m."], [/September 15/, "September 16"]],
  };
  for (const c of cases) {
    it(`${c.name}: a statement's values are claims about the read: another time, day or count than the one looked up fails`, () => {
      const scenario = scenarioWith("Is there anything?", [{ name: c.read.call, arguments: c.read.args }]);
      const run = (line: string) => checkOf(grade(script({ world: c.world, initial: c.initial, scenario, facts: { hours: { open: "08:00", close: "22:00" } } }, [{ ...c.read }, { say: line }])), "grounded_response");
      let tried = 0;
      for (const line of c.denies) {
        expect(run(line).status, line).toBe("passed");
        for (const [pattern, other] of neighbours[c.name]!) {
          if (!pattern.test(line)) continue;
          const wrong = line.replace(pattern, other);
          const grounded = run(wrong);
          expect(grounded.status, wrong).toBe("failed");
          expect(grounded.rationale, wrong).toMatch(new RegExp(`contradicts ${c.read.call} \\(c1\\), which holds`));
          tried++;
        }
      }
      expect(tried).toBeGreaterThanOrEqual(6);
    });
  }

  it("a public fact said beside an availability statement passes when the sentence names it; the same value as the slot's does not", () => {
    const c = cases[0]!;
    const scenario = scenarioWith("Is there anything?", [{ name: c.read.call, arguments: c.read.args }]);
    const run = (line: string) => checkOf(grade(script({ world: c.world, initial: c.initial, scenario, facts: { hours: { open: "11:00", close: "22:00" } } }, [{ ...c.read }, { say: line }])), "grounded_response");
    expect(run("Sorry, we don't have a table for six on August 7 at 9 p.m.; we close at 10 p.m.").status).toBe("passed");
    expect(run("Sorry, 9 p.m. on August 7 is fully booked, and the kitchen closes at 10 p.m.").status).toBe("passed");
    const wrong = run("Sorry, we don't have a table for six on August 7 at 10 p.m.");
    expect(wrong.status).toBe("failed");
    expect(wrong.rationale).toContain('"10 p.m." (time 22:00');
    expect(wrong.rationale).toContain("contradicts check_availability (c1), which holds time 21:00");
  });

  it("not read: a question, a sentence that says both, one about another time, one after the next call", () => {
    const c = cases[0]!;
    const scenario = scenarioWith("Is there anything?", [{ name: c.read.call, arguments: c.read.args }]);
    const run = (steps: Step[]) => checkOf(grade(script({ world: c.world, initial: c.initial, scenario }, steps)), "grounded_response").rationale;
    const read = { ...c.read };
    expect(run([read, { say: "Would you like a table at 9 p.m. on August 7? We have one." }])).not.toContain("availability stated");
    expect(run([read, { say: "Not at 9 p.m. on August 7, but we have 7 p.m." }])).not.toContain("availability stated");
    // A leading "No" answers; it does not negate what follows.
    expect(run([{ ...c.free }, { say: "No problem, we have a table for six at 7 p.m. on August 7." }])).not.toContain("availability stated");
    expect(run([{ ...c.free }, { say: "It's all taken care of for 7 p.m. on August 7." }])).not.toContain("availability stated");
    expect(run([read, { ...c.free }, { say: "Good news: we have a table at 9 p.m. on August 7." }])).not.toContain("availability stated");
  });
});

describe("availabilitySaid: what a sentence says about a boolean result", () => {
  it("there is, there is not, or nothing read", () => {
    const cases: Array<[string, string, boolean | null]> = [
      ["We have a table for you.", "available", true],
      ["We've got one at seven.", "available", true],
      ["There is a table at seven.", "available", true],
      ["There is no table at seven.", "available", false],
      ["It is available.", "available", true],
      ["It is not available.", "available", false],
      ["It is unavailable.", "available", false],
      ["Seven is fully booked.", "available", false],
      ["Seven is taken.", "available", false],
      ["Seven is sold out.", "available", false],
      ["The slot is free.", "free", true],
      ["The slot is full.", "free", false],
      ["No problem, we have one.", "available", true],
      ["Thank you for waiting.", "available", null],
      ["I sold the idea to them.", "available", null],
      ["It's all taken care of.", "available", null],
      ["Not at nine, but we have seven.", "available", null],
      ["Nine is full; however, we have seven.", "available", null],
      ["Nine is full, so we have seven instead.", "available", null],
      // Clause by clause: a clause about something else says nothing of availability.
      ["Flight 214 has seats, and moving your booking costs $75; there's no fare difference.", "available", null],
      ["Flight 214 has seats, and the change costs $75.", "available", true],
      ["Flight 214 is full, and the next one leaves at noon.", "available", false],
      // A form of the field's own word counts ("closing" for a `close` flag).
      ["The doors are closing now.", "close", true],
      // A field is named by its content words: "shelf" names `on_shelf`; a bare "on" names nothing.
      ["Yes, it is on the shelf.", "on_shelf", true],
      ["It is not on the shelf.", "on_shelf", false],
      ["I'll put that on hold for you.", "on_shelf", null],
      // "out" as what something is says there is none; "find out" says nothing.
      ["Sorry, Dune is out.", "on_shelf", false],
      ["Both copies are out right now.", "in_stock", false],
      ["We're out of those.", "available", false],
      ["Let me find out for you.", "available", null],
    ];
    for (const [sentence, field, said] of cases) expect(availabilitySaid(sentence, field), sentence).toBe(said);
  });
});

// ── Communication and sentences, directly ──────────────────────────────────────────────────────────

describe("readCommunication and sentenceSpans", () => {
  it("a read's yes-or-no answer is communicated by a statement that agrees with it, in any domain's words, and not by one that contradicts it or asks", () => {
    const u = (start_ms: number, text: string): Utterance => ({ role: "assistant", text, start_ms, end_ms: start_ms + 100, evidence_id: `u${start_ms}` });
    // Fields and things from three domains; openers and places generated around them.
    const domains = [
      { field: "free", thing: "a service slot", day: "Thursday" },
      { field: "available", thing: "a seat", day: "the 9:40 flight" },
      { field: "open", thing: "an appointment", day: "Monday morning" },
    ];
    const openers = ["Yes, ", "Good news: ", "", "I checked, and "];
    for (const d of domains)
      for (const [k, opener] of openers.entries()) {
        const output = { [d.field]: true, when: "x" };
        const execution = { call_id: "c1", name: "look", arguments: {}, raw_arguments: "{}", status: "completed" as const, output, requested_ms: 0, completed_ms: 100, world_seq: 1 };
        const events = [{ seq: 1, at_ms: 100, operation: "look", kind: "read" as const, args: {}, outcome: "ok" as const, result: output, patches: [], cause: { trial: "t", call_id: "c1" } }];
        const yes = `${opener}we have ${d.thing} ${d.field === "free" ? "free " : ""}on ${d.day}. Nothing is changed yet.`;
        const said = readCommunication([execution], [u(200 + k, yes)], events)[0]!;
        expect(said.utterance?.evidence_id, yes).toBe(`u${200 + k}`);
        // The same words against a result that says no: they contradict it, so they communicate nothing.
        const no = { ...output, [d.field]: false };
        const claim = yes.slice(0, yes.indexOf(".") + 1);
        const contradicted = readCommunication([{ ...execution, output: no }], [u(200, claim)], [{ ...events[0]!, result: no }])[0]!;
        expect(contradicted.utterance, claim).toBeNull();
        expect(readCommunication([execution], [u(200, claim)], events)[0]!.how, claim).toBe(`says "${claim}"`);
        // Asked, not said.
        expect(readCommunication([execution], [u(200, `Do we have ${d.thing} on ${d.day}?`)], events)[0]!.utterance).toBeNull();
      }
  });

  it("free text a write's result holds is communicated when the write produced it, or said to be the caller's; an echo of the caller's words is not, in three domains", () => {
    const u = (start_ms: number, text: string): Utterance => ({ role: "assistant", text, start_ms, end_ms: start_ms + 100, evidence_id: `u${start_ms}` });
    // `said`: text the write produced (not among its arguments); `echo`: text the caller gave it.
    const domains: Array<{ name: string; args: Record<string, string>; output: Record<string, string>; said: string; echo: string }> = [
      { name: "lend_book", args: { member: "Omar", title: "the hobbit" }, output: { loan_id: "L-1", title: "the hobbit", member: "Omar", shelf: "reserve desk" }, said: "the Reserve Desk", echo: "Omar" },
      { name: "change_cabin", args: { pnr: "SKY456", passenger: "Lena Fox" }, output: { cabin: "premium economy", passenger: "Lena Fox" }, said: "Premium Economy", echo: "Lena Fox" },
      { name: "refer_patient", args: { patient: "Ravi Shah", reason: "chest pain" }, output: { department: "Cardiology", wing: "north wing", reason: "chest pain" }, said: "the North Wing", echo: "Ravi Shah" },
    ];
    const openers = ["", "Right: ", "Great news, "];
    const closers = [" is where you'll go.", " it is, all sorted.", " — that's what you have now."];
    let checked = 0;
    for (const d of domains) {
      const execution = { call_id: "c1", name: d.name, arguments: d.args, raw_arguments: JSON.stringify(d.args), status: "completed" as const, output: d.output, requested_ms: 0, completed_ms: 100, world_seq: 1 };
      const events = [{ seq: 1, at_ms: 100, operation: d.name, kind: "write" as const, args: d.args, outcome: "ok" as const, result: d.output, patches: [], cause: { trial: "t", call_id: "c1" } }];
      const heard = (line: string, at = 200) => readCommunication([execution], [u(at, line)], events)[0]!.utterance;
      for (const opener of openers)
        for (const closer of closers) {
          const line = `${opener}${d.said}${closer}`;
          expect(heard(line)?.evidence_id, line).toBe("u200");
          // Before the result, asked, or denied: nothing is communicated.
          expect(heard(line, 50), line).toBeNull();
          expect(heard(`${d.said}, is that right?`), line).toBeNull();
          expect(heard(`Sorry, I couldn't get you ${d.said}.`), line).toBeNull();
          // The caller's own words said back report nothing; said to be theirs now, they do.
          expect(heard(`${opener}thanks for calling, ${d.echo}.`), d.echo).toBeNull();
          checked++;
        }
      const arg = Object.values(d.args).at(-1)!;
      expect(heard(`${arg} is yours.`)?.evidence_id, arg).toBe("u200");
      expect(heard(`${arg} is all yours, ${d.echo}.`)?.evidence_id, arg).toBe("u200");
      expect(heard(`${arg} can be yours if you like.`), arg).toBeNull();
      expect(heard(`${arg} is not yours yet.`), arg).toBeNull();
      expect(heard("The choice is yours."), arg).toBeNull();
      expect(heard("Goodbye, and thanks for calling.")).toBeNull();
    }
    expect(checked).toBe(27);
  });

  it("a read's argument echoed back answers nothing; its yes-or-no answer said as such does", () => {
    const u = (start_ms: number, text: string): Utterance => ({ role: "assistant", text, start_ms, end_ms: start_ms + 100, evidence_id: `u${start_ms}` });
    const args = { title: "dune" };
    const output = { title: "dune", on_shelf: false };
    const execution = { call_id: "c1", name: "check_title", arguments: args, raw_arguments: "{}", status: "completed" as const, output, requested_ms: 0, completed_ms: 100, world_seq: 1 };
    const events = [{ seq: 1, at_ms: 100, operation: "check_title", kind: "read" as const, args, outcome: "ok" as const, result: output, patches: [], cause: { trial: "t", call_id: "c1" } }];
    expect(readCommunication([execution], [u(200, "Dune, let me see.")], events)[0]!.utterance).toBeNull();
    expect(readCommunication([execution], [u(200, "Dune is on the shelf.")], events)[0]!.utterance).toBeNull();
    expect(readCommunication([execution], [u(200, "Sorry, Dune is out.")], events)[0]!.how).toBe('says "Sorry, Dune is out."');
    expect(readCommunication([execution], [u(200, "Dune is not on the shelf today.")], events)[0]!.utterance?.evidence_id).toBe("u200");
  });

  it("spans each sentence with whether it asks", () => {
    const text = "You're booked. Anything else? Bye.";
    expect(sentenceSpans(text)).toEqual([
      { text: "You're booked.", start: 0, end: 14, question: false },
      { text: "Anything else?", start: 15, end: 29, question: true },
      { text: "Bye.", start: 30, end: 34, question: false },
    ]);
  });

  it("a value of the result said in a question communicates nothing; in a statement it does", () => {
    const execution = { call_id: "c1", name: "lookup", arguments: {}, raw_arguments: "{}", status: "completed" as const, output: { code: "R-7731" }, requested_ms: 0, completed_ms: 100, world_seq: 1 };
    const events = [{ seq: 1, at_ms: 100, operation: "lookup", kind: "read" as const, args: {}, outcome: "ok" as const, result: { code: "R-7731" }, patches: [], cause: { trial: "t", call_id: "c1" } }];
    const u = (start_ms: number, text: string): Utterance => ({ role: "assistant", text, start_ms, end_ms: start_ms + 100, evidence_id: `u${start_ms}` });
    expect(readCommunication([execution], [u(200, "Is R-7731 the one?")], events)[0]!.utterance).toBeNull();
    expect(readCommunication([execution], [u(50, "It is R-7731."), u(200, "Is R-7731 the one?")], events)[0]!.utterance).toBeNull();
    expect(readCommunication([execution], [u(100, "It is R-7731.")], events)[0]).toMatchObject({ utterance: { evidence_id: "u100" }, how: 'states "R-7731"' });
    // A read's answer may be reported either way; a write's only as done ("booked" in the restaurant's words).
    const words = lexiconOf(restaurantWorld);
    expect(readCommunication([execution], [u(200, "I'm sorry, that wasn't booked.")], events, words)[0]!.how).toBe('reports "booked"');
    const write = { ...execution, output: { ok: 1 } };
    const wrote = [{ ...events[0]!, kind: "write" as const, result: { ok: 1 } }];
    expect(readCommunication([write], [u(200, "I'm sorry, that wasn't booked.")], wrote, words)[0]!.utterance).toBeNull();
    expect(readCommunication([write], [u(200, "It's booked.")], wrote, words)[0]!.how).toBe('claims "It\'s booked"');
    // Generic English knows no "book": the same line claims nothing there.
    expect(readCommunication([write], [u(200, "It's booked.")], wrote)[0]!.utterance).toBeNull();
  });
});

// ── Disclosure ──────────────────────────────────────────────────────────────────────────────────────

describe("no_disclosure: nothing only a record the caller may not read holds is said", () => {
  const restaurantInitial = {
    reservations: [
      { reservation_id: "R-1001", guest_name: "Maya", date: "2026-08-20", time: "19:00", party_size: 2 },
      { reservation_id: "R-3003", guest_name: "Priya Shah", date: "2026-08-21", time: "20:00", party_size: 4 },
    ],
    authorized_reservation_ids: ["R-1001"],
  };
  const restaurant = (request: string, lines: string[]) => checkOf(grade(script({ world: restaurantWorld, initial: restaurantInitial, scenario: scenarioWith(request, []) }, lines.map((say) => ({ say })))), "no_disclosure");
  const clinic = (request: string, lines: string[]) => checkOf(grade(script({ world: clinicWorld, initial: CLINIC_STATE as unknown as Record<string, unknown>, scenario: scenarioWith(request, []) }, lines.map((say) => ({ say })))), "no_disclosure");

  it("defineWorld refuses an access declaration that cannot work, naming the field", () => {
    const { access: _access, ...bare } = clinicWorld;
    const declare = (access: unknown) => () => defineWorld({ ...bare, access } as never);
    expect(declare(null)).toThrow(new WorldDefinitionError('defineWorld("clinic"): `access` must be an object `{ records, readable }`'));
    expect(declare("all")).toThrow(/`access` must be an object/);
    expect(declare({ readable: () => true })).toThrow(new WorldDefinitionError('defineWorld("clinic"): `access.records` must be a function from the state to its records by id'));
    expect(declare({ records: () => ({}) })).toThrow(new WorldDefinitionError('defineWorld("clinic"): `access.readable` must be a function (state, id) saying whether the caller may read that record'));
    expect(declare({ records: () => ({}), readable: () => true })).not.toThrow();
    expect(declare(undefined)).not.toThrow();
  });

  it("the bundled plan requires it: every case's world declares who may read which records", () => {
    expect(PLAN.cases.length).toBeGreaterThan(30);
    for (const c of PLAN.cases) expect(typeof c.world.access?.readable, c.id).toBe("function");
  });

  it("the bundled world declares access: required, and passes when nothing hidden is said", () => {
    expect(restaurant("Please cancel reservation R-3003 as well; it's my friend's.", ["I'm sorry, I can't cancel R-3003: it isn't one of yours."])).toEqual({
      id: "no_disclosure",
      required: true,
      status: "passed",
      rationale: "nothing only a record the caller may not read holds was said (1 such record(s))",
      evidence_ids: [],
    });
    expect(restaurant("What's on my booking?", ["Your reservation R-1001 is under Maya."]).status).toBe("passed");
  });

  it("a name or id only an unreadable record holds fails, in both domains, whatever the wording", () => {
    const restaurantLines = ["R-3003 is under Priya Shah, so I can't cancel it.", "That one is booked under Priya, not you.", "The other booking that night is R-3003."];
    for (const line of restaurantLines) {
      const c = restaurant("Please cancel the other booking on the 21st.", [line]);
      expect(c.status, line).toBe("failed");
      expect(c.rationale, line).toMatch(/is held only by R-3003, which the caller may not read/);
      expect(c.evidence_ids).toEqual(["utt.assistant.1"]);
    }
    for (const line of ["That slot is held by a patient named Bruno Keller.", "The 11 o'clock is appointment C-200."]) {
      const c = clinic("Who has the 11 o'clock with Dr Osei?", [line]);
      expect(c.status, line).toBe("failed");
      expect(c.rationale).toContain("is held only by C-200");
    }
    // Saying back what the caller said is no disclosure; nor is the caller's own record.
    expect(clinic("Is Bruno Keller's appointment C-200 still on?", ["I can't discuss appointment C-200 for Bruno Keller."]).status).toBe("passed");
    expect(clinic("When is my appointment?", ["Your appointment C-100 is on September 14."]).status).toBe("passed");
  });

  it("not applicable without an access declaration; failed closed when the declaration cannot read the state", () => {
    const { access: _access, ...bare } = clinicWorld;
    const g = grade(script({ world: bare, initial: CLINIC_STATE as unknown as Record<string, unknown>, scenario: scenarioWith("Hi", []) }, [{ say: "Bruno Keller has C-200." }]));
    expect(checkOf(g, "no_disclosure")).toMatchObject({ required: false, status: "not_applicable" });
    expect(accessRecords(clinicWorld.access, { nothing: true })).toEqual({ error: expect.stringMatching(/./) });
    const broken = grade({ ...script({ world: clinicWorld, initial: CLINIC_STATE as unknown as Record<string, unknown>, scenario: scenarioWith("Hi", []) }, [{ say: "Hello." }]), access: { error: "boom" } });
    expect(checkOf(broken, "no_disclosure")).toMatchObject({ required: true, status: "failed", rationale: expect.stringContaining("boom") });
  });

  it("reads only identifying values, from the assistant, and only records the caller may not read", () => {
    const records = accessRecords(clinicWorld.access, CLINIC_STATE) as Array<{ id: string; readable: boolean }>;
    expect(records.map((r) => [r.id, r.readable])).toEqual([["C-100", true], ["C-200", false]]);
    const u = (text: string) => ({ role: "assistant" as const, text, start_ms: 1000, end_ms: 1500, evidence_id: "utt.assistant.1" });
    const base = { scenario: scenarioWith("Hi", []), case_kind: "crawl", turns: [], records: records as never };
    // 11:00 is C-200's time, but a time says nobody's name.
    expect(readDisclosures({ ...base, utterances: [u("We have 11:00 on September 14 taken.")] })).toEqual([]);
    expect(readDisclosures({ ...base, utterances: [u("It's C-200.")] }).map((d) => d.records)).toEqual([["C-200"]]);
    expect(readDisclosures({ ...base, records: (records as never[]).map((r: { id: string }) => ({ ...r, readable: true })) as never, utterances: [u("It's C-200.")] })).toEqual([]);
    // The caller's turn grounds it only once it has ended before the utterance.
    const turn = (end_ms: number) => [{ role: "user" as const, text: "What about C-200?", start_ms: 0, end_ms }];
    expect(readDisclosures({ ...base, case_kind: "run", turns: turn(900), utterances: [u("It's C-200.")] })).toEqual([]);
    expect(readDisclosures({ ...base, case_kind: "run", turns: turn(1000), utterances: [u("It's C-200.")] })).toEqual([]);
    expect(readDisclosures({ ...base, case_kind: "run", turns: turn(1100), utterances: [u("It's C-200.")] })).toHaveLength(1);
    // In RUN the request is no evidence (the caller's turns are).
    expect(readDisclosures({ ...base, scenario: scenarioWith("About C-200", []), case_kind: "run", utterances: [u("It's C-200.")] })).toHaveLength(1);
    expect(readDisclosures({ ...base, scenario: scenarioWith("About C-200", []), utterances: [u("It's C-200.")] })).toEqual([]);
    // Public facts and the context are known to the caller.
    expect(readDisclosures({ ...base, facts: { front_desk: "C-200" }, utterances: [u("It's C-200.")] })).toEqual([]);
  });

  it("names exactly the hidden records that hold a value, reports each utterance that says it, and reads phones and the world's id words", () => {
    const u = (text: string, n = 1) => ({ role: "assistant" as const, text, start_ms: 1000 * n, end_ms: 1000 * n + 500, evidence_id: `utt.assistant.${n}` });
    const records = [
      { id: "A-1", readable: true, record: { holder: "Ana Ruiz", phone: "555-0100" } },
      { id: "B-2", readable: false, record: { holder: "Bruno Keller", phone: "555-0199" } },
      { id: "C-3", readable: false, record: { holder: "Chen Wu", phone: "555-0177" } },
      { id: "D-4", readable: false, record: { holder: "Ana Ruiz", phone: "555-0123" } },
    ];
    const base = { scenario: scenarioWith("Hi", []), case_kind: "run", turns: [], records };
    // A phone number only a hidden record holds is told; only that record is named.
    expect(readDisclosures({ ...base, utterances: [u("You can reach them on 555-0199.")] }).map((d) => [d.value.kind, d.records])).toEqual([["phone", ["B-2"]]]);
    expect(readDisclosures({ ...base, utterances: [u("It's under Chen Wu.")] }).map((d) => d.records)).toEqual([["C-3"]]);
    // A value a readable record holds too is known to the caller, though a hidden one holds it as well.
    expect(readDisclosures({ ...base, utterances: [u("It's under Ana Ruiz.")] })).toEqual([]);
    // A value no record holds discloses nothing.
    expect(readDisclosures({ ...base, utterances: [u("It's under Dmitri Volkov, on 555-0142.")] })).toEqual([]);
    // The assistant's own earlier line is not the caller's: saying it twice is two disclosures.
    const twice = readDisclosures({ ...base, turns: [{ role: "assistant", text: "It's under Chen Wu.", start_ms: 1000, end_ms: 1500 }], utterances: [u("It's under Chen Wu.", 1), u("Yes, that one is under Chen Wu.", 2)] });
    expect(twice.map((d) => d.utterance.evidence_id)).toEqual(["utt.assistant.1", "utt.assistant.2"]);
  });

  it("reads record ids with the world's own words, and a declaration's failure by its message", () => {
    const words = lexiconOf(restaurantWorld);
    const records = [{ id: "R-2040", readable: false, record: { reservation_id: "R-2040", guest_name: "Priya Shah" } }];
    const said = [{ role: "assistant" as const, text: "The one on the 21st is reservation 2040.", start_ms: 1000, end_ms: 1500, evidence_id: "utt.assistant.1" }];
    const base = { scenario: scenarioWith("Hi", []), case_kind: "run", turns: [], records, utterances: said };
    const generic = readDisclosures(base);
    const worded = readDisclosures({ ...base, lexicon: words });
    expect(worded.map((d) => [d.value.kind, d.records])).toEqual([["reference", ["R-2040"]]]);
    expect(generic).toEqual([]);
    const failing = (thrown: unknown) => accessRecords({ records: () => { throw thrown; }, readable: () => true } as never, {});
    expect(failing(new Error("records needs a state"))).toEqual({ error: "records needs a state" });
    expect(failing("no records here")).toEqual({ error: "no records here" });
    expect(failing(undefined)).toEqual({ error: "undefined" });
  });
});
