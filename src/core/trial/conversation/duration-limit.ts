/** How long one RUN conversation may last: the command line's override, else the case's own limit, else one derived from its agenda. */
import type { Scenario } from "../../dataset/schema";

/** No conversation gets less than the old fixed cap: a short agenda still has room for slow answers. */
export const MIN_DERIVED_DURATION_MS = 90_000;
/** Greeting, goodbye and settling, on top of the turns. */
export const DURATION_BASE_MS = 30_000;
/**
 * Time allowed per expected turn. The bundled correct assistant takes 5.5–8.4 s per golden turn offline,
 * so this leaves room for answers twice as long and an extra confirmation question or two.
 */
export const DURATION_PER_TURN_MS = 20_000;

export interface DurationLimit {
  ms: number;
  source: "command_line" | "case" | "derived";
  /** Derived limits: the turns the conversation is expected to take. */
  expected_turns?: number;
}

/**
 * Turns a conversation is expected to take: the golden path's count when the dataset gives one, and at
 * least an opening plus a question and an answer per agenda item (the larger of the two).
 */
export function expectedTurns(scenario: Pick<Scenario, "expected" | "simulation_parameters">): number {
  const agenda = scenario.simulation_parameters?.agenda.length ?? 0;
  return Math.max(scenario.expected.golden_path?.turns ?? 0, 2 * agenda + 1);
}

/**
 * The conversation's duration limit: `--max-duration-seconds` when given, else the scenario's
 * `simulation_parameters.max_duration_seconds`, else 30 s + 20 s per expected turn (at least 90 s).
 */
export function conversationDurationLimit(scenario: Pick<Scenario, "expected" | "simulation_parameters">, override_ms?: number): DurationLimit {
  if (override_ms !== undefined) return { ms: override_ms, source: "command_line" };
  const declared = scenario.simulation_parameters?.max_duration_seconds;
  if (declared !== undefined) return { ms: Math.round(declared * 1000), source: "case" };
  const turns = expectedTurns(scenario);
  return { ms: Math.max(MIN_DERIVED_DURATION_MS, DURATION_BASE_MS + DURATION_PER_TURN_MS * turns), source: "derived", expected_turns: turns };
}

/** The limit as a rationale states it: "170 s (derived from the case: 7 expected turns)". */
export function describeDurationLimit(limit: DurationLimit): string {
  const s = `${limit.ms / 1000} s`;
  if (limit.source === "command_line") return `${s} (--max-duration-seconds)`;
  if (limit.source === "case") return `${s} (the case's simulation_parameters.max_duration_seconds)`;
  return `${s} (derived from the case: ${limit.expected_turns} expected turns)`;
}
