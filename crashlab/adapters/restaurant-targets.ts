import { gptLiveTarget, policyTarget, type TargetEntry, type TargetSettings } from "crashlab/alpha";
import { RESTAURANT_BACKEND_INSTRUCTIONS, RESTAURANT_FRONTEND_INSTRUCTIONS } from "../../examples/restaurant/instructions";
import { RESTAURANT_FAULTS, restaurantPolicy, type RestaurantFault } from "../../examples/restaurant/policy";
import { RESTAURANT_TOOLS } from "../../examples/restaurant/tools";

/**
 * The restaurant assistant as a GPT-Live target: against the real service with `--live`, otherwise
 * against the local GPT-Live simulator driven by the assistant's offline policy (optionally with
 * deliberate faults). Delegation mode, models and voice come from the run's settings.
 */
export function restaurantLiveTarget(settings: TargetSettings, faults: RestaurantFault[] = []) {
  if (settings.mode === "live" && faults.length > 0)
    throw new Error(`faults (${faults.join(", ")}) exist only in the offline policy that drives the local simulator; run against the local simulator (without --live or --endpoint)`);
  return gptLiveTarget({
    settings,
    instructions: RESTAURANT_FRONTEND_INSTRUCTIONS,
    backend_instructions: RESTAURANT_BACKEND_INSTRUCTIONS,
    tools: RESTAURANT_TOOLS,
    offline: { policy: restaurantPolicy({ faults }) },
    describe: { faults },
  });
}

/** The restaurant assistant at the text level: the same policy, no audio and no wire protocol. */
export function restaurantTextTarget(options: { faults?: RestaurantFault[]; settings?: TargetSettings } = {}) {
  const faults = options.faults ?? [];
  return policyTarget({
    policy: restaurantPolicy({ faults }),
    instructions: RESTAURANT_FRONTEND_INSTRUCTIONS,
    tools: RESTAURANT_TOOLS,
    delegation: options.settings?.delegation ?? "responses",
    settings: { faults },
  });
}

/**
 * Named targets. `restaurant` is the assistant over GPT-Live; `faulty_<fault>` carries one deliberate
 * defect so a run shows the evaluation catching it; `text_…` are the same assistants at the text level
 * (fast checks of the evaluation itself, no audio).
 */
export function restaurantTargets(): Record<string, TargetEntry> {
  const targets: Record<string, TargetEntry> = {
    restaurant: (settings) => restaurantLiveTarget(settings),
    text_restaurant: (settings) => restaurantTextTarget({ settings }),
  };
  for (const fault of RESTAURANT_FAULTS) {
    targets[`faulty_${fault.id}`] = (settings) => restaurantLiveTarget(settings, [fault.id]);
    targets[`text_faulty_${fault.id}`] = (settings) => restaurantTextTarget({ faults: [fault.id], settings });
  }
  return targets;
}
