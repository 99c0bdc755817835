import { describe, expect, it } from "vitest";
import { placeAssistantAudio } from "../src/core/timeline";
import type { AgentEvent } from "../src/core/target/types";
import type { Turn } from "../src/core/record/trial-record";
import { audioMetrics } from "../src/core/trial/audio-metrics";

/**
 * The recorded response latency is read off the audio timeline — where the caller's voiced audio ends on
 * the track as sent, where the assistant's voiced audio starts on the track as received — and from nothing
 * the scheduler stamps: not the events' times, not the transcript's turn times. Under load those stamps
 * drift; the tracks are what a listener hears.
 */
const RATE = 24_000;
const samples = (ms: number) => (ms * RATE) / 1000;
const voiced = (ms: number) => new Int16Array(samples(ms)).fill(1000); // RMS 1000 ≥ 220: speech
/** One second of caller speech, then 300 ms of silence (the microphone kept open). */
const callerPcm = new Uint8Array(new Int16Array([...voiced(1000), ...new Int16Array(samples(300))]).buffer);

function latency(assistantAt: number, events: AgentEvent[], turnShift = 0) {
  return audioMetrics({
    callerPcm,
    callerStartMs: 200, // the caller's voiced audio ends at 1200 ms
    // Two deltas, as the wire brings them: the second arrives before the first has played, so it follows it.
    assistant: placeAssistantAudio(
      [
        { received_ms: assistantAt, samples: voiced(400) },
        { received_ms: assistantAt + 100, samples: voiced(400) },
      ],
      RATE,
    ),
    agentEvents: events,
    tools: [],
    turns: [
      { role: "user", text: "A table for two tonight?", start_ms: 200 + turnShift, end_ms: 1200 + turnShift },
      { role: "assistant", text: "Let me check.", start_ms: assistantAt + turnShift, end_ms: assistantAt + 800 + turnShift },
    ] satisfies Turn[],
    observationEndMs: 4000,
  }).then((m) => m.response_latency_ms);
}

/** What a loaded event loop makes of the same response: every stamp late by `delay`. */
const stamped = (assistantAt: number, delay: number): AgentEvent[] => [
  { type: "transcript.delta", at_ms: 1250 + delay, role: "user", text: "A table for two tonight?" },
  { type: "audio.delta", at_ms: assistantAt + delay, role: "assistant", pcm: new Uint8Array(0) },
  { type: "transcript.delta", at_ms: assistantAt + 10 + delay, role: "assistant", text: "Let me check." },
  { type: "audio.delta", at_ms: assistantAt + 100 + delay, role: "assistant", pcm: new Uint8Array(0) },
];

describe("response latency comes from the audio timeline", () => {
  it("is the gap between the caller's voiced end and the assistant's voiced start on the tracks", async () => {
    expect(await latency(1900, stamped(1900, 0))).toBe(700);
    expect(await latency(2100, stamped(2100, 0))).toBe(900); // the audio moves: the figure moves with it
  });

  it("does not move when the events and turns are stamped late, as under load", async () => {
    const base = await latency(1900, stamped(1900, 0));
    for (const delay of [35, 250, 1200]) {
      expect(await latency(1900, stamped(1900, delay))).toBe(base);
      expect(await latency(1900, stamped(1900, delay), delay)).toBe(base);
    }
    expect(await latency(1900, [])).toBe(base);
  });
});
