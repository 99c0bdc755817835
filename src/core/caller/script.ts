/** The simulated caller's script, copied from a multi-turn scenario without the evaluator's expectations. */

import type { Scenario } from "../dataset/schema";
import type { Lexicon } from "../language/vocabulary";
import type { CallerScript } from "./types";

/**
 * The caller's script from a multi-turn scenario: its opening words (when it opens the call), goal,
 * persona, known facts, agenda and expectations — and nothing else. `expected` (answer, criteria, tools,
 * state, golden path, procedure) is the evaluator's and is never copied here. Deep copies, so the caller
 * never holds a reference into the scenario. `lexicon`: the world's words, to read the assistant with.
 */
export function callerScript(scenario: Scenario, opening: "caller" | "assistant", lexicon?: Lexicon): CallerScript {
  const sim = scenario.simulation_parameters;
  if (!sim) throw new Error(`scenario "${scenario.id}" has no simulation_parameters: only multi-turn scenarios have a simulated caller`);
  const script: CallerScript = structuredClone({
    request: scenario.input.text,
    opens: opening,
    goal: sim.goal,
    persona: sim.persona,
    known_facts: sim.known_facts,
    agenda: sim.agenda,
    expectations: sim.expectations,
  });
  return lexicon ? { ...script, lexicon } : script;
}
