import { policyTarget, type DelegationMode, type TargetAdapter } from "crashlab/alpha";
import { RESTAURANT_FRONTEND_INSTRUCTIONS } from "../../examples/restaurant/instructions";
import { RESTAURANT_FAULTS, restaurantPolicy, type RestaurantFault } from "../../examples/restaurant/policy";
import { RESTAURANT_TOOLS } from "../../examples/restaurant/tools";

/** The restaurant assistant as a text-level target, optionally with deliberate faults. */
export function restaurantTarget(options: { faults?: RestaurantFault[]; delegation?: DelegationMode } = {}): TargetAdapter {
  const faults = options.faults ?? [];
  return policyTarget({
    policy: restaurantPolicy({ faults }),
    instructions: RESTAURANT_FRONTEND_INSTRUCTIONS,
    tools: RESTAURANT_TOOLS,
    delegation: options.delegation ?? "responses",
    settings: { faults },
  });
}

/**
 * Named targets: the correct assistant under both delegation modes, and one faulty variant per
 * deliberate defect (`faulty_<fault>`), so `crashlab run --target faulty_double_books` shows the
 * evaluation catching it.
 */
export function restaurantTargets(): Record<string, TargetAdapter> {
  const targets: Record<string, TargetAdapter> = {
    restaurant: restaurantTarget(),
    restaurant_client: restaurantTarget({ delegation: "client" }),
  };
  for (const fault of RESTAURANT_FAULTS) targets[`faulty_${fault.id}`] = restaurantTarget({ faults: [fault.id] });
  return targets;
}
