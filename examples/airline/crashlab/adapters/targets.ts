/** The airline assistant as targets: over GPT-Live (the local simulator offline, the real service with --live) and as text. */
import { gptLiveTarget, policyTarget, type TargetEntry, type TargetSettings } from "crashlab/alpha";
import { AIRLINE_BACKEND_INSTRUCTIONS, AIRLINE_FRONTEND_INSTRUCTIONS } from "../../instructions";
import { AIRLINE_FAULTS, airlinePolicy, type AirlineFault, type AirlineWording } from "../../policy";
import { AIRLINE_TOOLS } from "../../tools";

function voiceTarget(settings: TargetSettings, wording: AirlineWording = "plain", faults: AirlineFault[] = []) {
  return gptLiveTarget({
    settings,
    instructions: AIRLINE_FRONTEND_INSTRUCTIONS,
    backend_instructions: AIRLINE_BACKEND_INSTRUCTIONS,
    tools: AIRLINE_TOOLS,
    offline: { policy: airlinePolicy({ wording, faults }) },
    describe: { wording, faults },
  });
}

function textTarget(settings: TargetSettings, wording: AirlineWording = "plain", faults: AirlineFault[] = []) {
  return policyTarget({
    policy: airlinePolicy({ wording, faults }),
    instructions: AIRLINE_FRONTEND_INSTRUCTIONS,
    tools: AIRLINE_TOOLS,
    delegation: settings.delegation,
    settings: { wording, faults },
  });
}

/**
 * `airline` is the assistant over GPT-Live; `airline_text` the same policy without audio (CRAWL only).
 * `airline_varied` (and `airline_varied_text`) is the same correct assistant in other natural words: it
 * should pass exactly where `airline` passes (see ../README.md for where it does not yet). `faulty_<fault>`
 * (and `faulty_<fault>_text`) carries one deliberate defect, which a run should fail on.
 */
export function airlineTargets(): Record<string, TargetEntry> {
  const targets: Record<string, TargetEntry> = {
    airline: (settings) => voiceTarget(settings),
    airline_text: (settings) => textTarget(settings),
    airline_varied: (settings) => voiceTarget(settings, "varied"),
    airline_varied_text: (settings) => textTarget(settings, "varied"),
  };
  for (const { id } of AIRLINE_FAULTS) {
    targets[`faulty_${id}`] = (settings) => voiceTarget(settings, "plain", [id]);
    targets[`faulty_${id}_text`] = (settings) => textTarget(settings, "plain", [id]);
  }
  return targets;
}
