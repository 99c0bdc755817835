import { describe, expect, it } from "vitest";
import { AudioPacer, chunkPcm, type ChunkTiming, type PacingLag } from "../src/core/audio";
import { VirtualClock, type Clock } from "../src/core/time/clock";

const chunks = (n: number) => Array.from({ length: n }, (_, i) => new Uint8Array(960).fill(i + 1));

/** Records what was sent and when, on the pacer's clock. */
function recorder(clock: Clock) {
  const sent: { at: number; first: number; timing: ChunkTiming }[] = [];
  const send = (chunk: Uint8Array, timing: ChunkTiming) => void sent.push({ at: clock.now(), first: chunk[0]!, timing });
  return { sent, send };
}

/**
 * A clock under the test's control: sleeping jumps straight to the deadline (recording it), and
 * `stall(ms)` moves time on as if the event loop had been blocked.
 */
class ScriptedClock implements Clock {
  readonly virtual = true;
  time = 0;
  readonly sleeps: number[] = [];
  now() {
    return this.time;
  }
  sleep(ms: number) {
    return this.sleepUntil(this.time + ms);
  }
  async sleepUntil(atMs: number) {
    this.sleeps.push(atMs);
    this.time = Math.max(this.time, atMs);
  }
  hold() {
    return () => {};
  }
  stall(ms: number) {
    this.time += ms;
  }
}

describe("AudioPacer with a VirtualClock", () => {
  it("sends chunk i exactly at start + i × 20 ms with no lag", async () => {
    const clock = new VirtualClock();
    await clock.sleep(100);
    const { sent, send } = recorder(clock);
    const pacer = new AudioPacer({ clock });
    await pacer.play(chunks(5), send);
    expect(sent.map((s) => s.at)).toEqual([100, 120, 140, 160, 180]);
    expect(sent.map((s) => s.first)).toEqual([1, 2, 3, 4, 5]);
    expect(sent.map((s) => s.timing)).toEqual([0, 1, 2, 3, 4].map((i) => ({ index: i, due_ms: 100 + 20 * i, sent_ms: 100 + 20 * i, silence: false })));
    expect(pacer.stats()).toEqual({ chunks: 5, lag_events: 0, max_lag_ms: 0, total_lag_ms: 0 });
  });

  it("paces 10 s of caller audio on virtual time, identically on every run", async () => {
    const run = async () => {
      const clock = new VirtualClock();
      const { sent, send } = recorder(clock);
      const pacer = new AudioPacer({ clock });
      await pacer.play(chunkPcm(new Uint8Array(480_000)), send);
      return { times: sent.map((s) => s.at), stats: pacer.stats(), end: clock.now() };
    };
    const first = await run();
    expect(first.times.length).toBe(500);
    expect(first.times.every((t, i) => t === i * 20)).toBe(true);
    expect(first.end).toBe(9980);
    expect(await run()).toEqual(first);
  });

  it("does not burst after a late chunk: records the lag and restarts the cadence from now", async () => {
    const clock = new VirtualClock();
    const lags: PacingLag[] = [];
    const sent: number[] = [];
    const pacer = new AudioPacer({ clock, stream: "caller", onLag: (lag) => lags.push(lag) });
    await pacer.play(chunks(6), async (_chunk, timing) => {
      sent.push(clock.now());
      if (timing.index === 2) await clock.sleep(50); // a slow send holds the stream until 90
    });
    // chunk 3 was due at 60 and goes at 90; later chunks follow 20 ms apart from there, not at once.
    expect(sent).toEqual([0, 20, 40, 90, 110, 130]);
    expect(lags).toEqual([{ type: "audio.pacing_lag", at_ms: 90, lag_ms: 30, chunk_ms: 20, stream: "caller" }]);
    expect(pacer.stats()).toEqual({ chunks: 6, lag_events: 1, max_lag_ms: 30, total_lag_ms: 30 });
  });

  it("keeps the microphone open with silence until told to stop, on the same cadence", async () => {
    const clock = new VirtualClock();
    const { sent, send } = recorder(clock);
    const pacer = new AudioPacer({ clock });
    await pacer.play(chunks(3), send);
    const stop = new AbortController();
    void clock.sleepUntil(130).then(() => stop.abort());
    await pacer.streamSilenceUntil(stop.signal, send);
    expect(sent.map((s) => s.at)).toEqual([0, 20, 40, 60, 80, 100, 120]);
    expect(sent.map((s) => s.timing.silence)).toEqual([false, false, false, true, true, true, true]);
    expect(sent.map((s) => s.timing.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(sent.slice(3).every((s) => s.first === 0)).toBe(true);
    expect(clock.now()).toBe(130); // returned when stopped, not at the next deadline
    expect(pacer.stats().chunks).toBe(7);
  });

  it("sends no silence chunk due at the very instant it is stopped", async () => {
    const clock = new VirtualClock();
    const { sent, send } = recorder(clock);
    const pacer = new AudioPacer({ clock });
    const stop = new AbortController();
    void clock.sleepUntil(60).then(() => stop.abort());
    await pacer.streamSilenceUntil(stop.signal, send);
    expect(sent.map((s) => s.at)).toEqual([0, 20, 40]);
  });

  it("sends nothing when already stopped", async () => {
    const clock = new VirtualClock();
    const { sent, send } = recorder(clock);
    await new AudioPacer({ clock }).streamSilenceUntil(AbortSignal.abort(), send);
    expect(sent).toEqual([]);
  });

  it("reads chunks from an async source", async () => {
    const clock = new VirtualClock();
    const { sent, send } = recorder(clock);
    async function* source() {
      yield* chunks(3);
    }
    await new AudioPacer({ clock }).play(source(), send);
    expect(sent.map((s) => s.at)).toEqual([0, 20, 40]);
  });

  it("rejects with the abort reason when its signal aborts mid-stream", async () => {
    const clock = new VirtualClock();
    const controller = new AbortController();
    const { sent, send } = recorder(clock);
    const pacer = new AudioPacer({ clock, signal: controller.signal });
    void clock.sleepUntil(50).then(() => controller.abort(new Error("trial cancelled")));
    await expect(pacer.play(chunks(10), send)).rejects.toThrow("trial cancelled");
    expect(sent.map((s) => s.at)).toEqual([0, 20, 40]);
    const stop = new AbortController();
    await expect(pacer.streamSilenceUntil(stop.signal, send)).rejects.toThrow("trial cancelled");
  });

  it("refuses to pace one stream twice at once", async () => {
    const clock = new VirtualClock();
    const pacer = new AudioPacer({ clock, stream: "caller" });
    const first = pacer.play(chunks(2), () => {});
    await expect(pacer.play(chunks(2), () => {})).rejects.toThrow(/"caller" is already being paced/);
    await first;
    await pacer.play(chunks(1), () => {}); // free again afterwards
    expect(pacer.stats().chunks).toBe(3);
  });
});

describe("AudioPacer with a clock the test controls", () => {
  it("asks for each absolute deadline, and after a stall sends the late chunk at once and resets", async () => {
    const clock = new ScriptedClock();
    const lags: PacingLag[] = [];
    const sentAt: number[] = [];
    const pacer = new AudioPacer({ clock, stream: "assistant", onLag: (lag) => lags.push(lag) });
    await pacer.play(chunks(5), (_chunk, timing) => {
      sentAt.push(clock.now());
      if (timing.index === 1) clock.stall(75); // blocked from 20 to 95; chunk 2 was due at 40
    });
    expect(sentAt).toEqual([0, 20, 95, 115, 135]);
    // No sleep was requested for the late chunk; the cadence continues from 95.
    expect(clock.sleeps).toEqual([0, 20, 115, 135]);
    expect(lags).toEqual([{ type: "audio.pacing_lag", at_ms: 95, lag_ms: 55, chunk_ms: 20, stream: "assistant" }]);
    expect(pacer.stats()).toEqual({ chunks: 5, lag_events: 1, max_lag_ms: 55, total_lag_ms: 55 });
  });

  it("counts every late chunk and keeps the maximum and total", async () => {
    const clock = new ScriptedClock();
    const pacer = new AudioPacer({ clock, chunkMs: 10 });
    const stalls: Record<number, number> = { 0: 25, 2: 12.5, 3: 40 };
    await pacer.play(chunks(6), (_c, timing) => clock.stall(stalls[timing.index] ?? 0));
    // chunk 1 due 10, now 25 → lag 15; chunk 2 due 35; chunk 3 due 45, now 47.5 → lag 2.5; chunk 4 due 57.5, now 87.5 → lag 30
    expect(pacer.stats()).toEqual({ chunks: 6, lag_events: 3, max_lag_ms: 30, total_lag_ms: 47.5 });
  });

  it("rejects a non-positive chunk length", () => {
    expect(() => new AudioPacer({ clock: new ScriptedClock(), chunkMs: 0 })).toThrow(/chunkMs must be positive/);
  });
});
