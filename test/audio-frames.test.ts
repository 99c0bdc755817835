import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { encodePcmBase64 } from "../src/core/audio/pcm";
import type { LoggedEvent } from "../src/core/record/trial-record";
import { run, type RunOptions } from "../src/core/run/run";
import { CachedSynthesizer, EspeakSynthesizer } from "../src/core/speech/index";
import { AudioFrameTally } from "../src/core/trial/audio-frames";

/**
 * Per-chunk audio events (the caller's appends every 20 ms, the assistant's deltas) are counted into one
 * `audio.frames` event per kind unless `--log-audio-events` asks for each; nothing else in the log changes.
 */
describe("AudioFrameTally", () => {
  it("counts wire audio frames and audio deltas per kind with their decoded bytes and times, and nothing else", () => {
    const tally = new AudioFrameTally();
    const append = (at_ms: number, bytes: number) => ({ type: "raw" as const, at_ms, direction: "sent" as const, event: { type: "session.input_audio.append", audio: encodePcmBase64(new Uint8Array(bytes)) } });
    expect(tally.take(append(0, 960))).toBe(true);
    expect(tally.take(append(20, 961))).toBe(true); // base64 padding is not counted as audio
    expect(tally.take({ type: "audio.delta", at_ms: 35, role: "assistant", pcm: new Uint8Array(480) })).toBe(true);
    expect(tally.take({ type: "raw", at_ms: 35, direction: "received", event: { type: "session.output_audio.delta", delta: encodePcmBase64(new Uint8Array(482)) } })).toBe(true);
    expect(tally.take({ type: "raw", at_ms: 40, direction: "received", event: { type: "session.output_transcript.delta", delta: "Hello" } })).toBe(false);
    expect(tally.take({ type: "transcript.delta", at_ms: 40, role: "assistant", text: "Hello" })).toBe(false);
    expect(tally.drain()).toEqual([
      { event: "session.input_audio.append", direction: "sent", frames: 2, bytes: 1921, first_ms: 0, last_ms: 20 },
      { event: "audio.delta", frames: 1, bytes: 480, first_ms: 35, last_ms: 35 },
      { event: "session.output_audio.delta", direction: "received", frames: 1, bytes: 482, first_ms: 35, last_ms: 35 },
    ]);
    expect(tally.drain()).toEqual([]);
  });
});

describe("--log-audio-events", () => {
  const speech = new CachedSynthesizer(new EspeakSynthesizer({ voice: "coral" }), { root: mkdtempSync(join(tmpdir(), "audio-frames-cache-")) });
  const perChunk = (e: LoggedEvent) =>
    e.type === "audio.delta" || (e.type === "raw" && ["session.input_audio.append", "session.output_audio.delta"].includes(String((e.data as { event: { type: string } }).event.type)));
  const key = (e: LoggedEvent) => (e.type === "raw" ? `${(e.data as { direction: string }).direction} ${(e.data as { event: { type: string } }).event.type}` : ` ${e.type}`);

  it("by default counts the chunks in one event per kind; asked, logs each, and the counts agree", async () => {
    const options: RunOptions = { speech, selection: { ids: ["harbor_003"] } };
    const [summarized] = (await run(PLAN, options)).records;
    const [each] = (await run(PLAN, { ...options, log_audio_events: true })).records;
    const frames = summarized!.events.filter((e) => e.type === "audio.frames").map((e) => e.data as { event: string; direction?: string; frames: number; bytes: number; first_ms: number; last_ms: number });
    expect(summarized!.events.filter(perChunk)).toEqual([]);
    expect(each!.events.filter((e) => e.type === "audio.frames")).toEqual([]);
    // Every per-chunk event of the full log is in a count, with its time span.
    const chunks = each!.events.filter(perChunk);
    expect(chunks.length).toBeGreaterThan(500);
    const expected = new Map<string, { frames: number; first_ms: number; last_ms: number }>();
    for (const e of chunks) {
      const k = key(e);
      const seen = expected.get(k);
      expected.set(k, seen ? { ...seen, frames: seen.frames + 1, last_ms: e.at_ms } : { frames: 1, first_ms: e.at_ms, last_ms: e.at_ms });
    }
    expect(new Map(frames.map((f) => [`${f.direction ?? ""} ${f.event}`, { frames: f.frames, first_ms: f.first_ms, last_ms: f.last_ms }]))).toEqual(expected);
    const sent = frames.find((f) => f.event === "session.input_audio.append")!;
    const pacing = summarized!.events.find((e) => e.type === "audio.pacing")!.data as { chunks: number };
    expect(sent.frames).toBe(pacing.chunks);
    expect(sent.bytes).toBe(sent.frames * 960); // 20 ms of PCM16 at 24 kHz each
    // Nothing else in the log differs, and the verdict is the same.
    expect(summarized!.events.filter((e) => !perChunk(e) && e.type !== "audio.frames").map((e) => [e.type, e.at_ms])).toEqual(each!.events.filter((e) => !perChunk(e)).map((e) => [e.type, e.at_ms]));
    expect([summarized!.status, summarized!.metrics]).toEqual([each!.status, each!.metrics]);
  }, 60_000);
});
