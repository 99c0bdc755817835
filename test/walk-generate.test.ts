import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { pcm16FromBytes, pcm16ToBytes } from "../src/core/audio/pcm";
import { pcm16Wav } from "../src/core/audio/wav";
import { generateAudioCommand, GENERATE_AUDIO_HELP } from "../src/core/cli/generate-audio";
import { loadDataset } from "../src/core/dataset/load";
import { EspeakSynthesizer } from "../src/core/speech/espeak";
import type { SpeechSynthesizer, SynthesizedSpeech } from "../src/core/speech/synthesizer";
import { applyCondition, CONDITION_PRESETS } from "../src/core/walk/conditions";
import { generateAudio, type GenerateAudioOptions } from "../src/core/walk/generate";
import { loadRecording, validateRecordings } from "../src/core/walk/recordings";
import { deriveSeed } from "../src/core/walk/seeded-random";
import { tones } from "./walk-signal";

const CRAWL = resolve(__dirname, "../crashlab/data/crawl.json");
const sha = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** A synthesizer that counts its calls and speaks each text as a tone of its own. */
class ToneSynthesizer implements SpeechSynthesizer {
  readonly provider = "test-tones";
  readonly model = "tones-1";
  calls: string[] = [];
  constructor(readonly voice = "plain") {}
  async synthesize(text: string): Promise<SynthesizedSpeech> {
    this.calls.push(text);
    const frequency = 200 + (parseInt(sha(text + this.voice).slice(0, 4), 16) % 600);
    return { samples: tones([frequency], 5000, 0.4 + text.length * 0.01), sampleRate: 24_000, provider: this.provider, model: this.model, voice: this.voice };
  }
}

function scenario(id: string, text: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    title: `Request ${id}`,
    interaction: "single_turn",
    tags: ["booking"],
    input: { text },
    application: { initial_state: { open: true } },
    expected: { answer: "Answers it.", state: { open: true } },
    ...extra,
  };
}

const multiTurn = {
  id: "chat",
  title: "A conversation",
  interaction: "multi_turn",
  input: { text: "Hello." },
  application: { initial_state: {} },
  expected: { answer: "Helps.", golden_path: { turns: 8, steps: [] } },
  simulation_parameters: {
    goal: "Book.",
    agenda: ["ask", "confirm"].map((id) => ({
      id,
      commitment: id,
      trigger_condition: "always",
      completion_condition: "done",
      completion_basis: "expression",
      wording_policy: "adapt_to_live_context",
      action: "answer",
    })),
    persona: { description: "A caller." },
  },
};

function workspace(scenarios: unknown[] = [scenario("a", "Book a table for two."), scenario("b", "Cancel my booking please."), multiTurn]) {
  const dir = mkdtempSync(join(tmpdir(), "walk-gen-"));
  const source = join(dir, "source.json");
  writeFileSync(source, JSON.stringify({ schema_version: "1.0", scenarios }, null, 2));
  const background = join(dir, "room.wav");
  writeFileSync(background, pcm16Wav(tones([350, 520], 1500, 2), 24_000));
  const out = join(dir, "walk", "walk.json");
  return { dir, source, background, out };
}

/** Every file under `dir` with its bytes' hash, to prove a refusal wrote nothing. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const stats = lstatSync(path);
      if (stats.isDirectory()) walk(path);
      else files[path] = stats.isSymbolicLink() ? "link" : sha(readFileSync(path));
    }
  };
  walk(dir);
  return files;
}

async function run(argv: string[], cwd = process.cwd()) {
  let stdout = "";
  let stderr = "";
  const code = await generateAudioCommand(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd });
  return { code, stdout, stderr };
}

describe("crashlab generate-audio, end to end", () => {
  it("turns CRAWL's text-only scenarios into WALK fixtures with provenance, reproducible from the metadata", async () => {
    const { dir } = workspace();
    const result = await run(
      ["--data", CRAWL, "--example", "harbor_024", "--example", "harbor_026", "--output-data", "walk/walk.json", "--condition", "noisy", "--noise-rms", "120", "--seed", "41"],
      dir,
    );
    expect(result.stderr).toContain("harbor_024_noisy: noisy from synthesized");
    expect(result.code).toBe(0);
    const out = join(dir, "walk", "walk.json");
    expect(result.stdout).toBe(`${out}: 2 scenario(s); wrote 2 recording(s), skipped 0; clean speech synthesized 2, reused 0\n`);

    const { dataset } = loadDataset(out);
    expect(validateRecordings(dataset, out)).toEqual([]);
    const crawl = loadDataset(CRAWL).dataset;
    const espeak = new EspeakSynthesizer();
    for (const s of dataset.scenarios) {
      const source = crawl.scenarios.find((c) => `${c.id}_noisy` === s.id)!;
      expect(s.input.text).toBe(source.input.text);
      expect(s.expected).toEqual(source.expected);
      expect(s.application).toEqual(source.application);
      expect(s.title).toBe(`${source.title} (noisy)`);
      const recording = s.input.recordings![0]!;
      expect(recording).toMatchObject({ id: "caller_recording", path: `audio/${s.id}.wav`, condition: "noisy" });
      const m = recording.metadata as Record<string, any>;
      expect(m).toMatchObject({
        synthetic: true,
        generator: "crashlab generate-audio 0.1.0",
        source_scenario: source.id,
        source_text_sha256: sha(source.input.text),
        synthesizer: { provider: "espeak-ng", model: "espeak-ng-emscripten@0.3.5", voice: "en-us+f3" },
        clean_audio: { origin: "synthesized", lead_silence_ms: 300, tail_silence_ms: 1000 },
        preset: "noisy",
        seed: 41,
        effect_seed: deriveSeed(41, s.id),
        effects: { preset: "noisy", noise: { rms: 120, amplitude: 208 } },
        observations: { lost_frames: 0, events: [] },
      });
      const loaded = loadRecording(out, s, recording);
      expect(m.pcm_sha256).toBe(loaded.sha256);
      expect(m.duration_ms).toBeCloseTo(loaded.duration_ms, 3);
      // Anyone can rebuild the file from its metadata: the clean speech, padded, under the recorded effect seed.
      const speech = (await espeak.synthesize(source.input.text)).samples;
      const clean = new Int16Array(speech.length + 31_200);
      clean.set(speech, 7200);
      expect(sha(pcm16ToBytes(clean))).toBe(m.clean_audio.pcm_sha256);
      const rebuilt = applyCondition(clean, { preset: "noisy", seed: m.effect_seed, overrides: { noise_rms: 120 } }).samples;
      expect(Buffer.from(loaded.pcm).equals(Buffer.from(pcm16ToBytes(rebuilt)))).toBe(true);
    }
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "walk", "audio")).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "walk", "audio", "harbor_024_noisy.wav")).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, "walk", "audio")).sort()).toEqual(["harbor_024_noisy.wav", "harbor_026_noisy.wav"]);
  });

  it("reuses clean recordings instead of synthesizing again, skips existing outputs, and --force regenerates identical bytes", async () => {
    const { source, out, background } = workspace();
    const synth = new ToneSynthesizer();
    const base: GenerateAudioOptions = { data: source, outputData: out, synthesizer: synth, backgroundSpeech: background };

    const clean = await generateAudio({ ...base, condition: "clean" });
    expect(synth.calls).toEqual(["Book a table for two.", "Cancel my booking please."]); // the multi-turn scenario is left out
    expect(clean).toMatchObject({ scenarios: 2, written: 2, skipped: 0, synthesized: 2, reused_clean: 0 });

    const phone = await generateAudio({ ...base, condition: "telephony", append: true });
    expect(synth.calls.length).toBe(2); // no new synthesis: derived from the clean fixtures
    expect(phone).toMatchObject({ scenarios: 4, written: 2, synthesized: 0, reused_clean: 2 });
    const { dataset } = loadDataset(out);
    expect(dataset.scenarios.map((s) => s.id)).toEqual(["a_clean", "b_clean", "a_telephony", "b_telephony"]);
    const telephony = dataset.scenarios[2]!.input.recordings![0]!;
    expect(telephony.metadata.clean_audio).toMatchObject({ origin: "generated_clean", path: "audio/a_clean.wav" });
    const cleanPcm = loadRecording(out, dataset.scenarios[0]!, dataset.scenarios[0]!.input.recordings![0]!).pcm;
    const expected = applyCondition(pcm16FromBytes(cleanPcm), { preset: "telephony", seed: deriveSeed(41, "a_telephony") }).samples;
    expect(Buffer.from(loadRecording(out, dataset.scenarios[2]!, telephony).pcm).equals(Buffer.from(pcm16ToBytes(expected)))).toBe(true);

    const before = snapshot(resolve(out, ".."));
    const again = await generateAudio({ ...base, condition: "telephony", append: true });
    expect(again).toMatchObject({ written: 0, skipped: 2, synthesized: 0 });
    expect(again.recordings.map((r) => r.reason)).toEqual(["already generated (pass --force to regenerate)", "already generated (pass --force to regenerate)"]);
    expect(snapshot(resolve(out, ".."))).toEqual(before);

    const forced = await generateAudio({ ...base, condition: "telephony", append: true, force: true });
    expect(forced).toMatchObject({ scenarios: 4, written: 2, skipped: 0, synthesized: 0, reused_clean: 2 });
    expect(snapshot(resolve(out, ".."))).toEqual(before); // same seed, same clean audio: the same bytes

    // Forcing the clean recordings themselves means synthesizing them again.
    const reclean = await generateAudio({ ...base, condition: "clean", append: true, force: true });
    expect(reclean).toMatchObject({ written: 2, synthesized: 2 });
    expect(synth.calls.length).toBe(4);
    // Another voice is another recording: the clean fixtures of the first voice are not reused for it.
    const other = new ToneSynthesizer("other");
    await generateAudio({ ...base, synthesizer: other, condition: "echo", append: true });
    expect(other.calls.length).toBe(2);
  });

  it("refuses an existing output dataset without --append or --force, and replaces it with --force", async () => {
    const { dir, source, out, background } = workspace();
    const synth = new ToneSynthesizer();
    await generateAudio({ data: source, outputData: out, synthesizer: synth, examples: ["a"] });
    const refused = await run(["--data", source, "--output-data", out, "--example", "b"], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`crashlab generate-audio: ${out} already exists; pass --append to add to it, --force to replace it, or choose another --output-data\n`);
    const replaced = await generateAudio({ data: source, outputData: out, synthesizer: synth, examples: ["b"], force: true, backgroundSpeech: background });
    expect(replaced.scenarios).toBe(1);
    expect(loadDataset(out).dataset.scenarios.map((s) => s.id)).toEqual(["b_clean"]);
  });

  it("cycles the seven presets over the scenarios with --vary-conditions", async () => {
    const scenarios = Array.from({ length: 9 }, (_, i) => scenario(`s${i}`, `Request number ${i} for a table.`));
    const { source, out, background } = workspace(scenarios);
    const report = await generateAudio({ data: source, outputData: out, synthesizer: new ToneSynthesizer(), varyConditions: true, backgroundSpeech: background, overrides: { non_directed_every_ms: 0 } });
    const presets = [...CONDITION_PRESETS, "clean", "noisy"];
    expect(report.recordings.map((r) => [r.scenario_id, r.preset])).toEqual(scenarios.map((s, i) => [`${s.id}_${presets[i]}`, presets[i]]));
    const { dataset } = loadDataset(out);
    expect(dataset.scenarios.map((s) => s.input.recordings![0]!.condition)).toEqual(presets);
    expect(validateRecordings(dataset, out)).toEqual([]);
    const realistic = dataset.scenarios[6]!.input.recordings![0]!.metadata as Record<string, any>;
    expect(realistic.background).toMatchObject({ source: "file", file: "room.wav" });
    expect(realistic.effects.events.non_directed_every_ms).toBe(0);
  });

  it("derives from a scenario's own clean recording (read-only, even outside the output folder) and carries its metadata", async () => {
    const { dir, out } = workspace();
    const human = join(dir, "elsewhere", "maya.wav");
    mkdirSync(join(dir, "elsewhere"));
    const voice = tones([180, 540], 6000, 1.2);
    writeFileSync(human, pcm16Wav(voice, 24_000));
    const humanBytes = sha(readFileSync(human));
    const source = join(dir, "recorded.json");
    writeFileSync(
      source,
      JSON.stringify({
        schema_version: "1.0",
        scenarios: [
          scenario("maya", "Book a table for Maya.", {
            input: { text: "Book a table for Maya.", recordings: [{ id: "phone", path: "elsewhere/maya.wav", condition: "clean", metadata: { accent: "scottish", microphone: "headset" } }] },
          }),
        ],
      }),
    );
    const synth = new ToneSynthesizer();
    const report = await generateAudio({ data: source, outputData: out, synthesizer: synth, condition: "echo" });
    expect(synth.calls).toEqual([]);
    expect(report.recordings[0]).toMatchObject({ scenario_id: "maya_echo", clean_audio: "source_recording" });
    const s = loadDataset(out).dataset.scenarios[0]!;
    const m = s.input.recordings![0]!.metadata as Record<string, any>;
    expect(m).toMatchObject({ accent: "scottish", microphone: "headset", source_scenario: "maya", synthesizer: null, clean_audio: { origin: "source_recording", path: "../elsewhere/maya.wav" } });
    expect(m.synthetic).toBeUndefined();
    const loaded = loadRecording(out, s, s.input.recordings![0]!);
    expect(Buffer.from(loaded.pcm).equals(Buffer.from(pcm16ToBytes(applyCondition(voice, { preset: "echo", seed: 0 }).samples)))).toBe(true);
    expect(sha(readFileSync(human))).toBe(humanBytes);

    // Generated again from the WALK dataset itself, it names the original scenario, not "maya_echo".
    const again = await generateAudio({ data: out, outputData: out, append: true, synthesizer: synth, condition: "noisy" });
    expect(again.recordings.map((r) => r.scenario_id)).toEqual(["maya_noisy"]);
    expect(synth.calls).toEqual(["Book a table for Maya."]); // maya_echo has no clean recording: its text is synthesized
  });
});

describe("destinations are checked before anything is written", () => {
  async function refusedWithoutWriting(options: Partial<GenerateAudioOptions> & { data: string; outputData: string }, root: string, message: RegExp | string) {
    const synth = new ToneSynthesizer();
    const before = snapshot(root);
    await expect(generateAudio({ synthesizer: synth, ...options })).rejects.toThrow(message);
    expect(synth.calls).toEqual([]);
    expect(snapshot(root)).toEqual(before);
  }

  function existingOutput(out: string, scenarios: unknown[]) {
    mkdirSync(resolve(out, "..", "audio"), { recursive: true });
    writeFileSync(out, JSON.stringify({ schema_version: "1.0", scenarios }, null, 2));
  }

  it("refuses path traversal out of the audio folder", async () => {
    const { dir, source, out } = workspace();
    // A recording path that leaves the dataset's folder is refused when the dataset is read...
    existingOutput(out, [scenario("a_noisy", "Book a table for two.", { input: { text: "Book a table for two.", recordings: [{ id: "r", path: "../../outside.wav", condition: "noisy" }] } })]);
    await refusedWithoutWriting(
      { data: source, outputData: out, append: true, force: true, condition: "noisy", examples: ["a"] },
      dir,
      `scenario "a_noisy", field scenarios[0].input.recordings[0].path: must not contain '..'`,
    );
    existingOutput(out, [scenario("a_noisy", "Book a table for two.", { input: { text: "Book a table for two.", recordings: [{ id: "r", path: "audio/../walk.json.wav", condition: "noisy" }] } })]);
    await refusedWithoutWriting({ data: source, outputData: out, append: true, condition: "noisy", examples: ["a"] }, dir, /must not contain '\.\.'/);
    // ...and one inside the dataset's folder but outside its audio folder, when writing.
    existingOutput(out, [scenario("a_noisy", "Book a table for two.", { input: { text: "Book a table for two.", recordings: [{ id: "r", path: "elsewhere.wav", condition: "noisy" }] } })]);
    await refusedWithoutWriting(
      { data: source, outputData: out, append: true, force: true, condition: "noisy", examples: ["a"] },
      dir,
      `refusing to write elsewhere.wav: generated recordings must stay inside ${join(dir, "walk", "audio")}/ (the output dataset's audio folder)`,
    );
    expect(existsSync(join(dir, "outside.wav"))).toBe(false);
  });

  it("refuses to write through a symbolic link: the file, the audio folder, or the dataset", async () => {
    const { dir, source, out } = workspace();
    mkdirSync(join(dir, "walk", "audio"), { recursive: true });
    writeFileSync(join(dir, "precious.wav"), "do not touch");
    symlinkSync(join(dir, "precious.wav"), join(dir, "walk", "audio", "a_noisy.wav"));
    await refusedWithoutWriting(
      { data: source, outputData: out, force: true, condition: "noisy", examples: ["a"] },
      dir,
      `refusing to write ${join(dir, "walk", "audio", "a_noisy.wav")}: ${join(dir, "walk", "audio", "a_noisy.wav")} is a symbolic link, and generated audio is never written through a link`,
    );
    expect(readFileSync(join(dir, "precious.wav"), "utf8")).toBe("do not touch");

    const other = workspace();
    mkdirSync(join(other.dir, "real-audio"));
    mkdirSync(join(other.dir, "walk"));
    symlinkSync(join(other.dir, "real-audio"), join(other.dir, "walk", "audio"));
    await refusedWithoutWriting({ data: other.source, outputData: other.out, condition: "clean" }, other.dir, /walk\/audio is a symbolic link/);

    const third = workspace();
    mkdirSync(join(third.dir, "walk"));
    writeFileSync(join(third.dir, "target.json"), "{}");
    symlinkSync(join(third.dir, "target.json"), third.out);
    await refusedWithoutWriting({ data: third.source, outputData: third.out, force: true }, third.dir, `refusing to write ${third.out}: it is a symbolic link`);
  });

  it("refuses file-name collisions: two scenarios to one file, a file another scenario owns, a file nobody owns", async () => {
    // a and a_clean (generated from a) would both become a_noisy.
    const twins = workspace([
      scenario("a", "Book a table for two."),
      scenario("a_clean", "Book a table for two.", { input: { text: "Book a table for two.", recordings: [{ id: "r", path: "audio/a_clean.wav", metadata: { source_scenario: "a" } }] } }),
    ]);
    await refusedWithoutWriting({ data: twins.source, outputData: twins.out, condition: "noisy" }, twins.dir, 'refusing to generate: scenarios "a" and "a_clean" would both become "a_noisy" (audio/a_noisy.wav); select one of them with --example');

    const owned = workspace();
    existingOutput(owned.out, [scenario("other", "Hello.", { input: { text: "Hello.", recordings: [{ id: "r", path: "audio/a_noisy.wav" }] } })]);
    writeFileSync(join(owned.dir, "walk", "audio", "a_noisy.wav"), pcm16Wav(tones([300], 1000, 0.2), 24_000));
    await refusedWithoutWriting(
      { data: owned.source, outputData: owned.out, append: true, force: true, condition: "noisy", examples: ["a"] },
      owned.dir,
      `refusing to write ${join(owned.dir, "walk", "audio", "a_noisy.wav")} for "a_noisy": scenario "other" of ${owned.out} already uses that file; rename one of them`,
    );

    const stray = workspace();
    mkdirSync(join(stray.dir, "walk", "audio"), { recursive: true });
    writeFileSync(join(stray.dir, "walk", "audio", "b_noisy.wav"), "someone else's");
    await refusedWithoutWriting(
      { data: stray.source, outputData: stray.out, condition: "noisy", examples: ["b"] },
      stray.dir,
      `refusing to overwrite ${join(stray.dir, "walk", "audio", "b_noisy.wav")}: it exists but no scenario of ${stray.out} uses it; move it away, or pass --force to overwrite it`,
    );
  });

  it("never overwrites a source recording in place", async () => {
    const { dir, source, out } = workspace();
    await generateAudio({ data: source, outputData: out, synthesizer: new ToneSynthesizer(), condition: "clean", examples: ["a"] });
    await refusedWithoutWriting(
      { data: out, outputData: out, append: true, force: true, condition: "clean", examples: ["a_clean"] },
      dir,
      `refusing to write ${join(dir, "walk", "audio", "a_clean.wav")} for "a_clean": it is recording "caller_recording" of source scenario "a_clean", a read-only input`,
    );
  });
});

describe("generate-audio command line", () => {
  const cases: Array<[string[], string]> = [
    [["--output-data", "x.json"], "--data <dataset.json> is required"],
    [["--data", "crawl.json"], "--output-data <dataset.json> is required"],
    [["--data", "a.json", "--output-data", "b.json", "--condition", "noisy", "--vary-conditions"], "give either --condition or --vary-conditions, not both"],
    [["--data", "a.json", "--output-data", "b.json", "--condition", "underwater"], '--condition must be one of clean, noisy, telephony, background_speech, echo, packet_loss, realistic (got "underwater")'],
    [["--data", "a.json", "--output-data", "b.json", "--condition", "noisy", "--echo-decay", "0.5"], "--echo-decay has no effect on --condition noisy; presets that use it: echo, realistic"],
    [["--data", "a.json", "--output-data", "b.json", "--background-speech", "room.wav"], "--background-speech has no effect on --condition clean; presets that use it: background_speech, realistic"],
    [["--data", "a.json", "--output-data", "b.json", "--condition", "packet_loss", "--packet-loss-burst", "two"], '--packet-loss-burst takes a whole number >= 1 (got "two")'],
    [["--data", "a.json", "--output-data", "b.json", "--seed=-3"], '--seed takes a whole number >= 0 (got "-3")'],
    [["--data", "a.json", "--output-data", "b.json", "--seed", "1.5"], '--seed takes a whole number >= 0 (got "1.5")'],
    [["--data", "a.json", "--output-data", "b.json", "--live"], "--live needs OPENAI_API_KEY in the environment"],
    [["--data", "a.json", "--output-data", "b.json", "--loud"], "Unknown option '--loud'"],
  ];
  it.each(cases)("%j is a usage error", async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain("(see `crashlab generate-audio --help`)");
  });

  it("reports input errors in one paragraph with exit 2", async () => {
    const { dir, source } = workspace();
    const unknown = await run(["--data", source, "--output-data", "o/walk.json", "--example", "zzz"], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`crashlab generate-audio: --example zzz: no such scenario in ${source} (it has 3: a, b, chat)\n`);
    const chat = await run(["--data", source, "--output-data", "o/walk.json", "--example", "chat"], dir);
    expect(chat.stderr).toContain("--example chat: scenario is multi_turn; generate-audio makes single-turn recordings only");
    const range = await run(["--data", source, "--output-data", "o/walk.json", "--condition", "noisy", "--noise-rms", "99999"], dir);
    expect(range.stderr).toContain("noise_rms (--noise-rms) must be a PCM16 RMS from 0 to 10000, got 99999");
    const missing = await run(["--data", "nope.json", "--output-data", "o/walk.json"], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`Invalid dataset ${join(dir, "nope.json")}: file not found.`);
    expect(existsSync(join(dir, "o"))).toBe(false);
  });

  it("prints its help", async () => {
    const result = await run(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(GENERATE_AUDIO_HELP + "\n");
    for (const flag of ["--data", "--output-data", "--example", "--condition", "--vary-conditions", "--append", "--seed", "--force", "--noise-rms", "--background-speech", "--background-gain", "--echo-delay-ms", "--echo-decay", "--packet-loss-rate", "--packet-loss-burst", "--cough-every-ms", "--non-directed-every-ms", "--voice"]) {
      expect(GENERATE_AUDIO_HELP).toContain(flag);
    }
  });
});

