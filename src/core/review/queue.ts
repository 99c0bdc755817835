/**
 * Which trials a person should look at first. Every trial that did not pass (failed, inconclusive,
 * infrastructure error) comes first: those are where a verdict is contested or a defect hides. Then a
 * sample of passing trials, spread over cases and acoustic conditions, so people also check what the
 * automatic verdicts let through — the judge's false passes are found nowhere else.
 */
import { createHash } from "node:crypto";
import type { TrialStatus } from "../record/trial-record";

/** What the queue reads of a trial: a results.json row has all of it. */
export interface QueueTrial {
  trial_id: string;
  case_id: string;
  status: TrialStatus;
  input: { recording?: { condition: string } | undefined };
}

export type QueueReason = "failed" | "inconclusive" | "infrastructure_error" | "sample";

export interface QueueItem {
  trial_id: string;
  case_id: string;
  /** The WALK recording's acoustic condition; null for a trial without a recording. */
  condition: string | null;
  status: TrialStatus;
  reason: QueueReason;
  /** The sample's stratum, `case_id` and condition (`case / condition`); null for a trial that did not pass. */
  stratum: string | null;
}

export interface QueueOptions {
  /** How many passing trials to sample (default 10; 0: none). */
  sample?: number;
  /** The sample's seed: the same seed and trials give the same queue (default 1). */
  seed?: number;
}

export const DEFAULT_REVIEW_SAMPLE = 10;

const RANK: Record<Exclude<TrialStatus, "passed">, number> = { failed: 0, inconclusive: 1, infrastructure_error: 2 };

/** A number from the seed and a key, the same wherever and in whatever order it is computed. */
function draw(seed: number, key: string): string {
  return createHash("sha256").update(`${seed}\u0000${key}`).digest("hex");
}

/**
 * The review queue: trials that did not pass (failed, then inconclusive, then infrastructure errors, each
 * in results order), then up to `sample` passing trials stratified by case and condition — strata are
 * visited in a seeded order, one trial from each in turn (seeded within a stratum too), so a sample smaller
 * than the strata covers as many cases and conditions as it can, and a larger one spreads evenly. Pure and
 * deterministic for a seed; independent of the order of `trials`' passing rows.
 */
export function reviewQueue(trials: readonly QueueTrial[], options: QueueOptions = {}): QueueItem[] {
  const sample = options.sample ?? DEFAULT_REVIEW_SAMPLE;
  const seed = options.seed ?? 1;
  const condition = (t: QueueTrial) => t.input.recording?.condition ?? null;
  const notPassed = trials
    .map((t, i) => ({ t, i }))
    .filter(({ t }) => t.status !== "passed")
    .sort((a, b) => RANK[a.t.status as keyof typeof RANK] - RANK[b.t.status as keyof typeof RANK] || a.i - b.i)
    .map(({ t }): QueueItem => ({ trial_id: t.trial_id, case_id: t.case_id, condition: condition(t), status: t.status, reason: t.status as QueueReason, stratum: null }));

  const strata = new Map<string, QueueTrial[]>();
  for (const t of trials.filter((x) => x.status === "passed")) {
    const key = `${t.case_id} / ${condition(t) ?? "none"}`;
    strata.set(key, [...(strata.get(key) ?? []), t]);
  }
  const order = [...strata.keys()].sort((a, b) => draw(seed, `stratum\u0000${a}`).localeCompare(draw(seed, `stratum\u0000${b}`)) || a.localeCompare(b));
  const queues = order.map((key) => ({
    key,
    trials: strata.get(key)!.slice().sort((a, b) => draw(seed, `trial\u0000${a.trial_id}`).localeCompare(draw(seed, `trial\u0000${b.trial_id}`)) || a.trial_id.localeCompare(b.trial_id)),
  }));
  const sampled: QueueItem[] = [];
  for (let round = 0; sampled.length < sample; round++) {
    const before = sampled.length;
    for (const q of queues) {
      const t = q.trials[round];
      if (!t || sampled.length >= sample) continue;
      sampled.push({ trial_id: t.trial_id, case_id: t.case_id, condition: condition(t), status: t.status, reason: "sample", stratum: q.key });
    }
    if (sampled.length === before) break;
  }
  return [...notPassed, ...sampled];
}
