import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDataset } from "../src/core/dataset/load";
import { bundledBackgroundSpeakerWav, BUNDLED_BACKGROUND_SPEAKER_PATH } from "../src/core/walk/condition-assets";
import { CONDITION_PRESETS } from "../src/core/walk/conditions";
import { generateAudio } from "../src/core/walk/generate";
import { loadRecording, validateRecordings } from "../src/core/walk/recordings";

/** The bundled WALK dataset (scripts/make-walk-fixtures.sh) against the CRAWL dataset it was made from. */
const root = resolve(__dirname, "..");
const WALK = join(root, "crashlab/data/walk.json");
const CRAWL = join(root, "crashlab/data/crawl.json");
const sha = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
const BASELINES = ["harbor_003", "harbor_009", "harbor_013", "harbor_017", "harbor_024"];

describe("bundled WALK dataset", () => {
  const walk = loadDataset(WALK).dataset;
  const crawl = loadDataset(CRAWL).dataset;

  it("has five clean baselines plus one recording per CRAWL scenario, cycling the seven presets", () => {
    expect(walk.scenarios.length).toBe(5 + crawl.scenarios.length);
    expect(walk.scenarios.slice(0, 5).map((s) => s.id)).toEqual(BASELINES.map((id) => `${id}_clean`));
    const cycled = walk.scenarios.slice(5);
    crawl.scenarios.forEach((source, i) => {
      const preset = CONDITION_PRESETS[i % CONDITION_PRESETS.length]!;
      expect(cycled[i]!.id).toBe(`${source.id}_${preset}`);
      expect(cycled[i]!.input.recordings![0]!.condition).toBe(preset);
    });
    // Both datasets can sit in one PLAN: no id is shared.
    const crawlIds = new Set(crawl.scenarios.map((s) => s.id.toLowerCase()));
    expect(walk.scenarios.filter((s) => crawlIds.has(s.id.toLowerCase()))).toEqual([]);
  });

  it("keeps each source scenario's reference transcript, context, initial state and expectations", () => {
    for (const s of walk.scenarios) {
      const m = s.input.recordings![0]!.metadata as Record<string, any>;
      const source = crawl.scenarios.find((c) => c.id === m.source_scenario)!;
      expect(s.input.text).toBe(source.input.text);
      expect(s.input.context).toEqual(source.input.context);
      expect(s.application).toEqual(source.application);
      expect(s.expected).toEqual(source.expected);
      expect(s.interaction).toBe("single_turn");
      expect(m).toMatchObject({ generator: "crashlab generate-audio 0.1.0", source_dataset: "crawl.json", seed: 41, synthesizer: { provider: "espeak-ng", voice: "en-us+f3" } });
    }
  });

  it("holds valid recordings whose bytes match their recorded hashes, at a modest total size", () => {
    expect(validateRecordings(walk, WALK)).toEqual([]);
    for (const s of walk.scenarios) {
      const recording = s.input.recordings![0]!;
      expect(loadRecording(WALK, s, recording).sha256).toBe(recording.metadata.pcm_sha256);
    }
    const audio = join(root, "crashlab/data/audio");
    const bytes = readdirSync(audio).reduce((n, name) => n + statSync(join(audio, name)).size, 0);
    expect(bytes).toBeLessThan(9 * 1024 * 1024);
  });

  it("reuses the clean baselines for their scenarios' conditioned recordings", () => {
    for (const id of BASELINES) {
      const conditioned = walk.scenarios.find((s) => s.id.startsWith(`${id}_`) && !s.id.endsWith("_clean"))!;
      expect(conditioned.input.recordings![0]!.metadata.clean_audio).toMatchObject({ origin: "generated_clean", path: `audio/${id}_clean.wav` });
    }
  });

  it("commits the second speaker exactly as condition-assets synthesizes it", async () => {
    expect(sha(readFileSync(join(root, BUNDLED_BACKGROUND_SPEAKER_PATH)))).toBe(sha(await bundledBackgroundSpeakerWav()));
  });

  it("regenerates byte for byte", async () => {
    const dir = mkdtempSync(join(tmpdir(), "walk-regen-"));
    const out = join(dir, "walk.json");
    const picks: Array<[string, (typeof CONDITION_PRESETS)[number]]> = [
      ["harbor_003", "clean"],
      ["harbor_003", "telephony"],
      ["harbor_004", "background_speech"],
      ["harbor_007", "realistic"],
    ];
    for (const [example, condition] of picks) {
      await generateAudio({ data: CRAWL, outputData: out, examples: [example], condition, seed: 41, append: true });
      const id = `${example}_${condition}`;
      expect(sha(readFileSync(join(dir, "audio", `${id}.wav`))), id).toBe(sha(readFileSync(join(root, "crashlab/data/audio", `${id}.wav`))));
    }
  });
});
