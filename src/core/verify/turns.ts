/** Counting a conversation's substantive turns (backchannels excluded) for the `turns` task metric. */

import type { Turn } from "../record/trial-record";

/**
 * Substantive conversation turns (task metric `turns`, "actual versus expected substantive
 * turns; excludes backchannels").
 *
 * A turn is one speaker holding the floor: consecutive utterances of the same side, in time order, are one
 * turn, and the turn changes when the other side says something substantive. A caller backchannel
 * ("Mm-hmm" while the assistant talks, action BACKCHANNEL) is not a turn and does not split the
 * assistant's turn around it. Openings, answers, interruptions and the closing goodbye are turns.
 *
 * This is how the seed's worked RUN example scores "7 versus 7 expected": its transcript has seven
 * assistant rows and three caller rows, but the assistant's "Sure, let me check that for you." and "What
 * time would you like…?" (and later "Checking that now.", "All set…", "Your confirmation number…") are
 * each one turn, giving assistant, caller, assistant, caller, assistant, caller, assistant = 7. Counting
 * transcript rows would give 10, which the seed warns against.
 */
export function substantiveTurnCount(turns: readonly Turn[]): number {
  const spoken = turns
    .map((t, order) => ({ t, order }))
    .filter(({ t }) => t.text.trim().length > 0 && !(t.role === "user" && t.action === "BACKCHANNEL"))
    .sort((a, b) => a.t.start_ms - b.t.start_ms || a.order - b.order);
  let count = 0;
  let floor: Turn["role"] | null = null;
  for (const { t } of spoken) {
    if (t.role !== floor) count++;
    floor = t.role;
  }
  return count;
}

/**
 * `metrics.task.turns.actual`. CRAWL and WALK count the caller's requests (their golden paths say 1: one
 * request); RUN counts substantive turns of both sides, as above.
 */
export function actualTurns(caseKind: string, turns: readonly Turn[]): number {
  return caseKind === "run" ? substantiveTurnCount(turns) : turns.filter((t) => t.role === "user").length;
}
