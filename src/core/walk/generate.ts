/**
 * `crashlab generate-audio` as a function: from any single-turn dataset (CRAWL's text-only ones
 * included) write reusable WALK fixtures — one WAV per selected scenario under the output dataset's
 * `audio/` folder — and a dataset whose recordings carry their condition, seed and provenance.
 *
 * Order of work: read and check everything, plan every destination and refuse unsafe ones, then
 * produce the audio in memory, then write (WAVs, then the dataset, each atomically). So a refusal or
 * a failed synthesis leaves the disk as it was.
 *
 * Clean speech is produced once: a scenario's own clean recording (a human one, for instance) is
 * used as is; a clean fixture generated earlier for the same text and voice is reused; only
 * otherwise is the text synthesized. Conditioned fixtures are derived from that clean audio.
 * Generation never runs during an evaluation: WALK replays the saved files exactly.
 */
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { pcm16FromBytes, pcm16ToBytes } from "../audio/pcm";
import { pcm16Wav } from "../audio/wav";
import { DatasetError, parseDataset, readDatasetJson } from "../dataset/load";
import { SAFE_ID, type Dataset, type Scenario } from "../dataset/schema";
import { EspeakSynthesizer } from "../speech/espeak";
import { DEFAULT_CALLER_VOICE, type SpeechSynthesizer } from "../speech/synthesizer";
import { CRASHLAB_VERSION } from "../version";
import { BACKGROUND_SPEAKER_VOICE, readBackgroundSpeech, synthesizeBackgroundSpeaker, synthesizeNonDirectedUtterances } from "./condition-assets";
import {
  applyCondition,
  CONDITION_PRESETS,
  CONDITION_SAMPLE_RATE,
  presetUsesBackground,
  presetUsesNonDirected,
  validateOverrides,
  type ConditionOverrides,
  type ConditionPreset,
} from "./conditions";
import { audioDestination, checkDatasetTarget, checkWriteTarget, DestinationError, writeFileAtomic } from "./destinations";
import { loadRecording } from "./recordings";
import { deriveSeed } from "./seeded-random";
import { UserError } from "../user-error";

/** The seed used when none is given (the one the reference harness documents). */
export const DEFAULT_GENERATION_SEED = 41;
/** Silence put around synthesized speech, so the fixture sounds like a recording and has pauses to put events in. */
export const SYNTHESIZED_LEAD_MS = 300;
export const SYNTHESIZED_TAIL_MS = 1000;
/** The id every generated recording has within its scenario. */
export const GENERATED_RECORDING_ID = "caller_recording";
export const GENERATOR = `crashlab generate-audio ${CRASHLAB_VERSION}`;

/** Metadata keys generate-audio owns; any others (language, accent, customer fields) are carried over. */
const GENERATED_KEYS = new Set([
  "synthetic",
  "generator",
  "source_dataset",
  "source_scenario",
  "source_text_sha256",
  "synthesizer",
  "clean_audio",
  "preset",
  "seed",
  "effect_seed",
  "effects",
  "observations",
  "background",
  "pcm_sha256",
  "duration_ms",
]);

export interface GenerateAudioOptions {
  /** Source dataset (any single-turn dataset). */
  data: string;
  /** Dataset to write; its WAVs go to `<its folder>/audio/`. */
  outputData: string;
  /** Scenario ids to generate (default: every single-turn scenario). */
  examples?: string[];
  /** One preset for every scenario (default clean). */
  condition?: ConditionPreset;
  /** Cycle the seven presets over the selected scenarios, in order. */
  varyConditions?: boolean;
  /** Add to (or update) an existing output dataset instead of refusing to touch it. */
  append?: boolean;
  /** Regenerate outputs that already exist (and replace an existing output dataset without --append). */
  force?: boolean;
  seed?: number;
  overrides?: ConditionOverrides;
  /** An authorized second-speaker WAV instead of the bundled one (a read-only input). */
  backgroundSpeech?: string;
  /** Default: offline espeak-ng with `voice`. */
  synthesizer?: SpeechSynthesizer;
  /** Voice for the default synthesizer (an OpenAI voice name or an espeak voice); default "coral". */
  voice?: string;
  /** Progress lines. */
  log?: (line: string) => void;
}

export type CleanAudioOrigin = "source_recording" | "generated_clean" | "synthesized";

export interface GeneratedRecording {
  scenario_id: string;
  source_scenario: string;
  preset: ConditionPreset;
  /** As written in the dataset, relative to it. */
  path: string;
  action: "written" | "skipped";
  reason?: string;
  clean_audio?: CleanAudioOrigin;
  duration_ms?: number;
}

export interface GenerateAudioReport {
  output: string;
  /** Scenarios in the output dataset after the run. */
  scenarios: number;
  recordings: GeneratedRecording[];
  written: number;
  skipped: number;
  /** Texts sent to the synthesizer. */
  synthesized: number;
  /** Clean audio taken from an existing recording instead. */
  reused_clean: number;
}

export type GenerateAudioErrorCode = "usage" | "selection" | "exists" | "id";

/** A generate-audio request that cannot be carried out as given; says what to change. */
export class GenerateAudioError extends UserError {
  override readonly name = "GenerateAudioError";
  constructor(
    readonly code: GenerateAudioErrorCode,
    message: string,
  ) {
    super(message);
  }
}

interface DatasetFile {
  file: string;
  raw: { schema_version: string; scenarios: Array<Record<string, unknown>> };
  dataset: Dataset;
}

interface Item {
  index: number;
  source: Scenario;
  raw: Record<string, unknown>;
  preset: ConditionPreset;
  id: string;
  base: string;
  path: string;
  destination: string;
  write: boolean;
  reason?: string;
}

export async function generateAudio(options: GenerateAudioOptions): Promise<GenerateAudioReport> {
  const log = options.log ?? (() => {});
  const sourceFile = resolve(options.data);
  const outputFile = resolve(options.outputData);
  if (options.condition !== undefined && options.varyConditions) {
    throw new GenerateAudioError("usage", "give either --condition (one preset for all) or --vary-conditions (cycle the presets), not both");
  }
  const seed = options.seed ?? DEFAULT_GENERATION_SEED;
  if (!Number.isSafeInteger(seed) || seed < 0) throw new GenerateAudioError("usage", `--seed must be a whole number >= 0, got ${String(seed)}`);
  const overrides = options.overrides ?? {};
  validateOverrides(overrides);

  const source = readDatasetFile(sourceFile);
  const outputStats = checkDatasetTarget(outputFile);
  const sameFile = outputStats !== undefined && realpathSync(outputFile) === realpathSync(sourceFile);
  if (outputStats && !options.append && !options.force) {
    throw new GenerateAudioError("exists", `${outputFile} already exists; pass --append to add to it, --force to replace it, or choose another --output-data`);
  }
  if (sameFile && !options.append) {
    throw new GenerateAudioError("exists", `--output-data is the source dataset ${sourceFile}; pass --append to add the new scenarios to it, or write a separate dataset`);
  }
  // The existing output dataset: merged into with --append; without it, still consulted for who owns which file.
  // (Being replaced, it only informs ownership, so a file that no longer loads does not stop --force.)
  let existing: DatasetFile | undefined;
  if (outputStats) {
    try {
      existing = sameFile ? source : readDatasetFile(outputFile);
    } catch (error) {
      if (options.append || !(error instanceof DatasetError)) throw error;
    }
  }

  const items = planItems(source, existing, outputFile, options);
  checkDestinations(items, source, existing, outputFile, options);

  const synthesizer = options.synthesizer ?? new EspeakSynthesizer({ voice: options.voice ?? DEFAULT_CALLER_VOICE });
  const toWrite = items.filter((item) => item.write);
  const assets = await conditionAssets(toWrite, overrides, options.backgroundSpeech);
  const cleanCache = new Map<string, CleanAudio>();
  const produced = new Map<Item, { wav: Uint8Array; scenario: Record<string, unknown>; clean: CleanAudioOrigin; duration_ms: number }>();
  const counts = { synthesized: 0, reused: 0 };

  const beingRewritten = new Set(toWrite.map((item) => canonical(item.destination)));
  for (const item of toWrite) {
    const clean = await cleanAudioFor(item, source, existing, outputFile, synthesizer, cleanCache, beingRewritten);
    if (clean.origin === "synthesized" && clean.fresh) counts.synthesized++;
    else counts.reused++;
    const effectSeed = deriveSeed(seed, item.id);
    const result = applyCondition(clean.samples, {
      preset: item.preset,
      seed: effectSeed,
      overrides,
      ...(assets.background ? { background: assets.background.samples } : {}),
      ...(assets.nonDirected ? { nonDirected: assets.nonDirected } : {}),
    });
    const pcm = pcm16ToBytes(result.samples);
    const duration_ms = round3((result.samples.length * 1000) / CONDITION_SAMPLE_RATE);
    const metadata: Record<string, unknown> = {
      ...carriedMetadata(clean.metadata),
      ...(clean.synthesizer ? { synthetic: true } : {}),
      generator: GENERATOR,
      source_dataset: posixRelative(dirname(outputFile), sourceFile),
      source_scenario: item.base,
      source_text_sha256: sha256(item.source.input.text),
      synthesizer: clean.synthesizer ?? null,
      clean_audio: clean.provenance,
      preset: item.preset,
      seed,
      effect_seed: effectSeed,
      effects: result.settings,
      observations: result.observations,
      ...(presetUsesBackground(item.preset) && assets.background ? { background: assets.background.provenance } : {}),
      pcm_sha256: sha256(pcm),
      duration_ms,
    };
    produced.set(item, { wav: pcm16Wav(result.samples, CONDITION_SAMPLE_RATE), scenario: outputScenario(item, metadata), clean: clean.origin, duration_ms });
    log(`${item.id}: ${item.preset} from ${clean.origin.replace("_", " ")} (${(duration_ms / 1000).toFixed(2)} s) → ${item.path}`);
  }

  // The dataset as it will be written: existing scenarios in place (replaced when regenerated), new ones appended.
  const scenarios: Array<Record<string, unknown>> = options.append && existing ? existing.raw.scenarios.map((s) => structuredClone(s)) : [];
  for (const item of items) {
    const made = produced.get(item);
    const at = scenarios.findIndex((s) => String(s.id).toLowerCase() === item.id.toLowerCase());
    if (made) {
      if (at >= 0) scenarios[at] = made.scenario;
      else scenarios.push(made.scenario);
    } else if (at < 0) {
      throw new Error(`internal: skipped ${item.id} is not in the output dataset`);
    }
  }
  const document = { schema_version: source.raw.schema_version, scenarios };
  parseDataset(document, outputFile); // never write a dataset that would not load

  for (const item of toWrite) writeFileAtomic(item.destination, produced.get(item)!.wav);
  // Nothing new: leave an existing dataset exactly as its author formatted it.
  if (toWrite.length > 0 || !existing || !options.append) writeFileAtomic(outputFile, JSON.stringify(document, null, 2) + "\n");

  const recordings: GeneratedRecording[] = items.map((item) => {
    const made = produced.get(item);
    return {
      scenario_id: item.id,
      source_scenario: item.base,
      preset: item.preset,
      path: item.path,
      action: made ? "written" : "skipped",
      ...(item.reason ? { reason: item.reason } : {}),
      ...(made ? { clean_audio: made.clean, duration_ms: made.duration_ms } : {}),
    };
  });
  return {
    output: outputFile,
    scenarios: scenarios.length,
    recordings,
    written: toWrite.length,
    skipped: items.length - toWrite.length,
    synthesized: counts.synthesized,
    reused_clean: counts.reused,
  };
}

function readDatasetFile(file: string): DatasetFile {
  const raw = readDatasetJson(file) as DatasetFile["raw"];
  return { file, raw, dataset: parseDataset(raw, file) };
}

/** The scenario a fixture is ultimately made from: a generated scenario names its own source. */
function baseScenarioId(scenario: Scenario): string {
  const named = scenario.input.recordings?.find((r) => typeof r.metadata.source_scenario === "string")?.metadata.source_scenario;
  return typeof named === "string" && SAFE_ID.test(named) ? named : scenario.id;
}

function planItems(source: DatasetFile, existing: DatasetFile | undefined, outputFile: string, options: GenerateAudioOptions): Item[] {
  const { scenarios } = source.dataset;
  let selected: Array<{ scenario: Scenario; index: number }>;
  if (options.examples && options.examples.length > 0) {
    selected = options.examples.map((id) => {
      const index = scenarios.findIndex((s) => s.id.toLowerCase() === id.toLowerCase());
      if (index < 0) {
        const known = scenarios.slice(0, 6).map((s) => s.id).join(", ");
        throw new GenerateAudioError("selection", `--example ${id}: no such scenario in ${source.file} (it has ${scenarios.length}: ${known}${scenarios.length > 6 ? ", …" : ""})`);
      }
      if (scenarios[index]!.interaction !== "single_turn") {
        throw new GenerateAudioError("selection", `--example ${id}: scenario is ${scenarios[index]!.interaction}; generate-audio makes single-turn recordings only`);
      }
      return { scenario: scenarios[index]!, index };
    });
    const seen = new Set<string>();
    selected = selected.filter(({ scenario }) => !seen.has(scenario.id) && seen.add(scenario.id));
  } else {
    selected = scenarios.map((scenario, index) => ({ scenario, index })).filter(({ scenario }) => scenario.interaction === "single_turn");
    if (selected.length === 0) throw new GenerateAudioError("selection", `${source.file} has no single-turn scenario to make a recording for`);
  }

  const existingById = new Map((existing?.dataset.scenarios ?? []).map((s) => [s.id.toLowerCase(), s]));
  const items: Item[] = [];
  const byId = new Map<string, Item>();
  selected.forEach(({ scenario, index }, position) => {
    const preset = options.varyConditions ? CONDITION_PRESETS[position % CONDITION_PRESETS.length]! : (options.condition ?? "clean");
    const base = baseScenarioId(scenario);
    const id = `${base}_${preset}`;
    if (!SAFE_ID.test(id)) throw new GenerateAudioError("id", `scenario id "${id}" (from "${scenario.id}" and ${preset}) is too long or unsafe for a file name; shorten the source scenario id`);
    const clash = byId.get(id.toLowerCase());
    if (clash) {
      throw new DestinationError(
        "collision",
        id,
        `refusing to generate: scenarios "${clash.source.id}" and "${scenario.id}" would both become "${id}" (audio/${id}.wav); select one of them with --example`,
      );
    }
    const present = existingById.get(id.toLowerCase());
    const path = (options.append && present?.input.recordings?.[0]?.path) || `audio/${id}.wav`;
    const item: Item = { index, source: scenario, raw: source.raw.scenarios[index]!, preset, id, base, path, destination: "", write: true };
    byId.set(id.toLowerCase(), item);
    items.push(item);
  });
  for (const item of items) {
    const present = options.append ? existingById.get(item.id.toLowerCase()) : undefined;
    if (present && !options.force) {
      let exists = false;
      try {
        exists = checkWriteTarget(outputFile, audioDestination(outputFile, item.path));
      } catch {
        exists = false; // an unsafe path is only a problem if it is written to; it is checked then
      }
      if (exists) {
        item.write = false;
        item.reason = "already generated (pass --force to regenerate)";
      }
    }
  }
  return items;
}

/** Every destination checked before anything is produced or written (see destinations.ts). */
function checkDestinations(items: Item[], source: DatasetFile, existing: DatasetFile | undefined, outputFile: string, options: GenerateAudioOptions): void {
  const readOnly = new Map<string, string>(); // source recordings: inputs, never outputs
  for (const scenario of source.dataset.scenarios) {
    for (const recording of scenario.input.recordings ?? []) readOnly.set(canonical(loadPath(source.file, recording.path)), `recording "${recording.id}" of source scenario "${scenario.id}"`);
  }
  if (options.backgroundSpeech) readOnly.set(canonical(resolve(options.backgroundSpeech)), "the --background-speech input");
  const owners = new Map<string, string>(); // existing output recordings: which scenario owns each file
  for (const scenario of existing?.dataset.scenarios ?? []) {
    for (const recording of scenario.input.recordings ?? []) owners.set(canonical(loadPath(outputFile, recording.path)), scenario.id);
  }
  const planned = new Map<string, Item>();
  for (const item of items) {
    if (!item.write) continue;
    item.destination = audioDestination(outputFile, item.path);
    const exists = checkWriteTarget(outputFile, item.destination);
    const key = canonical(item.destination);
    const input = readOnly.get(key);
    if (input !== undefined) {
      throw new DestinationError(
        "source_overwrite",
        item.destination,
        `refusing to write ${item.destination} for "${item.id}": it is ${input}, a read-only input; derive audio from it into a different scenario with --condition, or write to another --output-data`,
      );
    }
    const twin = planned.get(key);
    if (twin) throw new DestinationError("collision", item.destination, `refusing to write ${item.destination} twice (for "${twin.id}" and "${item.id}"); file names must differ (case-insensitively)`);
    planned.set(key, item);
    const owner = owners.get(key);
    if (owner !== undefined && owner.toLowerCase() !== item.id.toLowerCase()) {
      throw new DestinationError("collision", item.destination, `refusing to write ${item.destination} for "${item.id}": scenario "${owner}" of ${outputFile} already uses that file; rename one of them`);
    }
    if (exists && owner === undefined && !options.force) {
      throw new DestinationError("unowned", item.destination, `refusing to overwrite ${item.destination}: it exists but no scenario of ${outputFile} uses it; move it away, or pass --force to overwrite it`);
    }
  }
}

interface CleanAudio {
  samples: Int16Array;
  origin: CleanAudioOrigin;
  /** Synthesized in this run (not taken from this run's cache). */
  fresh: boolean;
  synthesizer?: { provider: string; model: string; voice: string };
  provenance: Record<string, unknown>;
  /** Metadata to carry over (a source recording's language, accent, …). */
  metadata: Record<string, unknown>;
}

/** A scenario's clean speech: its own clean recording, else a matching generated clean fixture, else synthesis. */
async function cleanAudioFor(
  item: Item,
  source: DatasetFile,
  existing: DatasetFile | undefined,
  outputFile: string,
  synthesizer: SpeechSynthesizer,
  cache: Map<string, CleanAudio>,
  beingRewritten: Set<string>,
): Promise<CleanAudio> {
  const own = item.source.input.recordings?.find((r) => r.condition === "clean");
  if (own) {
    const loaded = loadRecording(source.file, item.source, own);
    const synth = own.metadata.synthesizer as CleanAudio["synthesizer"] | undefined;
    return {
      samples: pcm16FromBytes(loaded.pcm),
      origin: "source_recording",
      fresh: false,
      ...(synth && typeof synth === "object" ? { synthesizer: synth } : {}),
      provenance: { origin: "source_recording", path: posixRelative(dirname(outputFile), loaded.path), pcm_sha256: loaded.sha256 },
      metadata: own.metadata,
    };
  }
  const voice = { provider: synthesizer.provider, model: synthesizer.model, voice: synthesizer.voice };
  const textSha = sha256(item.source.input.text);
  const key = JSON.stringify([textSha, voice]);
  const cached = cache.get(key);
  if (cached) return { ...cached, fresh: false };

  for (const scenario of existing?.dataset.scenarios ?? []) {
    for (const recording of scenario.input.recordings ?? []) {
      const m = recording.metadata;
      const sameVoice = JSON.stringify(m.synthesizer) === JSON.stringify(voice);
      if (recording.condition !== "clean" || m.source_text_sha256 !== textSha || !sameVoice) continue;
      const path = loadPath(outputFile, recording.path);
      if (beingRewritten.has(canonical(path))) continue; // it is being regenerated: do not derive from the old one
      const loaded = loadRecording(outputFile, scenario, recording);
      const clean: CleanAudio = {
        samples: pcm16FromBytes(loaded.pcm),
        origin: "generated_clean",
        fresh: false,
        synthesizer: voice,
        provenance: { origin: "generated_clean", path: posixRelative(dirname(outputFile), loaded.path), pcm_sha256: loaded.sha256, ...leadTail(m.clean_audio) },
        metadata: carriedMetadata(m),
      };
      cache.set(key, clean);
      return clean;
    }
  }

  const speech = await synthesizer.synthesize(item.source.input.text);
  const samples = new Int16Array(((SYNTHESIZED_LEAD_MS + SYNTHESIZED_TAIL_MS) * CONDITION_SAMPLE_RATE) / 1000 + speech.samples.length);
  samples.set(speech.samples, (SYNTHESIZED_LEAD_MS * CONDITION_SAMPLE_RATE) / 1000);
  const clean: CleanAudio = {
    samples,
    origin: "synthesized",
    fresh: true,
    synthesizer: { provider: speech.provider, model: speech.model, voice: speech.voice },
    provenance: { origin: "synthesized", pcm_sha256: sha256(pcm16ToBytes(samples)), lead_silence_ms: SYNTHESIZED_LEAD_MS, tail_silence_ms: SYNTHESIZED_TAIL_MS },
    metadata: {},
  };
  cache.set(key, clean);
  return clean;
}

function leadTail(cleanAudio: unknown): Record<string, unknown> {
  if (!cleanAudio || typeof cleanAudio !== "object") return {};
  const { lead_silence_ms, tail_silence_ms } = cleanAudio as Record<string, unknown>;
  return lead_silence_ms !== undefined && tail_silence_ms !== undefined ? { lead_silence_ms, tail_silence_ms } : {};
}

interface Assets {
  background?: { samples: Int16Array; provenance: Record<string, unknown> };
  nonDirected?: Int16Array[];
}

/** The second speaker and the asides, loaded only when a preset to be generated needs them. */
async function conditionAssets(items: Item[], overrides: ConditionOverrides, backgroundSpeech: string | undefined): Promise<Assets> {
  const assets: Assets = {};
  if (items.some((item) => presetUsesBackground(item.preset))) {
    if (backgroundSpeech) {
      const samples = readBackgroundSpeech(resolve(backgroundSpeech));
      assets.background = { samples, provenance: { source: "file", file: backgroundSpeech.split(/[\\/]/).at(-1)!, pcm_sha256: sha256(pcm16ToBytes(samples)) } };
    } else {
      const samples = await synthesizeBackgroundSpeaker();
      assets.background = { samples, provenance: { source: "bundled", voice: BACKGROUND_SPEAKER_VOICE, pcm_sha256: sha256(pcm16ToBytes(samples)) } };
    }
  }
  if (items.some((item) => presetUsesNonDirected(item.preset, overrides))) assets.nonDirected = await synthesizeNonDirectedUtterances();
  return assets;
}

/** The output scenario: the source scenario (as authored) with a new id and the generated recording. */
function outputScenario(item: Item, metadata: Record<string, unknown>): Record<string, unknown> {
  const scenario = structuredClone(item.raw);
  const input = scenario.input as Record<string, unknown>;
  const title = String(scenario.title).replace(new RegExp(` \\((${CONDITION_PRESETS.join("|")})\\)$`), "");
  const tags = Array.isArray(scenario.tags) ? (scenario.tags as string[]) : [];
  return {
    ...scenario,
    id: item.id,
    title: `${title} (${item.preset})`,
    tags: tags.includes("walk") ? tags : [...tags, "walk"],
    input: { ...input, recordings: [{ id: GENERATED_RECORDING_ID, path: item.path, condition: item.preset, metadata }] },
  };
}

function carriedMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(metadata).filter(([key]) => !GENERATED_KEYS.has(key)));
}

function loadPath(datasetFile: string, recordingPath: string): string {
  return resolve(dirname(datasetFile), recordingPath);
}

/** Paths compared the way a case-insensitive file system would, after resolving links that exist. */
function canonical(path: string): string {
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    try {
      real = resolve(realpathSync(dirname(path)), path.split(/[\\/]/).at(-1)!);
    } catch {
      real = path;
    }
  }
  return real.toLowerCase();
}

function posixRelative(from: string, to: string): string {
  return relative(from, to).split(sep).join("/");
}

function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
