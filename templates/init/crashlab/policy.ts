import type { AssistantPolicy, HistoryMessage, PolicyTools } from "crashlab/alpha";
import { SHOP_FACTS } from "./facts";

/*
 * The assistant's offline stand-in: a deterministic rule-based policy that drives the local GPT-Live
 * simulator (and the text target). It sees only what a real assistant sees: the caller's words, the
 * conversation so far and the context; its backend reaches the world only through tools.
 */

export interface ShopPolicyOptions {
  /** A deliberate defect, to show the evaluation catching it: book the same service twice. */
  double_books?: boolean;
}

type Intent = "facts" | "booking" | "availability" | "goodbye" | "none";

const DAY = new RegExp(`\\b(${SHOP_FACTS.days.join("|")})\\b`, "i");
const NAME = /\b(?:this is|i'm|i am|my name is|name is|for|under)\s+([A-Z][a-z]+)\b/g;
const FACTS = /\b(?:open|close|hours|address|where are you)\b/i;
const AVAILABILITY = /\b(?:free|available|any (?:room|slots?|space)|do you have)\b/i;
const BOOKING = /\b(?:book|schedule|appointment|bring (?:it|my bike) in)\b/i;
const GOODBYE = /\b(?:bye|goodbye|that's all)\b/i;

function intentOf(text: string): Intent {
  return FACTS.test(text) ? "facts" : BOOKING.test(text) ? "booking" : AVAILABILITY.test(text) ? "availability" : GOODBYE.test(text) ? "goodbye" : "none";
}

/** A name after "this is", "under"…, never a day ("for Tuesday"). */
function nameIn(text: string): string | undefined {
  for (const match of text.matchAll(NAME)) if (!DAY.test(match[1]!)) return match[1];
  return undefined;
}

/**
 * What the caller wants, read from this turn and the caller's earlier turns: a turn that only gives a
 * detail ("Thursday, please.") continues the request before it. Details given earlier still count.
 */
function read(request: string, history: readonly HistoryMessage[] = []) {
  const said = [...history.filter((m) => m.role === "user").map((m) => m.text), request];
  let intent = intentOf(request);
  for (let i = said.length - 2; intent === "none" && i >= 0; i--) intent = intentOf(said[i]!);
  const latest = <T>(find: (text: string) => T | undefined) => said.map(find).filter((v) => v !== undefined).at(-1);
  const day = latest((text) => DAY.exec(text)?.[1]?.toLowerCase());
  const name = latest(nameIn);
  return { day, name, intent };
}

const titled = (day: string) => day.charAt(0).toUpperCase() + day.slice(1);

export function shopPolicy(options: ShopPolicyOptions = {}): AssistantPolicy {
  return {
    name: "bike-shop-rules",
    version: "1.1.0",
    frontend({ request, context }) {
      const { day, name, intent } = read(request, context?.history);
      if (intent === "facts") return { kind: "reply", text: `${SHOP_FACTS.name} is open ${SHOP_FACTS.hours} We're at ${SHOP_FACTS.address}.` };
      if (intent === "goodbye") return { kind: "reply", text: `You're welcome. Thanks for calling ${SHOP_FACTS.name}, goodbye!` };
      if (intent === "none") return { kind: "reply", text: "I can book a bike service or check a day for you. What would you like?" };
      if (!day) return { kind: "reply", text: "Which day would you like?" };
      if (intent === "booking" && !name) return { kind: "reply", text: "I can book that. What name should I put the booking under?" };
      return { kind: "delegate", acknowledgement: "One moment, let me check the book." };
    },
    async backend({ request, transcript }, tools: PolicyTools) {
      const { day, name, intent } = read(request, transcript);
      if (intent === "availability") {
        const result = await tools.call("check_day", { day });
        const free = (result.output as { free?: boolean }).free === true;
        return { reply: free ? `Yes, we have a service slot free on ${titled(day!)}. Nothing is booked yet.` : `Sorry, ${titled(day!)} is fully booked.` };
      }
      const result = await tools.call("book_service", { customer_name: name, day });
      if (options.double_books) await tools.call("book_service", { customer_name: name, day });
      if (result.status !== "completed") return { reply: `Sorry, I couldn't book ${titled(day!)}: it is fully booked.` };
      const { booking_id } = result.output as { booking_id: string };
      return { reply: `You're booked in for a service on ${titled(day!)}, ${name}. Your booking number is ${booking_id}.` };
    },
  };
}
