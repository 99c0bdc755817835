import { gptLiveTarget, policyTarget, toolDeclarations, type TargetEntry, type TargetSettings } from "crashlab/alpha";
import { shopPolicy, type ShopPolicyOptions } from "../policy";
import { SHOP_FACTS } from "../facts";
import { shopWorld } from "../worlds/shop";

const INSTRUCTIONS = `You answer the phone for ${SHOP_FACTS.name}, a bike repair shop. Opening hours: ${SHOP_FACTS.hours}
Address: ${SHOP_FACTS.address}. Answer questions about these facts yourself. For booking a service or checking a
day, delegate to the backend; ask for the caller's name and the day when they are missing.`;

const BACKEND_INSTRUCTIONS = `You are the booking backend of ${SHOP_FACTS.name}. Use check_day for questions about a
day and book_service (once) to book; report only what the tools return.`;

/** The tools the assistant's backend declares: the world's operations, with their argument schemas. */
const TOOLS = toolDeclarations(shopWorld);

/** The assistant over GPT-Live: the local simulator driven by the offline policy, the real service with --live. */
function voiceTarget(settings: TargetSettings, options: ShopPolicyOptions = {}) {
  return gptLiveTarget({
    settings,
    instructions: INSTRUCTIONS,
    backend_instructions: BACKEND_INSTRUCTIONS,
    tools: TOOLS,
    offline: { policy: shopPolicy(options) },
    describe: { double_books: options.double_books ?? false },
  });
}

/** The same assistant as text: no audio, no wire protocol; a fast check of the evaluation itself. */
function textTarget(options: ShopPolicyOptions = {}) {
  return policyTarget({ policy: shopPolicy(options), instructions: INSTRUCTIONS, tools: TOOLS, settings: { double_books: options.double_books ?? false } });
}

export function shopTargets(): Record<string, TargetEntry> {
  return {
    assistant: (settings) => voiceTarget(settings),
    assistant_text: () => textTarget(),
    faulty: (settings) => voiceTarget(settings, { double_books: true }),
    faulty_text: () => textTarget({ double_books: true }),
  };
}
