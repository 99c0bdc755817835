/**
 * `--shard i/n`: which trials one of n machines runs. Every trial of the selection lands in exactly one
 * shard; the slices are balanced by each trial's expected duration (a RUN conversation takes several
 * times a single-turn trial, a text-level trial almost nothing) and decided from the trial ids alone,
 * so the same selection always gives the same slices, whatever the order or concurrency (a different
 * filter re-balances).
 */
import { createHash } from "node:crypto";
import { PlanError, type TrialSpec } from "./plan";

export interface Shard {
  index: number;
  count: number;
}

export const MAX_SHARDS = 1000;

/** Parse `i/n` (1 ≤ i ≤ n ≤ 1000). */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !(count >= 1 && count <= MAX_SHARDS) || !(index >= 1 && index <= count))
    throw new PlanError(`--shard takes i/n with 1 <= i <= n <= ${MAX_SHARDS}, e.g. --shard 2/4 for the second of four machines (got "${text}")`);
  return { index, count };
}

/** Expected seconds of a trial, for balancing only: the kind of case and whether audio is streamed. */
export function expectedSeconds(spec: TrialSpec, audio: boolean): number {
  if (!audio) return 0.01;
  return spec.case.kind === "run" ? 60 : 12;
}

/** The trials of one shard, in plan order. Longest first onto the least loaded shard (ties: lower index). */
export function shardTrials(trials: readonly TrialSpec[], shard: Shard, audio: boolean): TrialSpec[] {
  if (shard.count === 1) return [...trials];
  const key = (t: TrialSpec) => createHash("sha256").update(t.trial_id).digest("hex");
  const order = trials.map((t) => ({ t, w: expectedSeconds(t, audio), k: key(t) })).sort((a, b) => b.w - a.w || (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const load = new Array<number>(shard.count).fill(0);
  const mine = new Set<string>();
  for (const { t, w } of order) {
    let best = 0;
    for (let s = 1; s < shard.count; s++) if (load[s]! < load[best]! - 1e-9) best = s;
    load[best]! += w;
    if (best === shard.index - 1) mine.add(t.trial_id);
  }
  return trials.filter((t) => mine.has(t.trial_id));
}
