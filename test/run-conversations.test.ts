import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { restaurantFaultsShownIn } from "../examples/restaurant/policy";
import { pcm16FromBytes, pcm16ToBytes } from "../src/core/audio/pcm";
import { speechIntervals } from "../src/core/audio/speech";
import { readWav } from "../src/core/audio/wav";
import { callerScript } from "../src/core/caller/script";
import type { TrialRecord } from "../src/core/record/trial-record";
import { writeTrialArtifacts } from "../src/core/report/artifacts";
import { run, type RunOptions } from "../src/core/run/run";
import { CachedSynthesizer, EspeakSynthesizer } from "../src/core/speech/index";
import type { AgentEvent } from "../src/core/target/types";
import type { YieldOpportunity } from "../src/core/timeline/metrics";
import { conversationAudioMetrics } from "../src/core/trial/audio-metrics";
import type { TrialMedia } from "../src/core/trial/context";
import { offlineConversation } from "./conversation-settings";

/**
 * RUN end to end, offline: the agenda-driven simulated caller (espeak-ng speech) and the restaurant
 * assistant on the local GPT-Live simulator hold one full-duplex conversation over a real WebSocket, in
 * virtual time; then measure, verify and the package verifiers as `crashlab run` does.
 */
const speech = new CachedSynthesizer(new EspeakSynthesizer({ voice: "coral" }), { root: mkdtempSync(join(tmpdir(), "run-speech-")) });
const RUN_PLAN = { ...PLAN, cases: PLAN.cases.filter((c) => c.kind === "run") };
const options = (extra: RunOptions = {}): RunOptions => ({ speech, conversation: offlineConversation(), ...extra });

function failures(records: TrialRecord[]): string[] {
  return records
    .filter((r) => r.status !== "passed")
    .map((r) => `${r.trial_id} ${r.status} ${r.error ? `${r.error.stage}: ${r.error.message}` : ""} ${r.assessments.filter((a) => a.status === "failed").map((a) => `${a.verifier}: ${a.rationale}`).join(" | ")}`);
}

describe("RUN: the bundled conversations", () => {
  it("bundles at least 11 conversations, each with an agenda, critical procedure steps, expected state and ≥ 7 golden turns", () => {
    expect(RUN_PLAN.cases.length).toBeGreaterThanOrEqual(11);
    for (const c of RUN_PLAN.cases) {
      const s = c.scenario;
      expect(s.simulation_parameters!.agenda.length, c.id).toBeGreaterThanOrEqual(2);
      expect(s.expected.procedure!.steps.some((step) => step.critical), c.id).toBe(true);
      expect(Object.keys(s.expected.state).length, c.id).toBeGreaterThan(0);
      expect(s.expected.golden_path?.turns, c.id).toBeGreaterThanOrEqual(7);
    }
  });

  it.each(["responses", "client"] as const)(
    "all pass over 5 repetitions with %s delegation",
    async (delegation) => {
      const result = await run(RUN_PLAN, options({ repetitions: 5, concurrency: 2, target_settings: { delegation } }));
      expect(result.records).toHaveLength(RUN_PLAN.cases.length * 5);
      expect(failures(result.records)).toEqual([]);
      expect(result.decision.exit_code).toBe(0);
      for (const r of result.records) {
        expect(r.input.kind).toBe("simulated");
        expect(r.conversation!.completion).toMatchObject({ by: "rule", ended: "complete" });
        expect(r.conversation!.relay.caller_frames).toBeGreaterThan(100);
        // Virtual time: every relay tick ran on its deadline.
        expect(r.conversation!.relay.tick_lag_histogram).toEqual([[0, r.conversation!.relay.caller_frames]]);
        // Every delegation went through the protocol's own mode.
        for (const d of r.delegations) expect(d.target).toBe(delegation);
      }
      // The interrupted conversation: the caller cut in, and the assistant yielded.
      const interrupted = result.records.filter((r) => r.case_id === "run_interrupted_unavailable");
      for (const r of interrupted) {
        expect(r.turns.some((t) => t.action === "INTERRUPT"), r.trial_id).toBe(true);
        expect(r.metrics.audio!.yield_rate).toBe(1);
      }
    },
    900_000,
  );
});

describe("RUN: each conversation-only fault fails on its intended check", () => {
  const intended: Record<string, string[]> = {
    ignores_late_correction: ["application_state"],
    relents_under_pressure: ["authorized_actions"],
    talks_through_interruption: ["yields_to_interruption", "critical_procedure"],
    forgets_context_after_unavailable: ["application_state", "critical_procedure"],
    books_before_confirmation: ["critical_procedure"],
  };
  it("covers every fault only a conversation shows, and the late correction", () => {
    const single = restaurantFaultsShownIn("single_turn");
    const conversationOnly = restaurantFaultsShownIn("multi_turn").filter((f) => !single.includes(f));
    expect(Object.keys(intended).sort()).toEqual([...conversationOnly, "ignores_late_correction"].sort());
  });
  it.each(Object.entries(intended))(
    "%s → %j, exit 1",
    async (fault, checks) => {
      const result = await run(RUN_PLAN, options({ target: `faulty_${fault}`, concurrency: 2 }));
      const failed = result.records.filter((r) => r.status === "failed");
      const seen = new Set(failed.flatMap((r) => [...r.checks.filter((c) => c.required && c.status === "failed").map((c) => c.id), ...r.assessments.filter((a) => a.status === "failed").map((a) => a.verifier)]));
      for (const id of checks) expect(seen, `${fault} → ${id}`).toContain(id);
      expect(result.records.filter((r) => r.status === "infrastructure_error")).toEqual([]);
      expect(result.decision.exit_code).toBe(1);
    },
    600_000,
  );
});

/** The recorded agent events back as the harness saw them (the event log keeps them as `target` events). */
function agentEvents(record: TrialRecord): AgentEvent[] {
  return record.events.filter((e) => e.source === "target" && e.type !== "raw").map((e) => ({ type: e.type, at_ms: e.at_ms, ...(e.data as object) }) as AgentEvent);
}

describe("RUN: the metrics are what conversation.wav shows", () => {
  it(
    "response latency, yield delay and floor-hold silence recomputed from the stereo file equal the recorded ones",
    async () => {
      const media = new Map<string, TrialMedia>();
      const result = await run(RUN_PLAN, options({ concurrency: 2, onTrialEnd: (r, _d, _t, m) => void media.set(r.trial_id, m!) }));
      const dir = mkdtempSync(join(tmpdir(), "run-artifacts-"));
      let yieldsChecked = 0;
      let latenciesChecked = 0;
      for (const record of result.records) {
        const paths = writeTrialArtifacts(dir, record, media.get(record.trial_id)!);
        const wav = readWav(readFileSync(join(dir, paths.conversation_wav!)));
        expect(wav).toMatchObject({ channels: 2, sampleRate: 24000, bitsPerSample: 16 });
        const stereo = pcm16FromBytes(wav.data);
        const left = stereo.filter((_, i) => i % 2 === 0);
        const right = stereo.filter((_, i) => i % 2 === 1);
        const recorded = record.metrics.audio!;

        // 1. The whole computation again, from the file's two channels alone (plus the recorded events).
        const again = await conversationAudioMetrics({
          callerPcm: pcm16ToBytes(left),
          callerStartMs: 0,
          assistant: { spans: [], track: right },
          agentEvents: agentEvents(record),
          tools: record.tool_executions,
          turns: record.turns.filter((t) => t.role === "assistant"),
          observationEndMs: record.duration_ms,
          caller: {
            utterances: record.conversation!.utterances.map((u) => ({ text: u.text, start_ms: u.start_ms, end_ms: u.end_ms ?? record.duration_ms })),
            callerSpokeFirst: record.conversation!.opens === "caller",
            backchannels: RUN_PLAN.cases.find((c) => c.id === record.case_id)!.scenario.simulation_parameters!.persona.backchannels,
          },
        });
        expect(again.audio.response_latency_ms, record.trial_id).toBe(recorded.response_latency_ms);
        expect(again.audio.yield_opportunities, record.trial_id).toEqual(recorded.yield_opportunities);
        expect(again.audio.floor_hold_silence_ms, record.trial_id).toEqual(recorded.floor_hold_silence_ms);

        // 2. Each figure read off the file by hand: voiced intervals of each channel.
        const caller = speechIntervals(left, 24000);
        const assistant = speechIntervals(right, 24000);
        for (const o of recorded.opportunities as Array<{ outcome: string; response_start_ms?: number; latency_ms?: number }>) {
          if (o.outcome !== "answered") continue;
          expect(assistant.some((a) => a.start_ms === o.response_start_ms), `${record.trial_id}: an assistant onset at ${o.response_start_ms}`).toBe(true);
          expect(caller.some((c) => c.end_ms === o.response_start_ms! - o.latency_ms!), `${record.trial_id}: a caller end at ${o.response_start_ms! - o.latency_ms!}`).toBe(true);
          latenciesChecked++;
        }
        for (const y of recorded.yield_opportunities as YieldOpportunity[]) {
          if (y.kind !== "yield") continue;
          expect(caller.some((c) => c.start_ms === y.caller_start_ms)).toBe(true);
          expect(assistant.some((a) => a.end_ms === y.assistant_end_ms)).toBe(true);
          expect(y.delay_ms).toBe(y.assistant_end_ms - y.caller_start_ms);
          yieldsChecked++;
        }
      }
      expect(latenciesChecked).toBeGreaterThan(30);
      expect(yieldsChecked).toBeGreaterThanOrEqual(1);
    },
    600_000,
  );
});

describe("RUN: the relay on the wall clock", () => {
  it(
    "counts every tick's lateness in the histogram the lag percentiles read, covering the pacer's worst lag",
    async () => {
      // Two seconds of a real-time conversation, cut short by the duration limit: enough ticks to count.
      const result = await run(RUN_PLAN, { speech, conversation: offlineConversation({ max_duration_ms: 2000 }), real_time: true, selection: { ids: ["run_booking_step_by_step"] } });
      const conversation = result.records[0]!.conversation!;
      expect(conversation.completion.ended).toBe("duration_limit");
      const { tick_lag_histogram: histogram, caller_frames, max_lag_ms } = conversation.relay;
      expect(caller_frames).toBeGreaterThanOrEqual(100);
      expect(histogram.reduce((n, [, ticks]) => n + ticks, 0)).toBe(caller_frames);
      const ms = histogram.map(([late]) => late);
      expect(ms).toEqual([...new Set(ms)].sort((a, b) => a - b));
      expect(ms.every((late) => Number.isInteger(late) && late >= 0)).toBe(true);
      // The worst tick is at least as late as the pacer's worst lag (whole milliseconds, floored).
      expect(ms.at(-1)! + 1).toBeGreaterThan(max_lag_ms - 0.001);
    },
    60_000,
  );
});

describe("RUN: virtual time is deterministic", () => {
  it(
    "two runs with one seed give identical trial records (wall-clock stamps aside)",
    async () => {
      const ids = ["run_interrupted_unavailable", "run_unauthorized_pressure", "run_multiple_corrections"];
      const a = await run(RUN_PLAN, options({ seed: 11, selection: { ids }, concurrency: 3 }));
      const b = await run(RUN_PLAN, options({ seed: 11, selection: { ids }, concurrency: 1 }));
      const strip = (r: TrialRecord) => ({ ...r, wall: null });
      expect(a.records.map(strip)).toEqual(b.records.map(strip));
      expect(a.records.every((r) => r.status === "passed")).toBe(true);
    },
    600_000,
  );
});

describe("RUN: the simulated caller knows its script and nothing evaluator-only", () => {
  it("builds the caller's script from simulation_parameters and input.text only", () => {
    for (const c of RUN_PLAN.cases) {
      const s = c.scenario;
      const script = JSON.stringify(callerScript(s, "caller"));
      const e = s.expected;
      const secrets = [e.answer, ...e.criteria, ...(e.golden_path?.steps ?? []), JSON.stringify(e.state), JSON.stringify(e.tools), JSON.stringify(e.procedure), ...(e.procedure?.steps.map((p) => p.id) ?? [])];
      for (const secret of secrets.filter((x) => x.length > 12)) expect(script, `${c.id}: "${secret.slice(0, 40)}"`).not.toContain(secret);
      expect(Object.keys(JSON.parse(script)).sort()).toEqual(["agenda", "expectations", "goal", "known_facts", "opens", "persona", "request"]);
    }
  });
});
