/** What one simulated session saw and did, kept for tests and diagnostics. */
import type { LiveFaultKind } from "./faults";

/** What one session did, for tests and diagnostics. */
export interface SimulatedSessionStats {
  /** 0-based, in order of connection. */
  index: number;
  session_id?: string;
  /** Client frames in arrival order, consecutive repeats counted ("(binary)", "(malformed)", "(no type)" for non-events). */
  received: { type: string; count: number }[];
  faults: LiveFaultKind[];
  faults_fired: LiveFaultKind[];
  input_audio_ms: number;
  output_audio_ms: number;
  /** Registered utterances recognized in the input audio. */
  recognized: string[];
  /** Caller turns the frontend answered. */
  turns: string[];
  delegations: { id: string; target: "client" | "responses" }[];
  responses: number;
  function_calls: number;
  /** Codes of the `error` events sent. */
  errors_sent: string[];
  closed_reason?: string;
  socket_closed: boolean;
  /** Unexpected exceptions inside the simulator (each was also sent as `error {code: "server_error"}`). */
  internal_errors: string[];
}

/** A session's stats before anything happened. */
export function emptySessionStats(index: number): SimulatedSessionStats {
  return {
    index,
    received: [],
    faults: [],
    faults_fired: [],
    input_audio_ms: 0,
    output_audio_ms: 0,
    recognized: [],
    turns: [],
    delegations: [],
    responses: 0,
    function_calls: 0,
    errors_sent: [],
    socket_closed: false,
    internal_errors: [],
  };
}

/** Count one received frame, folding consecutive repeats. */
export function recordReceived(stats: SimulatedSessionStats, type: string): void {
  const last = stats.received.at(-1);
  if (last?.type === type) last.count++;
  else stats.received.push({ type, count: 1 });
}
