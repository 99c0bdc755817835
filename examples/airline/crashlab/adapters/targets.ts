/** The airline assistant as targets: over GPT-Live (the local simulator offline, the real service with --live) and as text. */
import { gptLiveTarget, policyTarget, type TargetEntry, type TargetSettings } from "crashlab/alpha";
import { AIRLINE_BACKEND_INSTRUCTIONS, AIRLINE_FRONTEND_INSTRUCTIONS } from "../../instructions";
import { airlinePolicy, type AirlineWording } from "../../policy";
import { AIRLINE_TOOLS } from "../../tools";

function voiceTarget(settings: TargetSettings, wording: AirlineWording = "plain") {
  return gptLiveTarget({
    settings,
    instructions: AIRLINE_FRONTEND_INSTRUCTIONS,
    backend_instructions: AIRLINE_BACKEND_INSTRUCTIONS,
    tools: AIRLINE_TOOLS,
    offline: { policy: airlinePolicy({ wording }) },
    describe: { wording },
  });
}

function textTarget(settings: TargetSettings, wording: AirlineWording = "plain") {
  return policyTarget({
    policy: airlinePolicy({ wording }),
    instructions: AIRLINE_FRONTEND_INSTRUCTIONS,
    tools: AIRLINE_TOOLS,
    delegation: settings.delegation,
    settings: { wording },
  });
}

/**
 * `airline` is the assistant over GPT-Live; `airline_text` the same policy without audio (CRAWL only).
 * `airline_varied` (and `airline_varied_text`) is the same correct assistant in other natural words: it
 * should pass exactly where `airline` passes (see ../README.md for where it does not yet).
 */
export function airlineTargets(): Record<string, TargetEntry> {
  return {
    airline: (settings) => voiceTarget(settings),
    airline_text: (settings) => textTarget(settings),
    airline_varied: (settings) => voiceTarget(settings, "varied"),
    airline_varied_text: (settings) => textTarget(settings, "varied"),
  };
}
