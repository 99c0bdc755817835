import { pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import {
  type AssistantAudioDelta,
  type CallerUtterance,
  callerSegments,
  computeInteractionMetrics,
  type DelegationLifecycleEvent,
  delegationActivity,
  groupTranscript,
  type Interval,
  placeAssistantAudio,
  type TranscriptFragment,
} from "../src/core/timeline";

export interface BenchResult {
  name: string;
  ops_per_s?: number;
  mean_ms?: number;
}

const MINUTES = 10;
const EXCHANGE_MS = 10_000;

/** Word-sized voiced intervals (as the 20 ms RMS detector yields them) covering [start, start + length). */
function words(start: number, length: number, word: number, gap: number): Interval[] {
  const out: Interval[] = [];
  for (let t = start; t < start + length; t += word + gap) out.push({ start_ms: t, end_ms: Math.min(t + word, start + length) });
  return out;
}

/**
 * A 10-minute two-sided conversation: every 10 s the caller speaks for 3 s and the assistant
 * answers 800 ms after the caller ends, for 4 s; every third exchange has a caller backchannel over
 * the answer, and every other exchange delegates to a managed backend with one tool call.
 */
export function tenMinuteTimeline() {
  const utterances: CallerUtterance[] = [];
  const callerVoiced: Interval[] = [];
  const assistantVoiced: Interval[] = [];
  const assistantTurns: Interval[] = [];
  const events: DelegationLifecycleEvent[] = [];
  const fragments: TranscriptFragment[] = [];
  const exchanges = (MINUTES * 60_000) / EXCHANGE_MS;
  for (let i = 0; i < exchanges; i++) {
    const t = i * EXCHANGE_MS;
    const callerEnd = t + 3500;
    const answer = callerEnd + 800;
    utterances.push({ action: i === exchanges - 1 ? "STOP" : "SPEAK", start_ms: t, end_ms: answer + 1000 });
    callerVoiced.push(...words(t + 500, 3000, 280, 40));
    if (i % 3 === 0) {
      utterances.push({ action: "BACKCHANNEL", start_ms: answer + 1000, end_ms: t + EXCHANGE_MS });
      callerVoiced.push({ start_ms: answer + 1500, end_ms: answer + 1800 });
    }
    assistantVoiced.push(...words(answer, 4000, 300, 60));
    assistantTurns.push({ start_ms: answer, end_ms: answer + 4000 });
    for (let f = 0; f < 3000; f += 200) fragments.push({ role: "user", text: " word", start_ms: t + 500 + f, end_ms: t + 700 + f, received_ms: t + 900 + f });
    for (let f = 0; f < 4000; f += 200) fragments.push({ role: "assistant", text: " word", start_ms: answer + f, end_ms: answer + f + 200, received_ms: answer + f });
    if (i % 2 === 0) {
      const id = `d${i}`;
      events.push(
        { kind: "delegation_created", at_ms: callerEnd + 100, delegation_id: id, target: "responses", response_id: `${id}r1` },
        { kind: "tool_call_requested", at_ms: callerEnd + 400, delegation_id: id, call_id: `${id}c1` },
        { kind: "backend_response_completed", at_ms: callerEnd + 500, delegation_id: id, response_id: `${id}r1` },
        { kind: "tool_call_completed", at_ms: callerEnd + 900, delegation_id: id, call_id: `${id}c1` },
        { kind: "backend_response_created", at_ms: callerEnd + 1000, delegation_id: id, response_id: `${id}r2` },
        { kind: "followup_response_completed", at_ms: callerEnd + 2500, delegation_id: id },
      );
    }
  }
  const observationEndMs = exchanges * EXCHANGE_MS;
  return { utterances, callerVoiced, assistantVoiced, assistantTurns, events, fragments, observationEndMs };
}

/** Assistant audio for the same 10 minutes: 100 ms deltas at 24 kHz, each received a little early. */
function assistantDeltas(assistantTurns: readonly Interval[]): AssistantAudioDelta[] {
  const chunk = new Int16Array(2400).fill(1000);
  return assistantTurns.flatMap((turn) => {
    const out: AssistantAudioDelta[] = [];
    for (let t = turn.start_ms; t < turn.end_ms; t += 100) out.push({ received_ms: t - 50, samples: chunk });
    return out;
  });
}

export async function benchTimeline(): Promise<BenchResult[]> {
  const timeline = tenMinuteTimeline();
  const caller = callerSegments(timeline.utterances, timeline.callerVoiced);
  const delegations = delegationActivity(timeline.events, timeline.observationEndMs);
  const deltas = assistantDeltas(timeline.assistantTurns);

  const bench = new Bench({ time: 500 });
  bench
    .add("computeInteractionMetrics (10-min two-sided timeline)", () => {
      computeInteractionMetrics({
        caller,
        assistantVoiced: timeline.assistantVoiced,
        assistantTurns: timeline.assistantTurns,
        delegations,
        observationEndMs: timeline.observationEndMs,
      });
    })
    .add("callerSegments (10 min)", () => {
      callerSegments(timeline.utterances, timeline.callerVoiced);
    })
    .add("delegationActivity (10 min)", () => {
      delegationActivity(timeline.events, timeline.observationEndMs);
    })
    .add("groupTranscript (10 min, both roles)", () => {
      groupTranscript(timeline.fragments);
    })
    .add("placeAssistantAudio (10 min at 24 kHz)", () => {
      placeAssistantAudio(deltas, 24_000);
    });
  await bench.run();

  return bench.tasks.map((task): BenchResult => {
    const result = task.result;
    if (result.state !== "completed" && result.state !== "aborted-with-statistics") return { name: task.name };
    return { name: task.name, ops_per_s: result.throughput.mean, mean_ms: result.latency.mean };
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await benchTimeline();
  console.table(results.map((r) => ({ name: r.name, "ops/s": r.ops_per_s?.toFixed(1), "mean ms": r.mean_ms?.toFixed(3) })));
}
