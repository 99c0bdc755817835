/**
 * RUN benchmarks. Offline: the bundled conversations held one after another in virtual time (the
 * agenda-driven caller speaking espeak-ng, the restaurant assistant on the local GPT-Live simulator), and
 * how many times faster than their own timeline they ran. Real time: several conversations at once on the
 * wall clock, and how late the relay's 20 ms ticks ran (max and p99 over every tick of every conversation,
 * from the relay's per-tick lag histogram). The machine is shared: the load average is part of the result.
 * Run alone with `pnpm bench conversation`.
 */
import { mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { PLAN } from "../crashlab/evaluations";
import { RESTAURANT_BACKEND_INSTRUCTIONS, RESTAURANT_FRONTEND_INSTRUCTIONS } from "../examples/restaurant/instructions";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { RESTAURANT_TOOLS } from "../examples/restaurant/tools";
import { OfflineCaller } from "../src/core/caller/offline-caller";
import { gptLiveTarget } from "../src/core/gpt-live-target/adapter";
import type { TrialRecord } from "../src/core/record/trial-record";
import { run, type RunOptions } from "../src/core/run/run";
import { CachedSynthesizer, EspeakSynthesizer } from "../src/core/speech/index";
import type { ConversationSettings } from "../src/core/trial/context";

const root = mkdtempSync(join(tmpdir(), "crashlab-bench-conversation-"));
const speech = new CachedSynthesizer(new EspeakSynthesizer({ voice: "coral" }), { root });
const RUN_PLAN = {
  ...PLAN,
  cases: PLAN.cases.filter((c) => c.kind === "run"),
  targets: {
    ...PLAN.targets,
    // The bundled assistant, but the simulator reads its speech from a cache instead of running espeak-ng
    // on the event loop all conversations share: what is left of the tick lag is the relay's and the machine's.
    restaurant_cached_voice: (settings) =>
      gptLiveTarget({
        settings,
        instructions: RESTAURANT_FRONTEND_INSTRUCTIONS,
        backend_instructions: RESTAURANT_BACKEND_INSTRUCTIONS,
        tools: RESTAURANT_TOOLS,
        offline: { policy: restaurantPolicy(), synthesizer: new CachedSynthesizer(new EspeakSynthesizer({ voice: settings.voice }), { root }) },
      }),
  } satisfies typeof PLAN.targets,
};

/** The offline caller as `crashlab run` holds it: espeak-ng in the persona's voice, cached per voice. */
export function offlineCaller(): ConversationSettings {
  const voices = new Map<string, CachedSynthesizer>();
  const synthesizer = (voice: string) => voices.get(voice) ?? voices.set(voice, new CachedSynthesizer(new EspeakSynthesizer({ voice }), { root })).get(voice)!;
  return { caller: (persona) => new OfflineCaller({ voice: persona.voice, synthesizer }) };
}

/** A conversation's own timeline: the relay's media clock, one 20 ms frame per tick. */
const timelineMs = (r: TrialRecord) => (r.conversation?.relay.caller_frames ?? 0) * 20;

export interface OfflineConversation {
  case_id: string;
  status: string;
  timeline_ms: number;
  wall_ms: number;
  x_faster: number;
}

export interface OfflineResult {
  /** The first pass, synthesizing every line of speech; the measured pass reads it from the cache. */
  cold: { timeline_ms: number; wall_ms: number; x_faster: number };
  conversations: OfflineConversation[];
  timeline_ms: number;
  wall_ms: number;
  x_faster: number;
}

/** Every bundled conversation once, one at a time (concurrency 1), in virtual time. */
export async function benchConversationsOffline(): Promise<OfflineResult> {
  const pass = async () => {
    const started = new Map<string, number>();
    const wall = new Map<string, number>();
    const options: RunOptions = {
      target: "restaurant",
      concurrency: 1,
      speech,
      conversation: offlineCaller(),
      onTrialStart: (spec) => void started.set(spec.trial_id, performance.now()),
      onTrialEnd: (record) => void wall.set(record.trial_id, performance.now() - started.get(record.trial_id)!),
    };
    const t0 = performance.now();
    const result = await run(RUN_PLAN, options);
    return { result, wall, wall_ms: performance.now() - t0 };
  };
  const cold = await pass();
  const warm = await pass();
  const conversations = warm.result.records.map((r) => {
    const wall_ms = warm.wall.get(r.trial_id)!;
    return { case_id: r.case_id, status: r.status, timeline_ms: timelineMs(r), wall_ms, x_faster: timelineMs(r) / wall_ms };
  });
  const sum = (records: TrialRecord[]) => records.reduce((n, r) => n + timelineMs(r), 0);
  const coldTimeline = sum(cold.result.records);
  const timeline = sum(warm.result.records);
  return {
    cold: { timeline_ms: coldTimeline, wall_ms: cold.wall_ms, x_faster: coldTimeline / cold.wall_ms },
    conversations,
    timeline_ms: timeline,
    wall_ms: warm.wall_ms,
    x_faster: timeline / warm.wall_ms,
  };
}

export interface RealTimeResult {
  target: string;
  conversations: number;
  statuses: Record<string, number>;
  ticks: number;
  /** Tick lag in whole milliseconds (a tick in bucket k ran k to k+1 ms late). */
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** The pacer's view: ticks whose deadline had already passed, and the worst of them. */
  lag_events: number;
  max_lag_ms: number;
  total_lag_ms: number;
  /** The longest conversation's timeline, and the wall time of the whole run. */
  longest_timeline_ms: number;
  wall_ms: number;
  /** This process's CPU time over the wall time, in cores. */
  cpu_cores: number;
  load_before: number[];
  load_after: number[];
}

/** The smallest whole-millisecond bucket at or below which a share `q` of the ticks fall. */
export function tickLagQuantile(histogram: [number, number][], q: number): number {
  const total = histogram.reduce((n, [, ticks]) => n + ticks, 0);
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (const [ms, ticks] of histogram) {
    seen += ticks;
    if (seen >= rank) return ms;
  }
  return histogram.at(-1)?.[0] ?? 0;
}

/**
 * `count` bundled conversations at once on the wall clock (real_time), each with its own relay, against
 * the bundled assistant (`restaurant`: the simulator synthesizes its speech as it goes) or the same
 * assistant speaking from a cache (`restaurant_cached_voice`).
 */
export async function benchConversationsRealTime(count = 8, target: "restaurant" | "restaurant_cached_voice" = "restaurant"): Promise<RealTimeResult> {
  const ids = RUN_PLAN.cases.slice(0, count).map((c) => c.id);
  if (ids.length < count) throw new Error(`the bundled package has ${ids.length} RUN conversations; asked for ${count}`);
  // Warm the speech caches first (virtual time, fast), so the caller's espeak-ng work is not in the measurement.
  await run(RUN_PLAN, { target, concurrency: 1, speech, conversation: offlineCaller(), selection: { ids } });
  const load_before = loadavg().map((l) => Math.round(l * 100) / 100);
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const result = await run(RUN_PLAN, { target, concurrency: count, real_time: true, speech, conversation: offlineCaller(), selection: { ids } });
  const wall_ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  const load_after = loadavg().map((l) => Math.round(l * 100) / 100);
  const relays = result.records.map((r) => r.conversation?.relay).filter((r) => r !== undefined);
  const pooled = new Map<number, number>();
  for (const relay of relays) for (const [ms, ticks] of relay.tick_lag_histogram) pooled.set(ms, (pooled.get(ms) ?? 0) + ticks);
  const histogram = [...pooled].sort((a, b) => a[0] - b[0]);
  const statuses: Record<string, number> = {};
  for (const r of result.records) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  return {
    target,
    conversations: result.records.length,
    statuses,
    ticks: histogram.reduce((n, [, ticks]) => n + ticks, 0),
    p50_ms: tickLagQuantile(histogram, 0.5),
    p99_ms: tickLagQuantile(histogram, 0.99),
    max_ms: histogram.at(-1)?.[0] ?? 0,
    lag_events: relays.reduce((n, r) => n + r.lag_events, 0),
    max_lag_ms: Math.max(0, ...relays.map((r) => r.max_lag_ms)),
    total_lag_ms: relays.reduce((n, r) => n + r.total_lag_ms, 0),
    longest_timeline_ms: Math.max(0, ...result.records.map(timelineMs)),
    wall_ms,
    cpu_cores: (used.user + used.system) / 1000 / wall_ms,
    load_before,
    load_after,
  };
}
