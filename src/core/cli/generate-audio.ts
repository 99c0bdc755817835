/**
 * `crashlab generate-audio`: the command line over generateAudio (walk/generate.ts). Parses and checks
 * every flag, runs, prints one line per recording and a summary. Exit 0 when done, 2 for anything the
 * user can fix (one paragraph on stderr), 1 when synthesis itself failed.
 */
import { resolve } from "node:path";
import { ANY_NUMBER, decimalNumber, parseFlags, UsageError, wholeNumber } from "./flags";
import { DEFAULT_OPENAI_SPEECH_MODEL, OPENAI_SPEECH_VOICES, OpenAISpeechSynthesizer } from "../speech/openai-tts";
import { checkEspeakVoice, EspeakSynthesizer } from "../speech/espeak";
import { DEFAULT_CALLER_VOICE, SpeechError, type SpeechSynthesizer } from "../speech/synthesizer";
import {
  CONDITION_PRESETS,
  OVERRIDE_FLAGS,
  presetOverrides,
  presetUsesBackground,
  requirePreset,
  type ConditionOverride,
  type ConditionOverrides,
  type ConditionPreset,
} from "../walk/conditions";
import { DEFAULT_GENERATION_SEED, generateAudio, type GenerateAudioOptions } from "../walk/generate";

export const GENERATE_AUDIO_HELP = `crashlab generate-audio — make WALK caller recordings from a single-turn dataset

Usage:
  crashlab generate-audio --data <dataset.json> --output-data <walk.json> [options]

Synthesizes each selected scenario's input.text once (offline espeak-ng unless --live), applies a
deterministic acoustic condition (docs/audio-and-metrics.md), writes mono 24 kHz PCM16 WAVs under the
output dataset's audio/ folder, and writes a dataset whose recordings carry the condition, seed,
effect settings, observations and provenance. Clean speech is reused, not synthesized again, when the
scenario has a clean recording or a clean fixture for the same text and voice already exists.
Existing outputs are skipped unless --force. Evaluation never runs this: WALK replays the files.

Input and output:
  --data <file>              source dataset (CRAWL's text-only datasets work)
  --output-data <file>       dataset to write; WAVs go to <its folder>/audio/
  --example <id>             only this scenario (repeatable)
  --append                   add to (or update) an existing output dataset
  --force                    regenerate existing outputs; replace an existing dataset without --append

Condition:
  --condition <preset>       one of ${CONDITION_PRESETS.join(", ")} (default clean)
  --vary-conditions          cycle the seven presets over the selected scenarios, in order
  --seed <n>                 default ${DEFAULT_GENERATION_SEED}; each scenario's effects use a seed derived from it
  --noise-rms <n>            noise RMS in PCM16 units (noisy 1200, realistic 500)
  --background-speech <wav>  second speaker from a WAV you are authorized to use (default: bundled speaker)
  --background-gain <x>      background_speech 0.65, realistic 0.4
  --echo-delay-ms <ms>       default 120
  --echo-decay <x>           echo 0.35, realistic 0.25
  --packet-loss-rate <p>     packet_loss 0.08, realistic 0.04
  --packet-loss-burst <n>    frames per loss burst: packet_loss 2, realistic 1
  --cough-every-ms <ms>      realistic 3200 (0 = none)
  --non-directed-every-ms <ms>  realistic 4600 (0 = none)

Speech:
  --voice <name>             OpenAI voice name or espeak voice (default coral)
  --live                     OpenAI speech instead of espeak-ng (needs OPENAI_API_KEY)
  --tts-model <model>        with --live; default ${DEFAULT_OPENAI_SPEECH_MODEL}

  --quiet                    only the summary line
  -h, --help                 this text

Example:
  crashlab generate-audio --data crashlab/data/crawl.json --example harbor_003 \\
    --output-data /tmp/walk-noisy/walk.json --condition noisy --noise-rms 120 --seed 41`;

const OPTIONS = {
  data: { type: "string" },
  "output-data": { type: "string" },
  example: { type: "string", multiple: true },
  condition: { type: "string" },
  "vary-conditions": { type: "boolean" },
  append: { type: "boolean" },
  seed: { type: "string" },
  force: { type: "boolean" },
  "noise-rms": { type: "string" },
  "background-speech": { type: "string" },
  "background-gain": { type: "string" },
  "echo-delay-ms": { type: "string" },
  "echo-decay": { type: "string" },
  "packet-loss-rate": { type: "string" },
  "packet-loss-burst": { type: "string" },
  "cough-every-ms": { type: "string" },
  "non-directed-every-ms": { type: "string" },
  voice: { type: "string" },
  live: { type: "boolean" },
  "tts-model": { type: "string" },
  quiet: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export interface GenerateAudioIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  /** Only OPENAI_API_KEY is read, and only with --live. */
  env?: Record<string, string | undefined>;
}

const GenerateUsageError = UsageError;

/** Errors a user can fix: exit 2 with the message alone. */
const INPUT_ERRORS = new Set(["UsageError", "DatasetError", "RecordingError", "ConditionError", "DestinationError", "GenerateAudioError"]);
const SPEECH_INPUT_CODES = new Set(["missing_api_key", "unknown_voice", "empty_text", "text_too_long", "no_speech", "unauthorized"]);

export async function generateAudioCommand(argv: string[], io: GenerateAudioIO): Promise<number> {
  try {
    const options = parseGenerateAudioArgs(argv, io);
    if (options === "help") {
      io.stdout(GENERATE_AUDIO_HELP + "\n");
      return 0;
    }
    const { quiet, ...generate } = options;
    // An unknown voice is a usage error before anything is read or written, not a failed synthesis.
    if (generate.synthesizer instanceof EspeakSynthesizer) await checkEspeakVoice(generate.synthesizer.requestedVoice);
    const report = await generateAudio({
      ...generate,
      log: quiet ? () => {} : (line) => io.stderr(`  ${line}\n`),
    });
    if (!quiet) {
      for (const r of report.recordings.filter((r) => r.action === "skipped")) io.stderr(`  ${r.scenario_id}: skipped, ${r.reason}\n`);
    }
    io.stdout(
      `${report.output}: ${report.scenarios} scenario(s); wrote ${report.written} recording(s), skipped ${report.skipped}; ` +
        `clean speech synthesized ${report.synthesized}, reused ${report.reused_clean}\n`,
    );
    return 0;
  } catch (error) {
    const name = (error as Error)?.name;
    if (INPUT_ERRORS.has(name) || (error instanceof SpeechError && SPEECH_INPUT_CODES.has(error.code))) {
      io.stderr(`crashlab generate-audio: ${(error as Error).message}${name === "UsageError" ? " (see `crashlab generate-audio --help`)" : ""}\n`);
      return 2;
    }
    if (error instanceof SpeechError) {
      io.stderr(`crashlab generate-audio: ${error.message}; nothing was written\n`);
      return 1;
    }
    throw error;
  }
}

type ParsedOptions = Omit<GenerateAudioOptions, "log"> & { quiet: boolean };

/** Flags to options; every check a user can fail happens here or in generateAudio before any write. */
export function parseGenerateAudioArgs(argv: string[], io: Pick<GenerateAudioIO, "cwd" | "env">): ParsedOptions | "help" {
  const { values } = parseFlags(argv, OPTIONS);
  if (values.help) return "help";
  if (!values.data) throw new GenerateUsageError("--data <dataset.json> is required (the source scenarios)");
  if (!values["output-data"]) throw new GenerateUsageError("--output-data <dataset.json> is required (where the WALK dataset goes; its WAVs go to the audio/ folder beside it)");
  if (values.condition !== undefined && values["vary-conditions"]) throw new GenerateUsageError("give either --condition or --vary-conditions, not both");
  let condition: ConditionPreset | undefined;
  if (values.condition !== undefined) {
    try {
      condition = requirePreset(values.condition);
    } catch {
      throw new GenerateUsageError(`--condition must be one of ${CONDITION_PRESETS.join(", ")} (got "${values.condition}")`);
    }
  }
  const seed = values.seed === undefined ? undefined : wholeNumber("--seed", values.seed, { min: 0, max: Number.MAX_SAFE_INTEGER });

  const overrides: ConditionOverrides = {};
  const numeric: Array<[ConditionOverride, string | undefined, "int" | "number"]> = [
    ["noise_rms", values["noise-rms"], "number"],
    ["background_gain", values["background-gain"], "number"],
    ["echo_delay_ms", values["echo-delay-ms"], "number"],
    ["echo_decay", values["echo-decay"], "number"],
    ["packet_loss_rate", values["packet-loss-rate"], "number"],
    ["packet_loss_burst", values["packet-loss-burst"], "int"],
    ["cough_every_ms", values["cough-every-ms"], "number"],
    ["non_directed_every_ms", values["non-directed-every-ms"], "number"],
  ];
  for (const [key, text, kind] of numeric) {
    if (text === undefined) continue;
    // Any finite number passes here; generateAudio checks each against its preset range, naming the flag.
    overrides[key] = kind === "int" ? wholeNumber(OVERRIDE_FLAGS[key], text, { min: 1, max: Number.MAX_SAFE_INTEGER }) : decimalNumber(OVERRIDE_FLAGS[key], text, ANY_NUMBER);
  }
  // With one preset, an override it does not read is a mistake worth stopping for; with
  // --vary-conditions each override applies to the presets that read it.
  if (!values["vary-conditions"]) {
    const preset = condition ?? "clean";
    const reads = new Set(presetOverrides(preset));
    for (const key of Object.keys(overrides) as ConditionOverride[]) {
      if (!reads.has(key)) throw new GenerateUsageError(`${OVERRIDE_FLAGS[key]} has no effect on --condition ${preset}; presets that use it: ${presetsReading(key).join(", ")}`);
    }
    if (values["background-speech"] !== undefined && !presetUsesBackground(preset)) {
      throw new GenerateUsageError(`--background-speech has no effect on --condition ${preset}; presets that use it: ${CONDITION_PRESETS.filter(presetUsesBackground).join(", ")}`);
    }
  }
  if (values["tts-model"] !== undefined && !values.live) throw new GenerateUsageError("--tts-model applies to --live (OpenAI) speech only");

  let synthesizer: SpeechSynthesizer;
  if (values.live) {
    const apiKey = io.env?.OPENAI_API_KEY?.trim() ?? "";
    if (!apiKey) throw new GenerateUsageError("--live needs OPENAI_API_KEY in the environment (or drop --live for offline espeak-ng speech)");
    if (values.voice !== undefined && !(OPENAI_SPEECH_VOICES as readonly string[]).includes(values.voice))
      throw new GenerateUsageError(`--voice "${values.voice}" is not an OpenAI speech voice; with --live use one of ${OPENAI_SPEECH_VOICES.join(", ")}`);
    synthesizer = new OpenAISpeechSynthesizer({ apiKey, ...(values["tts-model"] ? { model: values["tts-model"] } : {}), ...(values.voice ? { voice: values.voice } : {}) });
  } else {
    synthesizer = new EspeakSynthesizer({ voice: values.voice ?? DEFAULT_CALLER_VOICE });
  }

  return {
    data: resolve(io.cwd, values.data),
    outputData: resolve(io.cwd, values["output-data"]),
    ...(values.example ? { examples: values.example } : {}),
    ...(condition ? { condition } : {}),
    varyConditions: values["vary-conditions"] ?? false,
    append: values.append ?? false,
    force: values.force ?? false,
    ...(seed !== undefined ? { seed } : {}),
    overrides,
    ...(values["background-speech"] !== undefined ? { backgroundSpeech: resolve(io.cwd, values["background-speech"]) } : {}),
    synthesizer,
    quiet: values.quiet ?? false,
  };
}

function presetsReading(key: ConditionOverride): ConditionPreset[] {
  return CONDITION_PRESETS.filter((p) => presetOverrides(p).includes(key));
}
