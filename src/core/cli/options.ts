import { parseArgs } from "node:util";
import type { GateOverrides } from "../run/run";
import type { RunDefaults } from "../run/plan";
import type { AudioSettings } from "../run/trial";
import type { TargetSettings } from "../target/settings";
import type { Limits } from "../run/record";

/** A bad command line: exit 2 with the message and a pointer to --help. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}


/** Built-in defaults: the last layer of "CLI, then PLAN defaults, then these". */
export const BUILTIN_DEFAULTS = { repetitions: 1, concurrency: 1, seed: 1, results_dir: "results" } as const;

export const RUN_OPTIONS = {
  package: { type: "string" },
  repetitions: { type: "string" },
  concurrency: { type: "string" },
  example: { type: "string", multiple: true },
  scenario: { type: "string", multiple: true },
  tag: { type: "string", multiple: true },
  "max-examples": { type: "string" },
  target: { type: "string" },
  seed: { type: "string" },
  "results-dir": { type: "string" },
  "run-name": { type: "string" },
  json: { type: "boolean" },
  quiet: { type: "boolean" },
  require: { type: "string", multiple: true },
  advisory: { type: "string", multiple: true },
  "min-pass-rate": { type: "string" },
  wilson: { type: "boolean" },
  "real-time": { type: "boolean" },
  "no-real-time": { type: "boolean" },
  "max-tool-calls": { type: "string" },
  "max-turns": { type: "string" },
  "max-provider-requests": { type: "string" },
  "trial-timeout-seconds": { type: "string" },
  live: { type: "boolean" },
  assistant: { type: "string" },
  endpoint: { type: "string" },
  model: { type: "string" },
  "backend-model": { type: "string" },
  voice: { type: "string" },
  "tts-model": { type: "string" },
  "chunk-ms": { type: "string" },
  "response-timeout-seconds": { type: "string" },
  "refresh-audio": { type: "boolean" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export type RawRunArgs = ReturnType<typeof parseRunArgs>;

export function parseRunArgs(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: RUN_OPTIONS, allowPositionals: false, strict: true }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function int(name: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} takes a whole number${max < Number.MAX_SAFE_INTEGER ? ` from ${min} to ${max}` : ` >= ${min}`} (got "${value}")`);
  return n;
}

export interface ResolvedRunOptions {
  package?: string;
  repetitions: number;
  concurrency: number;
  seed: number;
  target?: string;
  results_dir: string;
  run_name?: string;
  json: boolean;
  quiet: boolean;
  ids: string[];
  tags: string[];
  max_examples?: number;
  real_time: boolean;
  limits: Partial<Limits>;
  gates: GateOverrides;
  verbose: boolean;
  target_settings: Partial<TargetSettings>;
  audio: Partial<AudioSettings>;
  /** Caller speech: offline espeak-ng or live OpenAI speech; `voice` is the caller's voice. */
  speech: { mode: "offline" | "live"; voice: string; tts_model: string; refresh: boolean };
}

/** Caller voice default: the persona default of evaluation-contract §1. */
export const DEFAULT_CALLER_VOICE = "coral";
export const DEFAULT_TTS_MODEL = "gpt-4o-mini-tts";

/** The one place that resolves a setting: CLI flag, then the PLAN's defaults, then built-in defaults. */
export function resolveOptions(cli: RawRunArgs, planDefaults: RunDefaults = {}, env: Record<string, string | undefined> = {}): ResolvedRunOptions {
  if (cli["real-time"] && cli["no-real-time"]) throw new UsageError("--real-time and --no-real-time contradict each other; pass one");
  const minPass = cli["min-pass-rate"];
  let min_pass_rate: number | undefined;
  if (minPass !== undefined) {
    min_pass_rate = Number(minPass);
    if (!(min_pass_rate >= 0 && min_pass_rate <= 1)) throw new UsageError(`--min-pass-rate takes a number from 0 to 1 (got "${minPass}")`);
  }
  const timeout = cli["trial-timeout-seconds"];
  if (timeout !== undefined && !(Number(timeout) > 0)) throw new UsageError(`--trial-timeout-seconds takes a positive number (got "${timeout}")`);
  const limits: Partial<Limits> = {};
  const tc = int("max-tool-calls", cli["max-tool-calls"], 1);
  const mt = int("max-turns", cli["max-turns"], 1);
  const mp = int("max-provider-requests", cli["max-provider-requests"], 1);
  if (tc !== undefined) limits.tool_calls = tc;
  if (mt !== undefined) limits.turns = mt;
  if (mp !== undefined) limits.provider_requests = mp;
  if (timeout !== undefined) limits.time_ms = Math.round(Number(timeout) * 1000);
  const assistant = cli.assistant;
  if (assistant !== undefined && assistant !== "responses" && assistant !== "client")
    throw new UsageError(`--assistant takes "responses" or "client" (got "${assistant}")`);
  const chunkMs = int("chunk-ms", cli["chunk-ms"], 10, 200);
  if (chunkMs !== undefined && chunkMs % 10 !== 0) throw new UsageError(`--chunk-ms takes a multiple of 10 ms (got ${chunkMs})`);
  const responseTimeout = cli["response-timeout-seconds"];
  if (responseTimeout !== undefined && !(Number(responseTimeout) > 0)) throw new UsageError(`--response-timeout-seconds takes a positive number (got "${responseTimeout}")`);
  const live = cli.live ?? false;
  const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
  if (live && !apiKey) throw new UsageError("--live needs OPENAI_API_KEY in the environment (without --live, runs use the local GPT-Live simulator)");
  if (cli.endpoint !== undefined && !/^wss?:\/\//.test(cli.endpoint)) throw new UsageError(`--endpoint takes a ws:// or wss:// URL (got "${cli.endpoint}")`);
  // Offline runs default to virtual time (fast, reproducible); live runs to real time.
  const realTime = cli["real-time"] ?? (cli["no-real-time"] ? false : live);
  const target_settings: Partial<TargetSettings> = {
    mode: live ? "live" : "offline",
    real_time: realTime,
    ...(assistant ? { delegation: assistant } : {}),
    ...(cli.endpoint ? { endpoint: cli.endpoint } : {}),
    ...(cli.model ? { model: cli.model } : {}),
    ...(cli["backend-model"] ? { backend_model: cli["backend-model"] } : {}),
    ...(live && apiKey ? { api_key: apiKey } : {}),
  };
  const audio: Partial<AudioSettings> = {
    ...(chunkMs !== undefined ? { chunk_ms: chunkMs } : {}),
    ...(responseTimeout !== undefined ? { response_timeout_ms: Math.round(Number(responseTimeout) * 1000) } : {}),
  };
  return {
    ...(cli.package !== undefined ? { package: cli.package } : {}),
    repetitions: int("repetitions", cli.repetitions, 1) ?? planDefaults.repetitions ?? BUILTIN_DEFAULTS.repetitions,
    concurrency: int("concurrency", cli.concurrency, 1, 8) ?? planDefaults.concurrency ?? BUILTIN_DEFAULTS.concurrency,
    seed: int("seed", cli.seed, 0) ?? planDefaults.seed ?? BUILTIN_DEFAULTS.seed,
    ...((cli.target ?? planDefaults.target) !== undefined ? { target: cli.target ?? planDefaults.target } : {}),
    results_dir: cli["results-dir"] ?? planDefaults.results_dir ?? BUILTIN_DEFAULTS.results_dir,
    ...(cli["run-name"] !== undefined ? { run_name: cli["run-name"] } : {}),
    json: cli.json ?? false,
    quiet: cli.quiet ?? false,
    ids: [...(cli.example ?? []), ...(cli.scenario ?? [])],
    tags: cli.tag ?? [],
    ...(cli["max-examples"] !== undefined ? { max_examples: int("max-examples", cli["max-examples"], 0) } : {}),
    real_time: realTime,
    verbose: cli.verbose ?? false,
    target_settings,
    audio,
    speech: { mode: live ? "live" : "offline", voice: cli.voice ?? DEFAULT_CALLER_VOICE, tts_model: cli["tts-model"] ?? DEFAULT_TTS_MODEL, refresh: cli["refresh-audio"] ?? false },
    limits,
    gates: {
      ...(cli.require ? { require: cli.require } : {}),
      ...(cli.advisory ? { advisory: cli.advisory } : {}),
      ...(min_pass_rate !== undefined ? { min_pass_rate } : {}),
      ...(cli.wilson ? { wilson: true } : {}),
    },
  };
}
