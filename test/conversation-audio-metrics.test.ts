import { describe, expect, it } from "vitest";
import { placeAssistantAudio } from "../src/core/timeline";
import { audioMetrics, conversationAudioMetrics } from "../src/core/trial/audio-metrics";

/**
 * The RUN audio path end to end on real PCM: caller and assistant tracks with speech where the worked
 * example puts it, the RMS detector, the after-the-fact labels, then docs/audio-and-metrics.md. Speech is a constant level
 * (RMS 1000 >= 220), silence is zeros, and every boundary is on a 20 ms frame, so voiced intervals are exact.
 */
const RATE = 24_000;
const samplesAt = (ms: number) => (ms * RATE) / 1000;

/** A mono PCM16 track of `totalMs` with speech in the given [start, end) spans. */
function track(totalMs: number, spans: Array<[number, number]>): Int16Array {
  const out = new Int16Array(samplesAt(totalMs));
  for (const [start, end] of spans) out.fill(1000, samplesAt(start), samplesAt(end));
  return out;
}

// Assistant: greeting [0,2000), the unavailable-slot explanation from 3000, an answer [8200,10000).
// Caller: an answer [2200,2800), "Mm-hmm." [4000,4400) over the explanation, an interruption [6000,7500).
const CALLER = track(12000, [[2200, 2800], [4000, 4400], [6000, 7500]]);
const utterances = [
  { text: "For two, at seven.", start_ms: 2100, end_ms: 2900 },
  { text: "Mm-hmm.", start_ms: 3960, end_ms: 4440 },
  { text: "Sorry, what about the ninth instead?", start_ms: 5960, end_ms: 7600 },
];

function assistantWith(explanationEnd: number, answerStart = 8200) {
  // One delta per assistant stretch, received when it should start playing (docs/audio-and-metrics.md placement).
  const spans: Array<[number, number]> = [[0, 2000], [3000, explanationEnd], [answerStart, 10000]];
  return placeAssistantAudio(spans.map(([start, end]) => ({ received_ms: start, samples: new Int16Array(samplesAt(end - start)).fill(1000) })), RATE);
}

function run(explanationEnd: number, answerStart = 8200) {
  return conversationAudioMetrics({
    callerPcm: new Uint8Array(CALLER.buffer),
    callerStartMs: 0,
    assistant: assistantWith(explanationEnd, answerStart),
    agentEvents: [],
    tools: [],
    turns: [],
    observationEndMs: 15000,
    caller: { utterances, callerSpokeFirst: false, backchannels: ["Mm-hmm."] },
  });
}

describe("conversationAudioMetrics", () => {
  it("labels the caller on the detected audio and scores a prompt yield", async () => {
    // Explanation [3000,6800): interrupted at 6000, stopped 800 ms later → yielded; continued over the backchannel.
    const { audio, labelled } = await run(6800);
    expect(labelled.map((u) => u.action)).toEqual(["SPEAK", "BACKCHANNEL", "INTERRUPT"]);
    expect([audio.yield_rate, audio.yield_count, audio.no_yield_count]).toEqual([1, 1, 0]);
    expect([audio.selectivity_backchannel, audio.false_yield_count]).toEqual([1, 0]);
    // Latencies: 2800 → 3000 = 200 ms; 7500 → 8200 = 700 ms; mean 450.
    expect(audio.response_latency_ms).toBe(450);
    expect(audio.speech_detector).toBe("rms>=220/20ms");
  });

  it("talks_through_interruption: no yield, and the talked-over request is excluded", async () => {
    // The answer starts 1000 ms after the explanation, so it is a new turn (a pause under 700 ms would
    // be the explanation resuming). The explanation runs on to 8000: delay 8000 − 6000 = 2000 → still a
    // yield (exactly at the window)…
    expect((await run(8000, 9000)).audio.yield_rate).toBe(1);
    // …and 20 ms later it is not: 8020 − 6000 = 2020 > 2000 ms.
    const { audio } = await run(8020, 9020);
    expect([audio.yield_rate, audio.no_yield_count]).toEqual([0, 1]);
    expect((audio.exclusion_reasons as Record<string, number>).assistant_active_at_request_end).toBe(1);
  });

  it("leaves the single-turn path as it was: one SPEAK segment owning all caller audio", async () => {
    const single = await audioMetrics({ callerPcm: new Uint8Array(CALLER.buffer), callerStartMs: 0, assistant: assistantWith(6800), agentEvents: [], tools: [], turns: [], observationEndMs: 15000 });
    expect(single.caller_turn_count).toBe(1);
    expect(single.yield_rate).toBeNull();
  });
});
