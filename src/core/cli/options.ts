import { parseArgs } from "node:util";
import type { GateOverrides } from "../run/run";
import type { JudgeReasoningEffort, JudgeSettings } from "../judge/judge";
import type { RunDefaults } from "../run/plan";
import type { AudioSettings } from "../trial/context";
import type { TargetSettings } from "../target/settings";
import type { Limits } from "../record/trial-record";
import { UsageError } from "./usage-error";
import { checkEndpointUrl, credentialFor } from "./credentials";

export { UsageError } from "./usage-error";


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
  condition: { type: "string", multiple: true },
  where: { type: "string", multiple: true },
  "speech-detector": { type: "string" },
  listen: { type: "boolean" },
  judge: { type: "boolean" },
  "no-judge": { type: "boolean" },
  "judge-model": { type: "string" },
  "judge-reasoning-effort": { type: "string" },
  "judge-repetitions": { type: "string" },
  "judge-endpoint": { type: "string" },
  "judge-api-key-env": { type: "string" },
  "judge-timeout-seconds": { type: "string" },
  "judge-retries": { type: "string" },
  "endpoint-api-key-env": { type: "string" },
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
  conditions: string[];
  where: string[];
  speech_detector: "rms" | "webrtc";
  listen: boolean;
  /** The semantic judge: on in live runs unless --no-judge, offline only with --judge. */
  judge: JudgeSettings | null;
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
const CONDITIONS = ["clean", "noisy", "telephony", "background_speech", "echo", "packet_loss", "realistic"];
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
  const detector = cli["speech-detector"] ?? "rms";
  if (detector !== "rms" && detector !== "webrtc") throw new UsageError(`--speech-detector takes "rms" (the default, evaluation-contract §2) or "webrtc" (got "${detector}")`);
  const speechDetector: "rms" | "webrtc" = detector;
  const listen = cli.listen ?? false;
  if (listen && cli.concurrency !== undefined && Number(cli.concurrency) > 1)
    throw new UsageError("--listen plays one conversation at a time: it cannot be combined with --concurrency above 1");
  for (const c of cli.condition ?? [])
    if (!CONDITIONS.includes(c)) throw new UsageError(`--condition takes one of ${CONDITIONS.join(", ")} (got "${c}")`);
  const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
  if (live && !apiKey) throw new UsageError("--live needs OPENAI_API_KEY in the environment (without --live, runs use the local GPT-Live simulator)");
  const judge = resolveJudge(cli, live, env);
  if (cli.endpoint !== undefined) checkEndpointUrl("--endpoint", cli.endpoint, ["ws", "wss"], "wss://gateway.example.com/v1/live/sessions", "--endpoint-api-key-env");
  if (cli["endpoint-api-key-env"] !== undefined && cli.endpoint === undefined)
    throw new UsageError("--endpoint-api-key-env names the key for a custom --endpoint; without --endpoint the target is OpenAI's own service (OPENAI_API_KEY) or the local simulator");
  // Keys are scoped per service: OPENAI_API_KEY only to OpenAI's hosts, and only in live runs; a custom
  // endpoint gets exactly the key named for it, or none.
  const liveKey = credentialFor({ ...(cli.endpoint ? { url: cli.endpoint } : {}), ...(cli["endpoint-api-key-env"] ? { namedEnv: cli["endpoint-api-key-env"] } : {}), flag: "--endpoint-api-key-env", env, allowOpenAIKey: live });
  // The client-delegation backend is OpenAI's Responses API (its own host) in live runs.
  const responsesKey = credentialFor({ flag: "--endpoint-api-key-env", env, allowOpenAIKey: live });
  // Offline runs default to virtual time (fast, reproducible); live runs to real time.
  const realTime = cli["real-time"] ?? (cli["no-real-time"] ? false : live);
  const target_settings: Partial<TargetSettings> = {
    mode: live ? "live" : "offline",
    real_time: realTime,
    ...(assistant ? { delegation: assistant } : {}),
    ...(cli.endpoint ? { endpoint: cli.endpoint } : {}),
    ...(cli.model ? { model: cli.model } : {}),
    ...(cli["backend-model"] ? { backend_model: cli["backend-model"] } : {}),
    ...(liveKey.key ? { api_key: liveKey.key } : {}),
    ...(responsesKey.key ? { responses_api_key: responsesKey.key } : {}),
    credentials: { live: liveKey.source, responses: responsesKey.source },
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
    conditions: cli.condition ?? [],
    where: cli.where ?? [],
    speech_detector: speechDetector,
    listen,
    judge,
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

const EFFORTS: readonly JudgeReasoningEffort[] = ["none", "minimal", "low", "medium", "high", "xhigh"];

/** Judge settings from the flags: on with --live (unless --no-judge) or with --judge; never invented offline. */
function resolveJudge(cli: RawRunArgs, live: boolean, env: Record<string, string | undefined>): JudgeSettings | null {
  if (cli.judge && cli["no-judge"]) throw new UsageError("--judge and --no-judge contradict each other; pass one");
  const on = cli["no-judge"] ? false : (cli.judge ?? live);
  const tuning = cli["judge-model"] ?? cli["judge-reasoning-effort"] ?? cli["judge-repetitions"] ?? cli["judge-endpoint"] ?? cli["judge-api-key-env"] ?? cli["judge-timeout-seconds"] ?? cli["judge-retries"];
  if (!on) {
    if (tuning !== undefined) throw new UsageError("judge settings were given but the judge is off: add --judge (offline runs do not call a judge unless asked)");
    return null;
  }
  const effort = cli["judge-reasoning-effort"];
  if (effort !== undefined && !EFFORTS.includes(effort as JudgeReasoningEffort)) throw new UsageError(`--judge-reasoning-effort takes one of ${EFFORTS.join(", ")} (got "${effort}")`);
  const repetitions = int("judge-repetitions", cli["judge-repetitions"], 1, 15);
  const retries = int("judge-retries", cli["judge-retries"], 0, 10);
  const timeout = cli["judge-timeout-seconds"];
  if (timeout !== undefined && !(/^\d+(\.\d+)?$/.test(timeout.trim()) && Number(timeout) > 0 && Number(timeout) <= 3600))
    throw new UsageError(`--judge-timeout-seconds takes a number of seconds above 0 and at most 3600 (got "${timeout}")`);
  const endpoint = cli["judge-endpoint"];
  if (endpoint !== undefined) checkEndpointUrl("--judge-endpoint", endpoint, ["http", "https"], "http://127.0.0.1:8080/v1", "--judge-api-key-env");
  // OPENAI_API_KEY goes only to OpenAI's own hosts; any other judge endpoint gets the key named for it, or none.
  const credential = credentialFor({ ...(endpoint ? { url: endpoint } : {}), ...(cli["judge-api-key-env"] ? { namedEnv: cli["judge-api-key-env"] } : {}), flag: "--judge-api-key-env", env, allowOpenAIKey: true });
  if (!credential.key && !endpoint) throw new UsageError("--judge needs OPENAI_API_KEY in the environment, or --judge-endpoint pointing at a Responses-compatible server");
  return {
    ...(cli["judge-model"] ? { model: cli["judge-model"] } : {}),
    ...(effort ? { reasoning_effort: effort as JudgeReasoningEffort } : {}),
    ...(repetitions !== undefined ? { repetitions } : {}),
    ...(retries !== undefined ? { max_retries: retries } : {}),
    ...(timeout !== undefined ? { timeout_ms: Math.round(Number(timeout) * 1000) } : {}),
    ...(endpoint ? { endpoint } : {}),
    ...(credential.key ? { api_key: credential.key } : {}),
    credential: credential.source,
  };
}
