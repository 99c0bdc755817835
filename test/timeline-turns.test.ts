import { describe, expect, it } from "vitest";
import { groupTranscript, placeAssistantAudio, settleMs, TimelineInputError, type TranscriptFragment } from "../src/core/timeline";

const frag = (role: "user" | "assistant", text: string, start_ms: number, end_ms: number, received_ms = end_ms): TranscriptFragment => ({
  role,
  text,
  start_ms,
  end_ms,
  received_ms,
});

describe("settle", () => {
  it("is max(600, 2 × chunk_ms)", () => {
    expect(settleMs(20)).toBe(600); // max(600, 40)
    expect(settleMs(300)).toBe(600); // max(600, 600)
    expect(settleMs(400)).toBe(800); // max(600, 800)
  });
});

describe("transcript grouping", () => {
  it("joins fragments less than 500 ms apart, and starts a new group at exactly 500 ms", () => {
    // [1000,1200) → [1200,1400): gap 0, joined. [1899,2000): gap 1899 − 1400 = 499 < 500, joined.
    // [2500,2700): gap 2500 − 2000 = 500, not less than 500 → a new turn.
    const { turns, growing } = groupTranscript([
      frag("assistant", " Sure,", 1000, 1200),
      frag("assistant", " let me", 1200, 1400),
      frag("assistant", " check.", 1899, 2000),
      frag("assistant", " Done.", 2500, 2700),
    ]);
    expect(turns).toEqual([
      { role: "assistant", text: "Sure, let me check.", start_ms: 1000, end_ms: 2000 },
      { role: "assistant", text: "Done.", start_ms: 2500, end_ms: 2700 },
    ]);
    expect(growing).toEqual([]);
  });

  it("groups each role on its own, even when they overlap in time", () => {
    const { turns } = groupTranscript([
      frag("user", " Hi", 0, 200),
      frag("assistant", " Hello", 100, 300),
      frag("user", " there", 250, 450),
      frag("assistant", " again", 350, 500),
    ]);
    expect(turns).toEqual([
      { role: "user", text: "Hi there", start_ms: 0, end_ms: 450 },
      { role: "assistant", text: "Hello again", start_ms: 100, end_ms: 500 },
    ]);
  });

  it("an answer that follows its acknowledgement closely shares one group with it", () => {
    // Ack ends at 10840, answer starts at 11200: gap 360 < 500 → one turn starting at 9800.
    const { turns } = groupTranscript([
      frag("assistant", " Sure, let me check that for you.", 9800, 10840),
      frag("assistant", " You're booked.", 11200, 12400),
    ]);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.start_ms).toBe(9800);
  });

  it("a last group becomes a turn once settle has passed since its last fragment and its last voiced audio", () => {
    // Last fragment received at 3000; voiced audio ends at 3200; settle 600.
    // Needs now >= 3000 + 600 = 3600 and now >= 3200 + 600 = 3800 → settled from 3800.
    const fragments = [frag("assistant", " One", 2000, 2400, 2500), frag("assistant", " two", 2400, 2800, 3000)];
    const voiced = { assistant: [{ start_ms: 2000, end_ms: 3200 }] };
    const early = groupTranscript(fragments, { nowMs: 3799, settleMs: 600, voiced });
    expect(early.turns).toEqual([]);
    expect(early.growing).toEqual([{ role: "assistant", text: "One two", start_ms: 2000, end_ms: 2800 }]);
    const settled = groupTranscript(fragments, { nowMs: 3800, settleMs: 600, voiced });
    expect(settled.turns).toEqual([{ role: "assistant", text: "One two", start_ms: 2000, end_ms: 2800 }]);
    expect(settled.growing).toEqual([]);
  });

  it("closes an earlier group once a later group of the same role exists, and ignores fragments not yet received", () => {
    // Group A [0,400) received by 400; group B [2000,2200) received at 2200. At now = 2300:
    // B is still growing (2200 + 600 > 2300), A is a turn. The fragment received at 2400 is unseen.
    const fragments = [
      frag("user", " A", 0, 400),
      frag("user", " B", 2000, 2200),
      frag("user", " later", 2300, 2400, 2400),
    ];
    const { turns, growing } = groupTranscript(fragments, { nowMs: 2300 });
    expect(turns).toEqual([{ role: "user", text: "A", start_ms: 0, end_ms: 400 }]);
    expect(growing).toEqual([{ role: "user", text: "B", start_ms: 2000, end_ms: 2200 }]);
  });

  it("rejects a fragment that ends before it starts", () => {
    expect(() => groupTranscript([frag("user", "x", 10, 5)])).toThrow(TimelineInputError);
  });
});

describe("assistant audio placement", () => {
  const filled = (n: number, value: number) => new Int16Array(n).fill(value);

  it("places each delta at max(end of previous, receive time) and zero-fills gaps", () => {
    // 24 kHz: 2400 samples = 100 ms, 1200 = 50 ms.
    // d1 received 100 → [100,200). d2 received 150, while d1 still plays → [200,300).
    // d3 received 500 → [500,550); [300,500) is silence. Track = 550 ms × 24 = 13200 samples.
    const { spans, track } = placeAssistantAudio(
      [
        { received_ms: 100, samples: filled(2400, 1) },
        { received_ms: 150, samples: filled(2400, 2) },
        { received_ms: 500, samples: filled(1200, 3) },
      ],
      24000,
    );
    expect(spans).toEqual([
      { start_ms: 100, end_ms: 200, sample_offset: 2400, sample_count: 2400 },
      { start_ms: 200, end_ms: 300, sample_offset: 4800, sample_count: 2400 },
      { start_ms: 500, end_ms: 550, sample_offset: 12000, sample_count: 1200 },
    ]);
    expect(track.length).toBe(13200);
    expect(track.subarray(0, 2400).every((s) => s === 0)).toBe(true);
    expect(track.subarray(2400, 4800).every((s) => s === 1)).toBe(true);
    expect(track.subarray(4800, 7200).every((s) => s === 2)).toBe(true);
    expect(track.subarray(7200, 12000).every((s) => s === 0)).toBe(true);
    expect(track.subarray(12000, 13200).every((s) => s === 3)).toBe(true);
  });

  it("never places audio before it was received (receive time rounds up to the next sample)", () => {
    // 0.01 ms × 24 samples/ms = 0.24 samples → sample 1, i.e. 1/24 ms.
    const { spans } = placeAssistantAudio([{ received_ms: 0.01, samples: filled(24, 5) }], 24000);
    expect(spans[0]).toMatchObject({ sample_offset: 1, start_ms: 1000 / 24000 });
  });

  it("returns an empty track for no audio and rejects a bad sample rate", () => {
    expect(placeAssistantAudio([], 24000)).toEqual({ spans: [], track: new Int16Array(0) });
    expect(() => placeAssistantAudio([], 0)).toThrow(TimelineInputError);
  });
});
