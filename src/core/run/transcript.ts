import type { AgentEvent } from "../target/types";
import type { Turn } from "./record";

/** Fragments less than this apart join one transcript group (evaluation-contract §3). */
export const GROUP_GAP_MS = 500;

/**
 * Group transcript fragments into turns per role (§3 grouping). Fragments without their own
 * start/end times are placed at their receive time.
 */
export function groupTranscript(events: readonly AgentEvent[]): Turn[] {
  const turns: Turn[] = [];
  const open = new Map<Turn["role"], Turn>();
  for (const e of events) {
    if (e.type !== "transcript.delta") continue;
    const start = e.start_ms ?? e.at_ms;
    const end = e.end_ms ?? e.at_ms;
    const current = open.get(e.role);
    if (current && start - current.end_ms < GROUP_GAP_MS && turns[turns.length - 1] === current) {
      current.text = joinText(current.text, e.text);
      current.end_ms = Math.max(current.end_ms, end);
    } else {
      const turn: Turn = { role: e.role, text: e.text.trim(), start_ms: start, end_ms: end };
      turns.push(turn);
      open.set(e.role, turn);
    }
  }
  return turns.sort((a, b) => a.start_ms - b.start_ms);
}

function joinText(a: string, b: string): string {
  if (!a) return b.trim();
  return /^\s/.test(b) ? `${a}${b}`.replace(/\s+$/, "") : `${a} ${b}`.trim();
}
