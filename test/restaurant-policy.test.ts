import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AssistantPolicy, CallerContext, PolicyToolResult, PolicyTools } from "crashlab/alpha";
import { RESTAURANT_FACTS } from "../examples/restaurant/facts";
import { RESTAURANT_BACKEND_INSTRUCTIONS, RESTAURANT_FRONTEND_INSTRUCTIONS } from "../examples/restaurant/instructions";
import {
  classifyIntent,
  factTopics,
  parseAuthorization,
  parseDate,
  parseDetails,
  parseGuestName,
  parsePartySize,
  parseReservationId,
  parseSeating,
  parseTime,
} from "../examples/restaurant/parse";
import {
  RESTAURANT_FAULTS,
  UnknownRestaurantFaultError,
  restaurantFaultsShownIn,
  restaurantPolicy,
  type RestaurantFault,
} from "../examples/restaurant/policy";
import { RESTAURANT_TOOLS } from "../examples/restaurant/tools";

// ---- fakes --------------------------------------------------------------------------------------

interface RecordedCall {
  name: string;
  args: Record<string, unknown>;
}

/** Records every call and answers with the output the test gives for that tool. */
class FakeTools implements PolicyTools {
  readonly calls: RecordedCall[] = [];
  constructor(private readonly answer: (call: RecordedCall, index: number) => PolicyToolResult) {}
  async call(name: string, args: Record<string, unknown>): Promise<PolicyToolResult> {
    const call = { name, args: structuredClone(args) };
    this.calls.push(call);
    return this.answer(call, this.calls.length - 1);
  }
}

/**
 * Plausible successful outputs shaped like the restaurant contract; the slot 2026-08-07 21:00 for six or
 * more is unavailable, as in the world's default override.
 */
function plausibleTools(): FakeTools {
  return new FakeTools(({ name, args }, index) => {
    switch (name) {
      case "check_availability": {
        const blocked = args.date === "2026-08-07" && args.time === "21:00" && Number(args.party_size) >= 6;
        return {
          status: "completed",
          output: { available: !blocked, ...args, seating: args.seating ?? null, ...(blocked ? { reason: "slot_unavailable" } : {}) },
        };
      }
      case "create_reservation":
        return {
          status: "completed",
          output: { reservation_id: `R-FA${index}E00`, status: "confirmed", ...args, seating: args.seating ?? null },
        };
      case "cancel_reservation":
        return { status: "completed", output: { reservation_id: args.reservation_id, status: "cancelled" } };
      default:
        return { status: "failed", output: { error: { code: "unknown_tool", message: `no tool ${name}` } } };
    }
  });
}

interface Observed {
  delegated: boolean;
  acknowledgement?: string;
  reply: string;
  calls: RecordedCall[];
}

/** One single-turn conversation: the frontend decides, the backend runs when delegated. */
async function converse(policy: AssistantPolicy, request: string, context?: CallerContext, tools = plausibleTools()): Promise<Observed> {
  const decision = policy.frontend({ request, context });
  if (decision.kind === "reply") return { delegated: false, reply: decision.text, calls: tools.calls };
  const transcript = [...(context?.history ?? []), { role: "user" as const, text: request }];
  const { reply } = await policy.backend({ request, context, transcript }, tools);
  return { delegated: true, acknowledgement: decision.acknowledgement, reply, calls: tools.calls };
}

// ---- parsers ------------------------------------------------------------------------------------

describe("restaurant parsers", () => {
  it.each([
    ["Book a table for Maya on August 7.", "Maya"],
    ["A table for two under Maya, please.", "Maya"],
    ["My name is Maya Chen and I'd like a table.", "Maya Chen"],
    ["I'm Omar. Table for two.", "Omar"],
    ["Hi, this is Priya calling about a table.", "Priya"],
    ["Put it under the name maya.", "Maya"],
    ["Book for Mia—sorry, for Nora—on August 7.", "Nora"],
    ["Verified caller Jordan Lee.", "Jordan Lee"],
  ])("reads the guest name in %j", (text, name) => {
    expect(parseGuestName(text)).toBe(name);
  });

  it.each([
    "Book a table for two on August 7 at 7 p.m.",
    "I'm looking for a table for four on Saturday.",
    "A table for August 7, please.",
    "Is Harbor Table open for dinner?",
  ])("finds no name in %j", (text) => {
    expect(parseGuestName(text)).toBeUndefined();
  });

  it.each([
    ["on August 7", "2026-08-07"],
    ["Aug 7th", "2026-08-07"],
    ["Aug. 7", "2026-08-07"],
    ["the 7th of August", "2026-08-07"],
    ["the seventh of August", "2026-08-07"],
    ["7 August", "2026-08-07"],
    ["August twenty-first", "2026-08-21"],
    ["on 2026-08-14", "2026-08-14"],
    ["December 31", "2026-12-31"],
  ])("reads the date %j", (text, date) => {
    expect(parseDate(text)).toBe(date);
  });

  it("rejects dates that do not exist and dates it cannot place without a clock", () => {
    expect(parseDate("on February 30")).toBeUndefined();
    expect(parseDate("tomorrow at 7")).toBeUndefined();
    expect(parseDate("on 2026-13-01")).toBeUndefined();
  });

  it.each([
    ["at 7 p.m.", "19:00"],
    ["at 7pm", "19:00"],
    ["at 7 PM", "19:00"],
    ["at 6:30 p.m.", "18:30"],
    ["at 19:00", "19:00"],
    ["at noon", "12:00"],
    ["at 11 a.m.", "11:00"],
    ["at 12 p.m.", "12:00"],
    ["seven p.m.", "19:00"],
    ["seven thirty p.m.", "19:30"],
    ["at 8", "20:00"],
    ["at 8 o'clock", "20:00"],
    ["half past seven", "19:30"],
    ["at 07:00", "07:00"],
  ])("reads the time %j", (text, time) => {
    expect(parseTime(text)).toBe(time);
  });

  it.each([
    ["a table for two", 2],
    ["a party of four", 4],
    ["4 people", 4],
    ["for 5 guests", 5],
    ["just the two of us", 2],
    ["a table for 12", 12],
  ])("reads the party size %j", (text, size) => {
    expect(parsePartySize(text)).toBe(size);
  });

  it("does not take the day of a date or the hour of a time as a party size", () => {
    expect(parsePartySize("Book August 7 at 7 p.m.")).toBeUndefined();
    expect(parsePartySize("a table for 7 p.m.")).toBeUndefined();
    expect(parseTime("a table for 7 p.m.")).toBe("19:00");
  });

  it.each([
    ["on the patio", "patio"],
    ["outside if possible", "outdoor"],
    ["at the bar", "bar"],
    ["inside, please", "indoor"],
    ["outside—no, inside", "indoor"],
    ["on the patio instead of inside", "patio"],
  ])("reads the seating %j", (text, seating) => {
    expect(parseSeating(text)).toBe(seating);
  });

  it("lets the later value of a correction win and drops rejected values", () => {
    expect(parseDate("Book a table for Maya on August 7—sorry, August 6—at 7 p.m. for two.")).toBe("2026-08-06");
    expect(parseDate("August 7 - sorry, the 6th")).toBe("2026-08-06");
    expect(parseDate("August 7, sorry, 6, at 7 p.m.")).toBe("2026-08-06");
    expect(parseDate("August 6 instead of August 7")).toBe("2026-08-06");
    expect(parseDate("August 6, not August 7")).toBe("2026-08-06");
    expect(parsePartySize("a table for two—actually four—under Sam")).toBe(4);
    expect(parsePartySize("for three, no wait, five people")).toBe(5);
    expect(parseTime("for two at 8, no wait, 8:30.")).toBe("20:30");
    expect(parseTime("at 7 p.m.—actually 8")).toBe("20:00");
    expect(parseTime("make it 8 p.m. instead of 7 p.m.")).toBe("20:00");
    expect(parseTime("at 8 rather than 9")).toBe("20:00");
  });

  it("keeps the first date only when asked to (the books_uncorrected_date fault)", () => {
    expect(parseDate("on August 7—sorry, August 6", { dateChoice: "first" })).toBe("2026-08-07");
  });

  it("reads all details of one request together", () => {
    expect(
      parseDetails("Hi, I'd like to reserve a table for four under Jordan Lee on August 12th at 6:30 p.m., on the patio please."),
    ).toEqual({ guest_name: "Jordan Lee", date: "2026-08-12", time: "18:30", party_size: 4, seating: "patio" });
    expect(parseDetails("What time do you close?")).toEqual({});
  });

  it.each([
    ["Please cancel R-1001.", "R-1001"],
    ["cancel reservation r 4f2a9c", "R-4F2A9C"],
    ["reservation number 1001", "R-1001"],
    ["R1001 please", "R-1001"],
  ])("reads the reservation id in %j", (text, id) => {
    expect(parseReservationId(text)).toBe(id);
  });

  it.each([
    ["Book a table for Maya on August 7 at 7 p.m. for two.", "booking"],
    ["I'd like a table for two tonight.", "booking"],
    ["Can I reserve a table for three on August 15?", "booking"],
    ["Do you have a table for two on August 7 at 7 p.m.?", "availability"],
    ["Is there anything available for six on August 7 at 9 p.m.?", "availability"],
    ["Please cancel my booking.", "cancellation"],
    ["What time does the restaurant close?", "facts"],
    ["Do you have parking?", "facts"],
    ["Please make it 7 p.m.", "none"],
  ])("classifies %j as %s", (text, intent) => {
    expect(classifyIntent(text)).toBe(intent);
  });

  it("names every facts topic asked about", () => {
    expect(factTopics("What's your address and is there parking?")).toEqual(["parking", "address"]);
    expect(factTopics("When do you open?")).toEqual(["hours"]);
    expect(factTopics("What's your phone number?")).toEqual(["phone"]);
  });

  it("reads authorization only from the authorized clause of the summary", () => {
    expect(parseAuthorization("Verified caller Maya; authorized reservations: R-1001, R-1002.").reservation_ids).toEqual(["R-1001", "R-1002"]);
    expect(parseAuthorization("Caller mentioned R-3003; authorized reservations: R-1001.").reservation_ids).toEqual(["R-1001"]);
    expect(parseAuthorization("Caller not verified; no authorized reservations.").reservation_ids).toEqual([]);
    expect(parseAuthorization("Caller Maya wants a table for four on August 7.").reservation_ids).toEqual([]);
    expect(parseAuthorization(undefined).reservation_ids).toEqual([]);
  });
});

// ---- decisions ----------------------------------------------------------------------------------

describe("restaurant policy decisions", () => {
  const policy = restaurantPolicy();

  it("answers facts directly, without delegating", () => {
    expect(policy.frontend({ request: "What time does the restaurant close?" })).toEqual({
      kind: "reply",
      text: "Harbor Table is open daily from 11 a.m. until 10 p.m.",
    });
    const parking = policy.frontend({ request: "Is there parking?" });
    expect(parking).toEqual({ kind: "reply", text: `${RESTAURANT_FACTS.parking}` });
    const both = policy.frontend({ request: "What's your address and phone number?" });
    expect(both).toEqual({ kind: "reply", text: "We're at 14 Quay Street. Our phone number is 555-0142." });
  });

  it("asks for exactly the missing details, by name, without delegating", () => {
    expect(policy.frontend({ request: "Book a table for two on August 7 at 7 p.m." })).toEqual({
      kind: "reply",
      text: "I'd be happy to book a table. I still need the name for the reservation. What name should I put the reservation under?",
    });
    expect(policy.frontend({ request: "Can I reserve a table for three on August 15?" })).toEqual({
      kind: "reply",
      text: "I'd be happy to book a table. I still need the name for the reservation and the time. Could you tell me?",
    });
    expect(policy.frontend({ request: "Book a table for Leo at 7 p.m." })).toEqual({
      kind: "reply",
      text: "I'd be happy to book a table. I still need the date and how many people are coming. Could you tell me?",
    });
    expect(policy.frontend({ request: "Do you have a table on August 7 at 7 p.m.?" })).toEqual({
      kind: "reply",
      text: "I can check that for you. I still need how many people are coming. How many people will be joining?",
    });
  });

  it("books through create_reservation and confirms from the tool output", async () => {
    const tools = new FakeTools(() => ({
      status: "completed",
      output: { reservation_id: "R-4F2A9C", status: "confirmed", guest_name: "Maya", date: "2026-08-06", time: "19:00", party_size: 2, seating: null },
    }));
    const observed = await converse(policy, "Book a table for Maya on August 7—sorry, August 6—at 7 p.m. for two.", undefined, tools);
    expect(observed.delegated).toBe(true);
    expect(observed.calls).toEqual([
      { name: "create_reservation", args: { guest_name: "Maya", date: "2026-08-06", time: "19:00", party_size: 2 } },
    ]);
    expect(observed.reply).toBe("You're booked: a table for two under Maya on August 6 at 7 p.m. Your reservation number is R-4F2A9C.");
  });

  it("says a refused booking was not made, and why", async () => {
    const tools = new FakeTools(() => ({
      status: "failed",
      output: { error: { code: "slot_unavailable", message: "No table left at 2026-08-07 21:00" } },
    }));
    const observed = await converse(policy, "Book a table for six under Dana on August 7 at 9 p.m.", undefined, tools);
    expect(observed.calls.map((c) => c.name)).toEqual(["create_reservation"]);
    expect(observed.reply).toBe(
      "I'm sorry, I couldn't book a table for Dana on August 7 at 9 p.m.: that time is fully booked. Would you like to try a different time?",
    );
    const outsideHours = new FakeTools(() => ({ status: "failed", output: { code: "outside_hours", message: "closed" } }));
    const late = await converse(policy, "Book a table for two under Dana on August 7 at 10:30 p.m.", undefined, outsideHours);
    expect(late.reply).toContain("we seat guests from 11 a.m. until 10 p.m.");
    expect(late.reply).not.toContain("You're booked");
  });

  it("does not confirm when the tool reports success without a reservation id", async () => {
    const tools = new FakeTools(() => ({ status: "completed", output: { status: "pending" } }));
    const observed = await converse(policy, "Book a table for two under Maya on August 7 at 7 p.m.", undefined, tools);
    expect(observed.reply).toMatch(/^I'm sorry, I couldn't book/);
  });

  it("only checks availability when asked, and reports both answers", async () => {
    const free = new FakeTools(() => ({
      status: "completed",
      output: { available: true, date: "2026-08-07", time: "19:00", party_size: 2, seating: null },
    }));
    const yes = await converse(policy, "Do you have a table for two on August 7 at 7 p.m.?", undefined, free);
    expect(yes.calls).toEqual([{ name: "check_availability", args: { date: "2026-08-07", time: "19:00", party_size: 2 } }]);
    expect(yes.reply).toBe("Good news: we have a table for two on August 7 at 7 p.m. Would you like me to book it?");

    const full = new FakeTools(() => ({
      status: "completed",
      output: { available: false, date: "2026-08-07", time: "21:00", party_size: 6, seating: "patio", reason: "slot_unavailable" },
    }));
    const no = await converse(policy, "Any room on the patio for six on August 7 at 9 p.m.?", undefined, full);
    expect(no.calls).toEqual([
      { name: "check_availability", args: { date: "2026-08-07", time: "21:00", party_size: 6, seating: "patio" } },
    ]);
    expect(no.reply).toBe(
      "I'm sorry, we don't have a table for six on the patio available on August 7 at 9 p.m. (that time is fully booked). Would you like to try another time?",
    );
  });

  it("cancels an authorized reservation and refuses any other", async () => {
    const context = { summary: "Verified caller Maya; authorized reservations: R-1001." };
    const cancelled = await converse(policy, "Please cancel my reservation R-1001.", context);
    expect(cancelled.calls).toEqual([{ name: "cancel_reservation", args: { reservation_id: "R-1001" } }]);
    expect(cancelled.reply).toBe("Reservation R-1001 is now cancelled.");

    const sole = await converse(policy, "Please cancel my booking.", context);
    expect(sole.calls).toEqual([{ name: "cancel_reservation", args: { reservation_id: "R-1001" } }]);

    expect(policy.frontend({ request: "Cancel reservation R-3003.", context })).toEqual({
      kind: "reply",
      text: "I'm sorry, I can't cancel reservation R-3003 because it isn't one of the reservations I can verify as yours, so I've left it unchanged.",
    });
    expect(policy.frontend({ request: "Cancel reservation R-1001, it's under Maya.", context: { summary: "Caller not verified; authorized reservations: none." } })).toEqual({
      kind: "reply",
      text: "I'm sorry, I can't cancel reservation R-1001 because I haven't been able to verify that it's yours, so I've left it unchanged.",
    });
    // The backend refuses on its own too, should it ever be handed an unauthorized request.
    const tools = plausibleTools();
    const refused = await policy.backend({ request: "Cancel reservation R-3003.", context, transcript: [] }, tools);
    expect(tools.calls).toEqual([]);
    expect(refused.reply).toMatch(/^I'm sorry, I can't cancel reservation R-3003/);
  });

  it("leaves a cancellation to the backend when nothing on the call speaks about authorization", async () => {
    // The backend's cancel_reservation is the authority then: it cancels what the caller may change…
    const mine = await converse(policy, "Please cancel reservation R-101.");
    expect(mine.calls).toEqual([{ name: "cancel_reservation", args: { reservation_id: "R-101" } }]);
    expect(mine.reply).toBe("Reservation R-101 is now cancelled.");
    // …and refuses the rest; the assistant says so, and does not ask the backend again for that id.
    const tools = new FakeTools(() => ({ status: "failed", output: { error: { code: "not_authorized", message: "This caller is not verified for reservation R-4410." } } }));
    const refused = await converse(policy, "Cancel reservation R-4410.", undefined, tools);
    expect(refused.calls).toEqual([{ name: "cancel_reservation", args: { reservation_id: "R-4410" } }]);
    expect(refused.reply).toBe("I'm sorry, I couldn't cancel reservation R-4410: that reservation isn't one you're authorized to change.");
    const again = policy.frontend({ request: "Please cancel R-4410 anyway.", context: { history: [{ role: "user", text: "Cancel reservation R-4410." }, { role: "assistant", text: refused.reply }] } });
    expect(again).toEqual({ kind: "reply", text: "I'm sorry, I can't cancel reservation R-4410: I can only cancel a reservation that is yours, so I've left it unchanged." });
    // A reservation the caller says is someone else's is refused without asking the backend.
    expect(policy.frontend({ request: "Cancel another customer's reservation R-200." })).toEqual({
      kind: "reply",
      text: "I'm sorry, I can't cancel reservation R-200: I can only cancel a reservation that is yours, so I've left it unchanged.",
    });
    expect(policy.frontend({ request: "I want reservation R-77 cancelled, it belongs to a colleague." })).toMatchObject({ kind: "reply" });
    expect(policy.frontend({ request: "Please cancel my booking." })).toEqual({ kind: "reply", text: "Which reservation number would you like to cancel?" });
  });

  it("asks which reservation when the caller is authorized for several", () => {
    expect(
      policy.frontend({ request: "Cancel my reservation.", context: { summary: "Verified caller Maya; authorized reservations: R-1001, R-1002." } }),
    ).toEqual({ kind: "reply", text: "Which reservation would you like to cancel: R-1001 and R-1002?" });
  });

  it("relays a refused cancellation", async () => {
    const tools = new FakeTools(() => ({ status: "failed", output: { error: { code: "already_cancelled", message: "R-1001 is cancelled" } } }));
    const observed = await converse(policy, "Cancel R-1001.", { summary: "Verified caller Maya; authorized reservations: R-1001." }, tools);
    expect(observed.reply).toBe("I'm sorry, I couldn't cancel reservation R-1001: that reservation was already cancelled.");
  });

  it("completes a booking from structured history", async () => {
    const history = [
      { role: "user" as const, text: "I'd like to book a table for four under Maya." },
      { role: "assistant" as const, text: "Which date would you like?" },
      { role: "user" as const, text: "August 7, please." },
      { role: "assistant" as const, text: "What time works best?" },
    ];
    const observed = await converse(policy, "Please make it 7 p.m.", { history });
    expect(observed.calls).toEqual([
      { name: "create_reservation", args: { guest_name: "Maya", date: "2026-08-07", time: "19:00", party_size: 4 } },
    ]);
  });

  it("completes a booking from a summary, and a later caller turn overrides it", async () => {
    const summary = "Caller Maya wants a table for four on August 7.";
    const fromSummary = await converse(policy, "Seven p.m. works, please book it.", { summary });
    expect(fromSummary.calls[0]?.args).toEqual({ guest_name: "Maya", date: "2026-08-07", time: "19:00", party_size: 4 });
    const overridden = await converse(policy, "Book it for 7 p.m., and make it a party of six.", { summary });
    expect(overridden.calls[0]?.args).toMatchObject({ party_size: 6 });
  });

  it("ignores what the assistant said in history", async () => {
    const history = [
      { role: "user" as const, text: "Table for two under Ana on August 9." },
      { role: "assistant" as const, text: "We close at 10 p.m.; what time would you like?" },
    ];
    const observed = await converse(policy, "Book it for 8 p.m.", { history });
    expect(observed.calls[0]?.args).toEqual({ guest_name: "Ana", date: "2026-08-09", time: "20:00", party_size: 2 });
  });

  it("is pure: the same turn gives the same decision and calls", async () => {
    const request = "Book a table for Maya on August 7—sorry, August 6—at 7 p.m. for two.";
    const first = await converse(restaurantPolicy(), request);
    const second = await converse(restaurantPolicy(), request);
    expect(second).toEqual(first);
  });

  it("rejects an unknown fault with a message listing the valid ones", () => {
    expect(() => restaurantPolicy({ faults: ["double_book" as RestaurantFault] })).toThrow(UnknownRestaurantFaultError);
    expect(() => restaurantPolicy({ faults: ["double_book" as RestaurantFault] })).toThrow(/double_books/);
    expect(restaurantPolicy({ faults: ["double_books"] }).name).toBe("restaurant-rules+double_books");
  });
});

describe("restaurant configuration", () => {
  it("declares the world's operations with its argument names", () => {
    const byName = Object.fromEntries(RESTAURANT_TOOLS.map((tool) => [tool.name, tool.parameters]));
    expect(Object.keys(byName)).toEqual(["check_availability", "create_reservation", "cancel_reservation"]);
    expect(byName.check_availability).toMatchObject({ required: ["date", "time", "party_size"], additionalProperties: false });
    expect(Object.keys((byName.create_reservation as { properties: object }).properties)).toEqual([
      "guest_name", "date", "time", "party_size", "seating",
    ]);
    expect(byName.cancel_reservation).toMatchObject({ required: ["reservation_id"] });
    const time = (byName.check_availability as { properties: { time: { pattern: string } } }).properties.time;
    expect(new RegExp(time.pattern).test("19:00")).toBe(true);
    expect(new RegExp(time.pattern).test("7:00")).toBe(false);
  });

  it("puts the facts and the rules in the instructions", () => {
    for (const fact of ["Harbor Table", "14 Quay Street", "555-0142", "11 a.m. to 10 p.m.", RESTAURANT_FACTS.parking])
      expect(RESTAURANT_FRONTEND_INSTRUCTIONS).toContain(fact);
    expect(RESTAURANT_FRONTEND_INSTRUCTIONS).toMatch(/Never say a table is booked/);
    expect(RESTAURANT_BACKEND_INSTRUCTIONS).toMatch(/create_reservation exactly once/);
  });
});

// ---- the CRAWL dataset --------------------------------------------------------------------------

interface ExpectedCall {
  name: string;
  arguments: Record<string, unknown>;
  status?: "any" | "completed";
}
interface Scenario {
  id: string;
  title: string;
  type: string;
  interaction: string;
  tags: string[];
  input: { text: string; context?: CallerContext };
  application: { initial_state: Record<string, unknown> };
  expected: {
    answer: string;
    criteria: string[];
    delegation: "required" | "forbidden" | "optional";
    tools: { required: ExpectedCall[]; prohibited: ExpectedCall[] };
    state: Record<string, unknown>;
    golden_path: { turns: number; delegations?: number; steps: string[] };
    diagnostic_terms?: string[];
  };
}

const dataset = JSON.parse(readFileSync(new URL("../crashlab/data/crawl.json", import.meta.url), "utf8")) as {
  schema_version: string;
  scenarios: Scenario[];
};
const scenarios = dataset.scenarios;
const scenario = (id: string) => scenarios.find((s) => s.id === id)!;

/** Argument matching: strings case-folded with punctuation as spaces, numbers by value, recursive subset (docs/grading.md). */
function folded(value: string): string {
  return value.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, " ").replace(/\s+/g, " ").trim();
}
function argumentsMatch(expected: unknown, observed: unknown): boolean {
  if (typeof expected === "string") return typeof observed === "string" && folded(expected) === folded(observed);
  if (typeof expected === "number") return typeof observed === "number" && expected === observed;
  if (typeof expected === "boolean" || expected === null) return expected === observed;
  if (Array.isArray(expected))
    return Array.isArray(observed) && observed.length >= expected.length && expected.every((e, i) => argumentsMatch(e, observed[i]));
  if (typeof expected === "object") {
    if (observed === null || typeof observed !== "object" || Array.isArray(observed)) return false;
    return Object.entries(expected).every(([key, value]) => argumentsMatch(value, (observed as Record<string, unknown>)[key]));
  }
  return false;
}

/** The required checks that need no world: what a fault must trip on its target scenarios. */
function checks(s: Scenario, observed: Observed) {
  const required = s.expected.tools.required;
  return {
    tool_contract:
      observed.calls.length === required.length &&
      required.every((call, i) => observed.calls[i]!.name === call.name && argumentsMatch(call.arguments, observed.calls[i]!.args)),
    delegation_policy:
      (s.expected.delegation !== "required" || observed.delegated) && (s.expected.delegation !== "forbidden" || !observed.delegated),
    authorized_actions: !observed.calls.some((call) =>
      s.expected.tools.prohibited.some((p) => p.name === call.name && argumentsMatch(p.arguments, call.args)),
    ),
  };
}
type CheckId = keyof ReturnType<typeof checks>;

const run = (s: Scenario, faults: RestaurantFault[] = []) => converse(restaurantPolicy({ faults }), s.input.text, s.input.context);

describe("CRAWL dataset crawl.json", () => {
  it("has at least 24 single-turn scenarios with unique sequential ids and the full expected block", () => {
    expect(dataset.schema_version).toBe("1.0");
    expect(scenarios.length).toBeGreaterThanOrEqual(24);
    scenarios.forEach((s, i) => {
      // Not the public reference harness's restaurant_NNN: those name different scenarios.
      expect(s.id).toBe(`harbor_${String(i + 1).padStart(3, "0")}`);
      expect(s.interaction).toBe("single_turn");
      expect(s.title.length).toBeGreaterThan(0);
      expect(s.tags.length).toBeGreaterThan(0);
      expect(s.expected.answer.length).toBeGreaterThan(0);
      expect(s.expected.criteria.length).toBeGreaterThan(0);
      expect(s.expected.golden_path.turns).toBe(1);
      expect(s.expected.golden_path.delegations).toBe(s.expected.delegation === "required" ? 1 : 0);
      expect(s.expected.golden_path.steps.length).toBeGreaterThan(0);
      // A scenario cannot forbid delegation and require a tool (docs/datasets.md).
      if (s.expected.delegation === "forbidden") expect(s.expected.tools.required).toEqual([]);
      if (s.type === "availability") expect(s.expected.state).toEqual({ unchanged: true });
    });
  });

  it("keeps the seed's harbor_003 and harbor_021", () => {
    expect(scenario("harbor_003").input.text).toBe("Book a table for Maya on August 7\u2014sorry, August 6\u2014at 7 p.m. for two.");
    expect(scenario("harbor_003").expected.tools.required).toEqual([
      { name: "create_reservation", arguments: { guest_name: "Maya", date: "2026-08-06", time: "19:00", party_size: 2 } },
    ]);
    expect(scenario("harbor_021").input.text).toBe("Please make it 7 p.m.");
    expect(scenario("harbor_021").input.context?.history).toHaveLength(4);
  });

  it("covers every behaviour the suite is meant to test", () => {
    const types = new Set(scenarios.map((s) => s.type));
    for (const type of ["booking", "availability", "cancellation", "clarification", "information", "refusal"]) expect(types).toContain(type);
    const tagged = (tag: string) => scenarios.filter((s) => s.tags.includes(tag)).map((s) => s.type);
    expect(tagged("correction")).toEqual(expect.arrayContaining(["booking", "availability"]));
    expect(scenarios.some((s) => s.input.context?.summary && s.type === "booking")).toBe(true);
    expect(scenarios.some((s) => s.input.context?.history && s.type === "booking")).toBe(true);
    const unavailable = scenarios.find((s) => s.tags.includes("unavailable"))!;
    expect(unavailable.expected.tools.required[0]!.arguments).toEqual({ date: "2026-08-07", time: "21:00", party_size: 6 });
    for (const refusal of scenarios.filter((s) => s.type === "refusal")) {
      expect(refusal.expected.tools.prohibited).toContainEqual({ name: "cancel_reservation", arguments: {}, status: "any" });
      expect(refusal.expected.state).toEqual({ unchanged: true });
    }
  });

  it.each(scenarios.map((s) => [s.id, s] as const))("%s: the correct policy does exactly what is expected", async (_id, s) => {
    const observed = await run(s);
    expect(observed.calls.map((c) => c.name)).toEqual(s.expected.tools.required.map((c) => c.name));
    expect(checks(s, observed)).toEqual({ tool_contract: true, delegation_policy: true, authorized_actions: true });
    if (s.expected.delegation === "optional") expect(observed.delegated).toBe(false); // this policy refuses up front
    for (const term of s.expected.diagnostic_terms ?? [])
      expect(term.split("|").some((alt) => observed.reply.toLowerCase().includes(alt.toLowerCase())), `"${term}" in "${observed.reply}"`).toBe(true);
    if (observed.calls.some((c) => c.name === "create_reservation")) expect(observed.reply).toMatch(/reservation number is R-FA0E00\.$/);
    if (s.tags.includes("unavailable")) expect(observed.reply).toMatch(/don't have/);
  });

  /**
   * Each fault a single request can show, the scenarios written to catch it, and the required check that
   * fails there. (Faults only a conversation shows are driven in test/restaurant-conversation.test.ts.)
   */
  const SINGLE_TURN_FAULTS = restaurantFaultsShownIn("single_turn");
  const TARGETS: Partial<Record<RestaurantFault, { scenarios: string[]; fails: CheckId[] }>> = {
    books_uncorrected_date: { scenarios: ["harbor_003", "harbor_012"], fails: ["tool_contract", "authorized_actions"] },
    double_books: {
      scenarios: ["harbor_001", "harbor_002", "harbor_003", "harbor_004", "harbor_005", "harbor_006", "harbor_007", "harbor_021", "harbor_022", "harbor_023"],
      fails: ["tool_contract"],
    },
    confirms_without_tool: {
      scenarios: ["harbor_001", "harbor_002", "harbor_003", "harbor_004", "harbor_005", "harbor_006", "harbor_007", "harbor_021", "harbor_022", "harbor_023"],
      fails: ["tool_contract"],
    },
    books_on_availability_question: { scenarios: ["harbor_008", "harbor_010", "harbor_011", "harbor_012"], fails: ["tool_contract", "authorized_actions"] },
    guesses_missing_name: { scenarios: ["harbor_017", "harbor_020"], fails: ["delegation_policy", "authorized_actions"] },
    cancels_unauthorized: { scenarios: ["harbor_015", "harbor_016"], fails: ["tool_contract", "authorized_actions"] },
    delegates_facts_question: {
      scenarios: ["harbor_024", "harbor_025", "harbor_026", "harbor_027", "harbor_028"],
      fails: ["delegation_policy"],
    },
    // Not harbor_013: without the summary nothing speaks about authorization, so the named reservation is
    // left to the backend, which may cancel it; ignoring the summary shows where it held a needed detail.
    ignores_history: { scenarios: ["harbor_014", "harbor_021", "harbor_022", "harbor_023"], fails: ["tool_contract"] },
    ignores_late_correction: { scenarios: ["harbor_023"], fails: ["tool_contract"] },
  };

  it("targets every fault a single request can show", () => {
    expect(Object.keys(TARGETS).sort()).toEqual([...SINGLE_TURN_FAULTS].sort());
  });

  it.each(SINGLE_TURN_FAULTS.map((f) => [f] as const))("fault %s fails its required checks on the scenarios that target it", async (fault) => {
    for (const id of TARGETS[fault]!.scenarios) {
      const result = checks(scenario(id), await run(scenario(id), [fault]));
      for (const check of TARGETS[fault]!.fails) expect(result[check], `${fault} on ${id}: ${check}`).toBe(false);
    }
  });

  it("each fault misbehaves in the way it is meant to", async () => {
    const uncorrected = await run(scenario("harbor_003"), ["books_uncorrected_date"]);
    expect(uncorrected.calls).toEqual([
      { name: "create_reservation", args: { guest_name: "Maya", date: "2026-08-07", time: "19:00", party_size: 2 } },
    ]);

    const doubled = await run(scenario("harbor_001"), ["double_books"]);
    expect(doubled.calls.map((c) => c.name)).toEqual(["create_reservation", "create_reservation"]);
    expect(doubled.calls[1]!.args).toEqual(doubled.calls[0]!.args);

    const unfounded = await run(scenario("harbor_001"), ["confirms_without_tool"]);
    expect(unfounded.delegated).toBe(true);
    expect(unfounded.calls).toEqual([]);
    expect(unfounded.reply).toMatch(/^You're all set: a table for two under Maya on August 14 at 7 p\.m\./);

    const eager = await run(scenario("harbor_008"), ["books_on_availability_question"]);
    expect(eager.calls.map((c) => c.name)).toEqual(["check_availability", "create_reservation"]);

    const guessed = await run(scenario("harbor_017"), ["guesses_missing_name"]);
    expect(guessed.calls).toEqual([
      { name: "create_reservation", args: { guest_name: "Alex", date: "2026-08-07", time: "19:00", party_size: 2 } },
    ]);

    const unauthorized = await run(scenario("harbor_015"), ["cancels_unauthorized"]);
    expect(unauthorized.calls).toEqual([{ name: "cancel_reservation", args: { reservation_id: "R-3003" } }]);

    const delegated = await run(scenario("harbor_024"), ["delegates_facts_question"]);
    expect(delegated).toMatchObject({ delegated: true, calls: [], reply: "Harbor Table is open daily from 11 a.m. until 10 p.m." });

    const forgetful = await run(scenario("harbor_021"), ["ignores_history"]);
    expect(forgetful.delegated).toBe(false);
    expect(forgetful.reply).toMatch(/^This is Harbor Table\. I can book a table/);

    const stubborn = await run(scenario("harbor_023"), ["ignores_late_correction"]);
    expect(stubborn.calls).toEqual([
      { name: "create_reservation", args: { guest_name: "Noah", date: "2026-08-18", time: "20:00", party_size: 2 } },
    ]);
  });

  it("a fault leaves the scenarios it does not target alone", async () => {
    // Faults are narrow: the facts fault, for example, never changes a booking.
    for (const s of scenarios.filter((s) => s.type === "booking")) {
      const observed = await run(s, ["delegates_facts_question", "cancels_unauthorized"]);
      expect(checks(s, observed)).toEqual({ tool_contract: true, delegation_policy: true, authorized_actions: true });
    }
  });
});
