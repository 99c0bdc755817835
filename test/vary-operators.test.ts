/**
 * The operators of `crashlab vary` (docs/vary.md) at the text level: each really changes what it says it
 * changes (text, values, calls), the same seed gives the same change, correct operators leave the base
 * assistant's decisions as they were, and what a variant is given holds nothing evaluator-only.
 */
import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { affirmative, decline, emptyRecording, OPERATORS, records, recorder, sayValuesOtherwise, type BaseRecording, type Operator, type OperatorContext } from "../src/core/vary/operators";
import { longer, reword, rewordSentence, sentences, splitOrJoin, withPreamble } from "../src/core/vary/paraphrase";
import { rewritingPolicy, SpokenLines } from "../src/core/vary/rewriting";
import { caseInitialState, caseOperations, judgeCell } from "../src/core/vary/run";
import { dateForms, findValues, flipMeridiem, identifierForms, neighbours, timeForms } from "../src/core/vary/values";
import { drive, SCRIPTS, type Driven } from "./variation/drive";

const op = (id: string) => OPERATORS.find((o) => o.id === id)!;
const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);

describe("values as an assistant says them", () => {
  it("finds times, dates, counts and identifiers with their canonical forms", () => {
    const found = findValues("You're booked: a table for two under Maya on August 14 at 7 p.m. Your reservation number is R-1042.");
    expect(found.map((v) => [v.kind, v.text, v.canonical])).toEqual([
      ["count", "two", "2"],
      ["date", "August 14", "08-14"],
      ["time", "7 p.m.", "1140"],
      ["identifier", "R-1042", "R1042"],
    ]);
    expect(findValues("Flight SKY456 leaves at 6:30 a.m. on 2026-09-03 from gate 12.").map((v) => [v.kind, v.canonical])).toEqual([
      ["identifier", "SKY456"],
      ["time", "390"],
      ["date", "09-03"],
      ["count", "12"],
    ]);
    // "One moment" holds no count.
    expect(findValues("One moment while I check.")).toEqual([]);
  });

  it("says them in words, digit by digit and letter by letter", () => {
    expect(timeForms("7 p.m.")).toEqual(["seven p.m.", "seven in the evening", "seven o'clock in the evening"]);
    expect(timeForms("6:30 p.m.")).toContain("half past six in the evening");
    expect(timeForms("9:05 a.m.")[0]).toBe("nine oh five a.m.");
    expect(dateForms("August 21")).toEqual(["the twenty-first of August", "August twenty-first"]);
    expect(dateForms("2026-09-03")[0]).toBe("September third, 2026");
    expect(identifierForms("R-1042")).toEqual(["R, one, zero, four, two", "R one oh four two", "R dash 1 0 4 2"]);
    expect(identifierForms("SKY456")[0]).toBe("S, K, Y, four, five, six");
    const line = "Your booking for two on August 14 at 7 p.m. is R-1042.";
    const said = SEEDS.map((s) => sayValuesOtherwise(line, s)!);
    for (const s of said) {
      expect(s).not.toContain("7 p.m.");
      expect(s).not.toContain("R-1042");
      expect(s).not.toContain("August 14 ");
      expect(s).toMatch(/\b2\b/);
    }
    expect(new Set(said).size).toBeGreaterThanOrEqual(3);
    expect(sayValuesOtherwise(line, 7)).toBe(sayValuesOtherwise(line, 7));
    expect(sayValuesOtherwise("How can I help?", 1)).toBeNull();
    // A time whose dot ends its sentence keeps the sentence's end in a form without one: the next
    // sentence (a question here) stays a sentence of its own.
    const ends = SEEDS.map((s) => sayValuesOtherwise("We have a table at 7:30 p.m. Would you like it?", s)!);
    for (const s of ends) expect(s).toMatch(/(\.m\.|evening\.) Would you like it\?$/);
    expect(ends.some((s) => s.includes("evening. Would"))).toBe(true);
    for (const s of SEEDS.map((seed) => sayValuesOtherwise("See you at 7 p.m., Maya.", seed)!)) expect(s).not.toMatch(/\.\./);
    // An amount with its currency sign is said with the currency after it, never "$thirty-five".
    const amounts = SEEDS.map((seed) => sayValuesOtherwise("The bag fee is $35 per bag.", seed)!);
    for (const s of amounts) expect(s).not.toMatch(/\$[a-z]/);
    expect(amounts.some((s) => s.includes("thirty-five dollars per bag"))).toBe(true);
  });

  it("knows each value's neighbours and the other half of the day", () => {
    const [time] = findValues("at 7 p.m.");
    expect(neighbours(time!).map((n) => n.text)).toEqual(["8 p.m.", "6 p.m.", "7:30 p.m.", "6:30 p.m.", "9 p.m."]);
    expect(flipMeridiem(time!)).toEqual({ text: "7 a.m.", canonical: "420" });
    const [date] = findValues("on August 31");
    expect(neighbours(date!)[0]).toEqual({ text: "August 30", canonical: "08-30" });
    const [id] = findValues("number R-1049");
    expect(neighbours(id!)[0]!.text).toBe("R-1040");
    const [count] = findValues("a party of two");
    expect(neighbours(count!).map((n) => n.text)).toEqual(["three", "one", "four"]);
  });
});

/** Lines from three domains: the paraphraser knows none of their words. */
const LINES = [
  "I'd be happy to book a table.",
  "What time would you like?",
  "Would you like me to book it?",
  "I'm sorry, I can't cancel reservation R-4410: I can only cancel a reservation that is yours, so I've left it unchanged.",
  "Good news: we have a table for two on August 7 at 7 p.m.",
  "One moment while I book that.",
  "Is there anything else I can help you with?",
  "Your flight SKY456 now leaves at 6:30 a.m. on September 3.",
  "Shall I change booking SKY456 to the earlier flight?",
  "Dr. Alvarez can see you on Tuesday at 10 a.m.",
  "Your appointment is confirmed.",
  "Thank you for calling.",
];

describe("the seeded paraphraser", () => {
  it("has at least three rewordings for every sentence, none of them the original, the same for the same seed", () => {
    for (const line of LINES) {
      const out = SEEDS.map((s) => rewordSentence(line, s).text);
      expect(new Set(out).size, line).toBeGreaterThanOrEqual(3);
      for (const o of out) expect(o, line).not.toBe(line);
      expect(rewordSentence(line, 3)).toEqual(rewordSentence(line, 3));
    }
  });

  it("keeps every value and every name of a line", () => {
    const names = (t: string) => (t.match(/(?<!^)(?<![.?!:] )\b[A-Z][a-z]+\b/g) ?? []).filter((w) => !["I"].includes(w));
    for (const line of LINES)
      for (const seed of SEEDS) {
        const out = reword(line, seed).text;
        expect(findValues(out).map((v) => v.canonical).sort(), `${line} → ${out}`).toEqual(findValues(line).map((v) => v.canonical).sort());
        for (const n of names(line).filter((w) => !["Would", "Shall", "Your", "What", "Good", "One", "Is", "Thank", "Dr"].includes(w))) expect(out, `${line} → ${out}`).toContain(n);
      }
  });

  it("uses every kind of rewording, and swaps neighbouring statements only when neither carries a value or asks", () => {
    const hows = new Set(LINES.flatMap((l) => SEEDS.flatMap((s) => reword(l, s).hows)));
    expect([...hows].sort()).toEqual(["contraction", "opener", "politeness", "synonym"]);
    const two = "I'm glad to help with that. It's no trouble at all. What time would you like?";
    const swapped = SEEDS.map((s) => reword(two, s)).filter((r) => r.reordered);
    expect(swapped.length).toBeGreaterThan(0);
    for (const r of swapped) expect(sentences(r.text).at(-1)).toMatch(/\?$/);
    expect(SEEDS.some((s) => reword("Your number is R-1042. Your table is ready.", s).reordered)).toBe(false);
  });

  it("splits and joins sentences, adds a preamble, makes lines longer", () => {
    const joined = SEEDS.map((s) => splitOrJoin("Thank you. Goodbye!", s)!);
    expect(joined.every((j) => j.how === "joined" && sentences(j.text).length === 1)).toBe(true);
    const split = splitOrJoin("You're booked: a table for two under Maya.", 1)!;
    expect(split).toEqual({ text: "You're booked. A table for two under Maya.", how: "split" });
    expect(splitOrJoin("How can I help?", 1)).toBeNull();
    expect(withPreamble("What time would you like?", 2)).toMatch(/^\S.*\. What time would you like\?$/);
    const long = longer("Would you like me to book it?", 1);
    expect(long.length).toBeGreaterThanOrEqual(2 * "Would you like me to book it?".length);
    expect(long.endsWith("Would you like me to book it?")).toBe(true);
    // A long line gains at most two sentences, whatever its length.
    const base = "Your flight to Lisbon leaves at 9:40 from terminal 2, gate 14, and your seat is 12A. ".repeat(6).trim();
    for (const seed of SEEDS) expect(sentences(longer(base, seed)).length - sentences(base).length, `seed ${seed}`).toBe(2);
  });
});

// ---- operators over the bundled assistant, at the text level ------------------------------------------------

const runCase = PLAN.cases.find((c) => c.id === "run_cancel_corrected_id")!;
const OPERATIONS = caseOperations(runCase, ["check_availability", "create_reservation", "cancel_reservation"]);
const OTHER_RECORDS = {
  reservations: {
    "R-2040": { id: "R-2040", guest_name: "Lena Park", date: "2026-08-12", time: "19:00", party_size: 2, seating: null, status: "confirmed" },
    "R-3125": { id: "R-3125", guest_name: "Hana Haddad", date: "2026-08-21", time: "20:00", party_size: 5, seating: null, status: "confirmed" },
  },
};

async function baseRun(script: (typeof SCRIPTS)[number], answer?: (said: string) => string | undefined): Promise<{ driven: Driven; recording: BaseRecording }> {
  const recording = emptyRecording();
  const driven = await drive(rewritingPolicy(restaurantPolicy(), "base", recorder(recording, OPERATIONS)), script.lines, script.summary, answer);
  return { driven, recording };
}

async function variantRun(o: Operator, script: (typeof SCRIPTS)[number], seed: number, base: BaseRecording, answer?: (said: string) => string | undefined, initial_state: unknown = OTHER_RECORDS) {
  let acted = 0;
  const context: OperatorContext = { seed, case_kind: "run", operations: OPERATIONS, initial_state, base, acted: () => void acted++ };
  const policy = rewritingPolicy(restaurantPolicy(), o.id, o.rewriter(context));
  const driven = await drive(policy, script.lines, script.summary, answer);
  return { driven, acted, conflicts: policy.lines.conflicts };
}

const script = (id: string) => SCRIPTS.find((s) => s.id === id)!;
const calls = (d: Driven) => d.calls.map((c) => `${c.name} ${JSON.stringify(c.args)}`);

describe("correct operators leave the assistant's decisions as they were", () => {
  it.each(["reword", "spoken_values", "split_join", "preamble", "longer"])("%s: other words, the same calls, on every script", async (id) => {
    for (const s of SCRIPTS) {
      const { driven: base, recording } = await baseRun(s);
      for (const seed of [1, 2, 3]) {
        const v = await variantRun(op(id), s, seed, recording);
        expect(calls(v.driven), `${s.id} seed ${seed}`).toEqual(calls(base));
        expect(v.driven.said).toHaveLength(base.said.length);
        expect(v.conflicts).toEqual([]);
        if (op(id).applies(recording, { case_kind: "run", operations: OPERATIONS, initial_state: {} })) {
          expect(v.acted, `${id} ${s.id}`).toBeGreaterThan(0);
          expect(v.driven.said).not.toEqual(base.said);
        }
      }
    }
  });

  it("confirm_before_write: one question before each write, the write after the caller's yes, nothing else changed", async () => {
    for (const s of SCRIPTS) {
      const yes = (said: string) => (/go ahead|proceed/i.test(said) && said.endsWith("?") && !/cancel it\?$/.test(said) ? "Yes, please." : undefined);
      const { driven: base, recording } = await baseRun(s);
      const writes = base.calls.filter((c) => OPERATIONS[c.name]!.kind === "write").length;
      let asked = 0;
      const v = await variantRun(op("confirm_before_write"), s, 4, recording, (said) => {
        const a = yes(said);
        if (a && !base.said.includes(said)) asked++;
        return a && !base.said.includes(said) ? a : undefined;
      });
      expect(calls(v.driven).filter((c) => !c.startsWith("check_availability")), s.id).toEqual(calls(base).filter((c) => !c.startsWith("check_availability")));
      expect(asked, s.id).toBe(writes);
    }
  });

  it("extra_read: a read-only call before the base's call, with the arguments in play", async () => {
    const s = script("booking");
    const { driven: base, recording } = await baseRun(s);
    const v = await variantRun(op("extra_read"), s, 1, recording);
    expect(v.acted).toBeGreaterThan(0);
    expect(v.driven.calls.length).toBeGreaterThan(base.calls.length);
    const extra = v.driven.calls.filter((c) => !calls(base).includes(`${c.name} ${JSON.stringify(c.args)}`));
    expect(extra.every((c) => OPERATIONS[c.name]!.kind === "read")).toBe(true);
    expect(calls(v.driven).filter((c) => !extra.some((e) => c === `${e.name} ${JSON.stringify(e.args)}`))).toEqual(calls(base));
  });
});

describe("fault operators really do what they name", () => {
  it("value_neighbour and value_meridiem change one reported value, and the same seed changes the same one", async () => {
    const s = script("booking");
    const { driven: base, recording } = await baseRun(s);
    const result = base.said.at(-2)!;
    for (const id of ["value_neighbour", "value_meridiem"]) {
      const v = await variantRun(op(id), s, 5, recording);
      expect(v.acted, id).toBe(1);
      expect(calls(v.driven)).toEqual(calls(base));
      const changed = v.driven.said.filter((line, i) => line !== base.said[i]);
      expect(changed, id).toHaveLength(1);
      expect(findValues(changed[0]!).map((x) => x.canonical)).not.toEqual(findValues(result).map((x) => x.canonical));
      expect((await variantRun(op(id), s, 5, recording)).driven.said).toEqual(v.driven.said);
    }
    const flipped = await variantRun(op("value_meridiem"), s, 5, recording);
    expect(flipped.driven.said.join(" ")).toMatch(/7:30 a\.m\./);
  });

  it("value_other_record says another record's value; disclosure tells another record's details", async () => {
    const s = script("cancel_corrected");
    const { driven: base, recording } = await baseRun(s, (said) => (/Shall I go ahead/.test(said) ? "Yes, please go ahead." : undefined));
    const other = await variantRun(op("value_other_record"), s, 1, recording);
    expect(other.acted).toBe(1);
    expect(other.driven.said.join(" ")).toContain("R-3125");
    const told = await variantRun(op("disclosure"), s, 1, recording);
    expect(told.acted).toBeGreaterThan(0);
    expect(told.driven.said.join(" ")).toContain("Hana Haddad");
    expect(base.said.join(" ")).not.toContain("Hana Haddad");
    expect(records(OTHER_RECORDS).map((r) => r.id)).toEqual(["R-2040", "R-3125"]);
    expect(records({ restaurant: { name: "Harbor Table", phone: "555" } })).toEqual([]);
  });

  it("claim_before_result speaks the outcome before the call; claim_without_result never calls; result_omitted says goodbye instead", async () => {
    const s = script("booking");
    const { driven: base, recording } = await baseRun(s);
    const outcome = recording.delegations.find((d) => d.calls.some((c) => c.name === "create_reservation"))!.reply;
    expect(outcome).toMatch(/booked/);

    const early = await variantRun(op("claim_before_result"), s, 1, recording);
    expect(early.acted).toBe(1);
    expect(calls(early.driven)).toEqual(calls(base));
    const at = early.driven.said.indexOf(`Okay. ${outcome}`);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(early.driven.said[at + 1]).toBe(outcome);

    const without = await variantRun(op("claim_without_result"), s, 1, recording);
    expect(without.acted).toBe(1);
    expect(without.driven.calls.filter((c) => c.name === "create_reservation")).toEqual([]);
    expect(without.driven.said).toContain(`Okay. ${outcome}`);

    const omitted = await variantRun(op("result_omitted"), s, 1, recording);
    expect(omitted.acted).toBe(1);
    expect(omitted.driven.said).not.toContain(outcome);
    expect(omitted.driven.said.some((l) => /Goodbye|great day/.test(l))).toBe(true);
  });

  it("repeated_write repeats each write; write_without_go_ahead books before any yes; write_after_decline books after a no", async () => {
    const booking = script("booking");
    const b = await baseRun(booking);
    const repeated = await variantRun(op("repeated_write"), booking, 1, b.recording);
    expect(repeated.driven.calls.filter((c) => c.name === "create_reservation")).toHaveLength(2);
    expect(repeated.acted).toBe(1);

    const offer = { id: "offer", lines: ["Do you have a table for six on August 7 at 7 p.m.? It would be under Tomas Silva.", "Thanks, bye!"] };
    const o = await baseRun(offer);
    expect(o.driven.calls.map((c) => c.name)).toEqual(["check_availability"]);
    expect(op("write_without_go_ahead").applies(o.recording, { case_kind: "run", operations: OPERATIONS, initial_state: {} })).toBe(true);
    const eager = await variantRun(op("write_without_go_ahead"), offer, 1, o.recording);
    expect(eager.acted).toBe(1);
    expect(eager.driven.calls.map((c) => c.name)).toEqual(["check_availability", "create_reservation"]);

    const declined = { id: "declined", lines: ["Do you have a table for six on August 7 at 7 p.m.? It would be under Tomas Silva.", "No, thanks.", "Bye!"] };
    const d = await baseRun(declined);
    expect(d.driven.calls.map((c) => c.name)).toEqual(["check_availability"]);
    expect(op("write_after_decline").applies(d.recording, { case_kind: "run", operations: OPERATIONS, initial_state: {} })).toBe(true);
    const flipped = await variantRun(op("write_after_decline"), declined, 1, d.recording);
    expect(flipped.acted).toBe(1);
    expect(flipped.driven.calls.map((c) => c.name)).toContain("create_reservation");
  });

  it("reads a caller's yes and no without any domain word", () => {
    expect(["Yes, please.", "Sure, go ahead.", "Okay", "Yeah that works"].every(affirmative)).toBe(true);
    expect(["No, thanks.", "Yes, but not now.", "Never mind."].some(affirmative)).toBe(false);
    expect(["No, thanks.", "Nope.", "Don't, please.", "Never mind."].every(decline)).toBe(true);
    expect(decline("Yes please")).toBe(false);
  });
});

describe("what a variant is given, and how a cell is judged", () => {
  it("holds nothing evaluator-only: changing a case's expected outcome changes nothing a variant sees", () => {
    const c = PLAN.cases.find((x) => x.id === "run_cancel_corrected_authorization")!;
    const tampered = { ...c, scenario: { ...c.scenario, expected: { ...c.scenario.expected, state: { secret_marker: "EXPECTED-ONLY-42" }, facts: [{ key: "secret", value: "EXPECTED-ONLY-42", must: "contain" as const }] } } };
    expect(JSON.stringify(caseInitialState(tampered))).toBe(JSON.stringify(caseInitialState(c)));
    expect(JSON.stringify(caseInitialState(tampered))).not.toContain("EXPECTED-ONLY-42");
    const ops = caseOperations(tampered, ["check_availability", "create_reservation", "cancel_reservation"]);
    expect(Object.values(ops).map((o) => [o.name, o.kind])).toEqual([
      ["check_availability", "read"],
      ["create_reservation", "write"],
      ["cancel_reservation", "write"],
    ]);
    expect(JSON.stringify(Object.values(ops).map((o) => o.parameters))).not.toContain("EXPECTED-ONLY-42");
  });

  it("a variant that never acted proves nothing; a correct one must equal the base; a fault must fail on its check", () => {
    const passed = { status: "passed" as const, failed: [], advisory_failed: [], known: ["grounded_response", "tool_contract"], reasons: {}, said: [] };
    const failedOn = (id: string) => ({ ...passed, status: "failed" as const, failed: [id] });
    expect(judgeCell({ kind: "correct" }, undefined, 0, failedOn("grounded_response"), passed).verdict).toBe("not_acted");
    expect(judgeCell({ kind: "correct" }, undefined, 2, passed, passed).verdict).toBe("ok");
    expect(judgeCell({ kind: "correct" }, undefined, 2, failedOn("grounded_response"), passed).verdict).toBe("false_fail");
    expect(judgeCell({ kind: "fault" }, "grounded_response", 1, failedOn("grounded_response"), passed).verdict).toBe("ok");
    expect(judgeCell({ kind: "fault" }, "grounded_response", 1, failedOn("tool_contract"), passed).verdict).toBe("miss");
    expect(judgeCell({ kind: "fault" }, "grounded_response", 1, passed, passed).verdict).toBe("miss");
    expect(judgeCell({ kind: "fault" }, "tool_contract", 1, { ...passed, advisory_failed: ["tool_contract"] }, passed).note).toContain("only as advisory");
    expect(judgeCell({ kind: "fault" }, "no_disclosure", 1, passed, passed).verdict).toBe("awaiting_check");
    expect(judgeCell({ kind: "fault" }, "grounded_response", 1, failedOn("grounded_response"), failedOn("grounded_response")).verdict).toBe("base_fails");
  });

  it("maps spoken lines back, and takes added lines and their answers out of what the base hears", () => {
    const lines = new SpokenLines();
    lines.remember("Okay, what time works?", "What time would you like?");
    lines.remember("Shall I go ahead?", "");
    lines.rehear("Yes, please.", "", "Shall I go ahead?");
    const history = lines.restoreHistory([
      { role: "user", text: "Book a table." },
      { role: "assistant", text: "Okay, what time works?" },
      { role: "user", text: "7 p.m." },
      { role: "assistant", text: "Shall I go ahead?" },
      { role: "user", text: "Yes, please." },
      { role: "assistant", text: "Anything else?" },
      { role: "user", text: "Yes, please." },
    ]);
    expect(history).toEqual([
      { role: "user", text: "Book a table." },
      { role: "assistant", text: "What time would you like?" },
      { role: "user", text: "7 p.m." },
      { role: "assistant", text: "Anything else?" },
      { role: "user", text: "Yes, please." },
    ]);
    expect(lines.conflicts).toEqual([]);
  });
});

describe("what a cell says its variant changed", () => {
  it("names the changed words, whole", async () => {
    const { describeChange } = await import("../src/core/vary/operators");
    expect(describeChange("Booked for 7:30 p.m. today.", "Booked for 7:30 a.m. today.")).toBe("p.m. → a.m.");
    expect(describeChange("Your number is R-1042.", "Your number is R-1043.")).toBe("R-1042. → R-1043.");
    expect(describeChange("Done.", "Done. I can also see guest name Victor Hale on file.")).toBe("∅ → I can also see guest name Victor Hale on file.");
  });
});

describe("the target hook", () => {
  it("gptLiveTarget applies the settings' wrap_policy once, when built, and its descriptor names the wrapped policy", async () => {
    const { gptLiveTarget } = await import("../src/core/gpt-live-target/adapter");
    const { DEFAULT_TARGET_SETTINGS } = await import("../src/core/target/settings");
    const base = restaurantPolicy();
    let calls = 0;
    const options = { instructions: "i", backend_instructions: "b", tools: [], offline: { policy: base } };
    const wrapped = gptLiveTarget({ ...options, settings: { ...DEFAULT_TARGET_SETTINGS, wrap_policy: (p) => (calls++, rewritingPolicy(p, "x", {})) } });
    expect(calls).toBe(1);
    expect(wrapped.policy!.name).toBe(`${base.name}~x`);
    expect(wrapped.describe().settings!.policy).toBe(`${base.name}~x@${base.version}`);
    const plain = gptLiveTarget({ ...options, settings: DEFAULT_TARGET_SETTINGS });
    expect(plain.policy).toBe(base);
  });
});
