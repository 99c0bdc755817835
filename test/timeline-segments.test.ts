import { describe, expect, it } from "vitest";
import { callerSegments, TimelineInputError } from "../src/core/timeline";

const iv = (start_ms: number, end_ms: number) => ({ start_ms, end_ms });

describe("callerSegments", () => {
  it("a single-turn trial is one SPEAK utterance with no window, spanning all caller audio", () => {
    // Voiced [200,1500) and [1700,3000): the 200 ms pause does not split the utterance → [200,3000).
    const segments = callerSegments([{ action: "SPEAK", text: "Book a table" }], [iv(200, 1500), iv(1700, 3000)]);
    expect(segments).toEqual([
      { utterance: 0, action: "SPEAK", start_ms: 200, end_ms: 3000, voiced: [iv(200, 1500), iv(1700, 3000)], text: "Book a table" },
    ]);
  });

  it("clips voiced audio to each utterance's window and runs from first to last voiced interval", () => {
    const voiced = [iv(500, 1500), iv(1800, 2500), iv(3000, 4000), iv(7000, 7300)];
    const segments = callerSegments(
      [
        { action: "OPENING", end_ms: 2000 },
        { action: "SPEAK", start_ms: 2000, end_ms: 6000 },
        { action: "BACKCHANNEL", start_ms: 6000 },
      ],
      voiced,
    );
    // OPENING (−∞,2000): [500,1500) and the first 200 ms of [1800,2500) → segment [500,2000).
    // SPEAK [2000,6000): the rest of [1800,2500) → [2000,2500), and [3000,4000) → segment [2000,4000).
    // BACKCHANNEL [6000,∞): [7000,7300).
    expect(segments.map((s) => [s.action, s.start_ms, s.end_ms])).toEqual([
      ["OPENING", 500, 2000],
      ["SPEAK", 2000, 4000],
      ["BACKCHANNEL", 7000, 7300],
    ]);
    expect(segments[0]!.voiced).toEqual([iv(500, 1500), iv(1800, 2000)]);
    expect(segments[1]!.voiced).toEqual([iv(2000, 2500), iv(3000, 4000)]);
  });

  it("drops an utterance with no voiced audio, keeping the others' indices", () => {
    // Utterance 1 has a transcript but its window [5000,8000) holds no voiced audio.
    const segments = callerSegments(
      [
        { action: "SPEAK", end_ms: 5000 },
        { action: "SPEAK", start_ms: 5000, end_ms: 8000, text: "inaudible" },
        { action: "STOP", start_ms: 8000 },
      ],
      [iv(1000, 2000), iv(9000, 9500)],
    );
    expect(segments.map((s) => [s.utterance, s.action])).toEqual([
      [0, "SPEAK"],
      [2, "STOP"],
    ]);
  });

  it("yields no segments for a transcript-only caller", () => {
    expect(callerSegments([{ action: "SPEAK", text: "hello" }], [])).toEqual([]);
  });

  it("rejects overlapping or unordered windows, including two unbounded ones", () => {
    expect(() => callerSegments([{ action: "SPEAK" }, { action: "SPEAK" }], [iv(0, 10)])).toThrow(TimelineInputError);
    expect(() =>
      callerSegments(
        [
          { action: "SPEAK", start_ms: 0, end_ms: 2000 },
          { action: "SPEAK", start_ms: 1999, end_ms: 3000 },
        ],
        [],
      ),
    ).toThrow(/utterances\[1\].*previous utterance/);
    // Touching windows are fine.
    expect(
      callerSegments(
        [
          { action: "SPEAK", end_ms: 2000 },
          { action: "SPEAK", start_ms: 2000 },
        ],
        [iv(0, 4000)],
      ).map((s) => [s.start_ms, s.end_ms]),
    ).toEqual([
      [0, 2000],
      [2000, 4000],
    ]);
  });

  it("rejects an inverted window and a non-numeric bound", () => {
    expect(() => callerSegments([{ action: "SPEAK", start_ms: 500, end_ms: 100 }], [])).toThrow(/utterances\[0\]/);
    expect(() => callerSegments([{ action: "SPEAK", start_ms: Number.NaN }], [])).toThrow(/utterances\[0\]\.start_ms/);
  });
});

describe("callerSegments, edge cases", () => {
  it("an utterance whose window has no width is allowed and owns no audio", () => {
    const segments = callerSegments(
      [
        { action: "SPEAK", end_ms: 1000 },
        { action: "BACKCHANNEL", start_ms: 1000, end_ms: 1000 },
        { action: "SPEAK", start_ms: 1000 },
      ],
      [iv(0, 2000)],
    );
    expect(segments.map((s) => [s.utterance, s.start_ms, s.end_ms])).toEqual([
      [0, 0, 1000],
      [2, 1000, 2000],
    ]);
  });

  it("a segment carries the utterance's text only when it has one", () => {
    expect(callerSegments([{ action: "SPEAK" }], [iv(0, 500)])).toStrictEqual([{ utterance: 0, action: "SPEAK", start_ms: 0, end_ms: 500, voiced: [iv(0, 500)] }]);
  });

  it("says what is wrong with a window, and which voiced interval is bad", () => {
    expect(() => callerSegments([{ action: "SPEAK", end_ms: Infinity }], [])).toThrow("utterances[0].end_ms: must be a finite number of ms or omitted (open), got Infinity");
    expect(() => callerSegments([{ action: "SPEAK", start_ms: 500, end_ms: 100 }], [])).toThrow("utterances[0]: window ends (100 ms) before it starts (500 ms)");
    expect(() =>
      callerSegments(
        [
          { action: "SPEAK", end_ms: 2000 },
          { action: "SPEAK", start_ms: 1500 },
        ],
        [],
      ),
    ).toThrow(
      "utterances[1]: window starts at 1500 ms, before the previous utterance's window ends (2000 ms); list utterances in time order and give every utterance except the first a start_ms and every one except the last an end_ms",
    );
    expect(() => callerSegments([{ action: "SPEAK" }], [iv(10, 5)])).toThrow(/^callerVoiced\[0\]: interval ends before it starts/);
  });
});
