/** The simulator's pacing: how long it waits, thinks and speaks, on the session's clock. */

/** Simulator pacing; defaults in DEFAULT_SIMULATOR_TIMING. */
export interface SimulatorTiming {
  /** Silence after a recognized utterance that ends the caller's turn. */
  endOfTurnSilenceMs: number;
  /** Frontend reaction time between end of turn and deciding. */
  frontendDelayMs: number;
  /** Backend think time before each function call and before the final answer. */
  backendDelayMs: number;
  /** Audio per `session.output_audio.delta`. */
  outputDeltaMs: number;
  /** Input transcript fragment length. */
  transcriptFragmentMs: number;
  /** Gap before speech that starts a new turn (delegated results), so it is not merged into the acknowledgement. */
  newTurnGapMs: number;
  /** Input audio between `session.usage.updated` events (the service sends about one a minute). */
  usageIntervalMs: number;
  /** Default trigger point for input-timed faults. */
  faultAtInputMs: number;
}

export const DEFAULT_SIMULATOR_TIMING: SimulatorTiming = {
  endOfTurnSilenceMs: 500,
  frontendDelayMs: 200,
  backendDelayMs: 300,
  outputDeltaMs: 160,
  transcriptFragmentMs: 200,
  newTurnGapMs: 600,
  usageIntervalMs: 1000,
  faultAtInputMs: 1000,
};
