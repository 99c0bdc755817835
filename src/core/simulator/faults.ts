/** Fault injection: the misbehaviours a simulated session can be told to show, and when each strikes. */
import type { SimulatorTiming } from "./timing";

export const LIVE_FAULT_KINDS = [
  "drop_before_started",
  "no_session_closed",
  "expired",
  "fatal_error",
  "binary_frame",
  "unknown_event",
  "stall_mid_response",
  "malformed_json",
  "odd_length_pcm",
] as const;
export type LiveFaultKind = (typeof LIVE_FAULT_KINDS)[number];

/**
 * A fault to inject into one session. Where it strikes:
 * - drop_before_started: the socket is dropped on receiving `session.start`;
 * - no_session_closed: `session.close` closes the socket without `session.closed`;
 * - stall_mid_response: halfway through the first utterance the server goes silent for good, socket open;
 * - odd_length_pcm: the first audio delta has an odd number of bytes;
 * - expired, fatal_error, binary_frame, unknown_event, malformed_json: once the input audio reaches
 *   `atInputMs` (default 1000 ms): `session.closed {reason: "expired"}` then close; `error
 *   {code: "insufficient_quota"}` then close; a binary frame; an unknown event type; a non-JSON text frame.
 */
export type LiveFault = LiveFaultKind | { kind: LiveFaultKind; atInputMs?: number };

/** A fault of a session's plan, with its trigger point resolved. */
export interface PlannedFault {
  kind: LiveFaultKind;
  atInputMs: number;
}

/** A fault plan names a fault that does not exist. */
export class UnknownLiveFaultError extends Error {
  constructor(readonly fault: string) {
    super(`Unknown GPT-Live simulator fault "${fault}". Use one of: ${LIVE_FAULT_KINDS.join(", ")}.`);
    this.name = "UnknownLiveFaultError";
  }
}

export function resolveFaults(faults: readonly LiveFault[], timing: SimulatorTiming): PlannedFault[] {
  return faults.map((fault) => {
    const kind = typeof fault === "string" ? fault : fault.kind;
    if (!(LIVE_FAULT_KINDS as readonly string[]).includes(kind)) throw new UnknownLiveFaultError(String(kind));
    const atInputMs = typeof fault === "string" ? timing.faultAtInputMs : (fault.atInputMs ?? timing.faultAtInputMs);
    return { kind, atInputMs };
  });
}

/** What a session lends its fault plan to strike with. */
export interface FaultTarget {
  live(): boolean;
  /** End with `session.closed {reason}` and close the socket. */
  finish(reason: string): void;
  stopVoice(): void;
  error(code: string, message: string, options: { type: string }): void;
  closeSocket(code: number, reason: string): void;
  sendBinary(bytes: Buffer): void;
  sendText(text: string): void;
  nextEventId(): string;
}

/** One session's planned faults; each fires at most once, and every firing is logged in `firedLog`. */
export class FaultPlan {
  private readonly fired = new Set<LiveFaultKind>();

  constructor(
    private readonly planned: readonly PlannedFault[],
    private readonly firedLog: LiveFaultKind[],
  ) {}

  /** Whether the fault is planned for this session; marks it fired (each fires once). */
  take(kind: LiveFaultKind): boolean {
    if (this.fired.has(kind) || !this.planned.some((f) => f.kind === kind)) return false;
    this.fired.add(kind);
    this.firedLog.push(kind);
    return true;
  }

  /** Fire the input-timed faults the input audio has reached. */
  fireDue(inputMs: number, session: FaultTarget): void {
    for (const { kind, atInputMs } of this.planned) {
      if (this.fired.has(kind) || inputMs < atInputMs || !session.live()) continue;
      switch (kind) {
        case "expired":
          this.take(kind);
          session.finish("expired");
          break;
        case "fatal_error":
          this.take(kind);
          session.stopVoice();
          session.error("insufficient_quota", "You exceeded your current quota; check your plan and billing details.", { type: "insufficient_quota" });
          session.closeSocket(1008, "insufficient_quota");
          break;
        case "binary_frame":
          this.take(kind);
          session.sendBinary(Buffer.from([0xde, 0xad, 0xbe, 0xef]));
          break;
        case "unknown_event":
          this.take(kind);
          session.sendText(JSON.stringify({ type: "transport.simulated_notice", event_id: session.nextEventId(), note: "an event type clients must ignore" }));
          break;
        case "malformed_json":
          this.take(kind);
          session.sendText('{"type": "session.usage.updated", "usage": ');
          break;
      }
    }
  }
}
