/** The airline assistant as targets: over GPT-Live (the local simulator offline, the real service with --live) and as text. */
import { gptLiveTarget, policyTarget, type TargetEntry, type TargetSettings } from "crashlab/alpha";
import { AIRLINE_BACKEND_INSTRUCTIONS, AIRLINE_FRONTEND_INSTRUCTIONS } from "../../instructions";
import { airlinePolicy } from "../../policy";
import { AIRLINE_TOOLS } from "../../tools";

function voiceTarget(settings: TargetSettings) {
  return gptLiveTarget({
    settings,
    instructions: AIRLINE_FRONTEND_INSTRUCTIONS,
    backend_instructions: AIRLINE_BACKEND_INSTRUCTIONS,
    tools: AIRLINE_TOOLS,
    offline: { policy: airlinePolicy() },
  });
}

function textTarget(settings: TargetSettings) {
  return policyTarget({
    policy: airlinePolicy(),
    instructions: AIRLINE_FRONTEND_INSTRUCTIONS,
    tools: AIRLINE_TOOLS,
    delegation: settings.delegation,
  });
}

/** `airline` is the assistant over GPT-Live; `airline_text` the same policy without audio (CRAWL only). */
export function airlineTargets(): Record<string, TargetEntry> {
  return {
    airline: (settings) => voiceTarget(settings),
    airline_text: (settings) => textTarget(settings),
  };
}
