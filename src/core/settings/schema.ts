/**
 * The run settings: every setting of `crashlab run` and of the library's `run()`, declared once with its
 * type and range, default, help text, flag, crashlab.toml key, environment variable, whether a PLAN's
 * `defaults` may set it and whether it enters the plan digest. The flags, `--help`, the config file's
 * keys, the PLAN's `defaults` type, the digest and what a trial worker receives all derive from here;
 * docs/configuration.md lists them.
 */
import { availableParallelism } from "node:os";
import type { z } from "zod";
import { Condition, SAFE_ID } from "../dataset/schema";
import { choice, decimal, list, text, toggle, whole, type Setting, type SettingValue } from "./field";

/** Trials a run may have unless raised (`--max-trials`, `defaults.max_trials`): a typo in --repetitions is not a day of compute. */
export const DEFAULT_MAX_TRIALS = 10_000;
/** The most a run may have at all: every trial record is held in memory until the gates decide. */
export const MAX_TRIALS_CEILING = 1_000_000;
/**
 * How many trials may run at once: a virtual-time trial is pure CPU, so more at once than cores only
 * interleaves the same work; a real-time trial mostly waits on the audio clock and the network.
 */
export const MAX_VIRTUAL_CONCURRENCY = 8;
export const MAX_REAL_TIME_CONCURRENCY = 64;

/** Ranges shared by PLAN settings and the settings that override them. Time limits stay below a day so they fit a timer. */
export const SETTING_RANGES = {
  repetitions: { min: 1, max: MAX_TRIALS_CEILING },
  concurrency: { min: 1, max: MAX_REAL_TIME_CONCURRENCY },
  seed: { min: 0, max: Number.MAX_SAFE_INTEGER },
  max_trials: { min: 1, max: MAX_TRIALS_CEILING },
  min_pass_rate: { min: 0, max: 1 },
  /** Below a day, so a limit always fits a timer (setTimeout fires at once beyond 2^31 ms). */
  time_ms: { min: 1, max: 86_400_000 },
  turns: { min: 1, max: 100_000 },
  tool_calls: { min: 1, max: 100_000 },
  provider_requests: { min: 1, max: 100_000 },
} as const;

/** A trial's limits when neither a setting, the PLAN nor its case sets them. */
export const DEFAULT_LIMITS = { time_ms: 120_000, turns: 16, tool_calls: 20, provider_requests: 50 } as const;

/** Which trials keep their audio (`--artifacts`). */
export const ARTIFACT_POLICIES = ["all", "failures", "none"] as const;
export type ArtifactPolicy = (typeof ARTIFACT_POLICIES)[number];

/** The acoustic condition presets (docs/audio-and-metrics.md). */
const CONDITIONS = Condition.options as [string, ...string[]];

const seconds = (max: number) => decimal({ min: 0.001, max });
const envName = text({ test: (s) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s), expected: "the name of an environment variable (letters, digits, '_')" });
const shard = text({
  test: (s) => {
    const m = /^\s*(\d+)\/(\d+)\s*$/.exec(s);
    return m !== null && Number(m[1]) >= 1 && Number(m[1]) <= Number(m[2]) && Number(m[2]) <= 1000;
  },
  expected: "i/n with 1 <= i <= n <= 1000, e.g. 2/4 for the second of four machines",
});
const runName = text({ test: (s) => SAFE_ID.test(s) && !s.includes(".."), expected: "a safe folder name (letters, digits, '_', '-', '.')" });
const where = text({ test: (s) => /^[^=\s][^=]*=.+$/.test(s), expected: "key=value, e.g. accent=scottish" });

type Get = (key: string) => SettingValue | undefined;
/** Whether the target's Live session is remote (OpenAI's with --live, or a named endpoint): then it runs in real time. */
export const remoteTarget = (get: Get) => get("live") === true || get("endpoint") !== undefined || get("endpoint_api_key_env") !== undefined;
/** Whether client delegations go to a separately running service (`--assistant client --assistant-endpoint`): its latency is measured, so it runs in real time. */
export const remoteClientService = (get: Get) => get("assistant") === "client" && get("assistant_endpoint") !== undefined;
/** Whether RUN's simulated caller is a live GPT-Live session of its own. */
export const liveCaller = (get: Get) => get("live") === true || get("caller_endpoint") !== undefined || get("caller_api_key_env") !== undefined;

/**
 * Every run setting. The order is --help's within a section; a computed default may read any other setting.
 * Units are the user's (seconds, ms) and in the setting's name: the engine converts them in one place
 * (src/core/runner/engine.ts).
 */
export const SETTINGS = {
  // ── Package and selection
  package: {
    ...text(),
    default: undefined,
    default_help: "./crashlab/evaluations.ts",
    value: "<path>",
    help: "evaluations.ts, or a folder holding evaluations.ts or crashlab/evaluations.ts",
    section: "selection",
    plan: false,
    digest: false,
    path: true,
  },
  data: {
    ...list(text()),
    default: [],
    value: "<file>",
    help: "run this dataset's scenarios instead of the PLAN's cases (repeatable), against the package's world, targets, verifiers and gates: multi-turn scenarios become RUN conversations, recorded ones WALK cases, the rest CRAWL cases",
    section: "selection",
    config: "dataset.path",
    plan: false,
    digest: false,
    path: true,
  },
  target: {
    ...text(),
    default: undefined,
    default_help: "the PLAN's default or first",
    value: "<name>",
    help: "which of the PLAN's targets to evaluate",
    section: "selection",
    config: "execution.target",
    digest: true,
  },
  example: {
    ...list(text()),
    default: [],
    value: "<id>",
    aliases: ["scenario"],
    help: "run only this scenario (repeatable; --scenario is the same)",
    section: "selection",
    config: "dataset.example",
    digest: false,
  },
  tag: { ...list(text()), default: [], value: "<tag>", help: "run only scenarios with this tag (repeatable)", section: "selection", config: "dataset.tag", digest: false },
  max_examples: {
    ...whole({ min: 0, max: MAX_TRIALS_CEILING }),
    default: 0,
    value: "<n>",
    help: "run at most n cases, after the filters above (0: all)",
    section: "selection",
    config: "execution.max_examples",
    digest: false,
  },

  // ── Target and audio
  live: {
    ...toggle(),
    default: false,
    help: "every service on OpenAI's own endpoints (needs OPENAI_API_KEY) unless named below; without it: offline, the local GPT-Live simulator, the package's own backend, espeak-ng caller speech. Only a flag or code turns it on, never a file",
    section: "target",
    plan: false,
    digest: true,
  },
  assistant: {
    ...choice(["responses", "client"]),
    default: "responses",
    value: "<mode>",
    help: "GPT-Live delegation: responses (server-managed backend) or client",
    section: "target",
    config: "assistant.mode",
    env: "OPENAI_ASSISTANT_MODE",
    digest: true,
  },
  assistant_endpoint: {
    ...text(),
    default: undefined,
    default_help: "crashlab's own client backend: the package's offline policy (with --live, a Responses API)",
    value: "<wss-url>",
    help: "client delegation: a separately running client-delegation service (your application) answers each delegation over a WebSocket, authenticated with OPENAI_CLIENT_ASSISTANT_TOKEN; wss:// except on loopback (docs/remote-assistant.md)",
    section: "target",
    config: "assistant.endpoint",
    env: "OPENAI_CLIENT_ASSISTANT_ENDPOINT",
    digest: true,
  },
  model: { ...text(), default: "gpt-live-1", value: "<id>", help: "voice frontend model, or an Azure deployment name", section: "target", config: "assistant.model", env: "OPENAI_LIVE_MODEL", digest: true },
  backend_model: { ...text(), default: "gpt-5.6-terra", value: "<id>", help: "reasoning backend model", section: "target", config: "assistant.backend_model", env: "OPENAI_LIVE_BACKEND_MODEL", digest: true },
  voice: {
    ...text(),
    default: "coral",
    value: "<name>",
    help: "caller voice: with espeak-ng an OpenAI voice name or an espeak-ng voice (en-us, en-gb, en-us+f2, …); otherwise one of OpenAI's voices",
    section: "target",
    config: "audio.voice",
    digest: true,
  },
  tts_model: { ...text(), default: "gpt-4o-mini-tts", value: "<id>", help: "OpenAI caller speech model (--speech openai or cache)", section: "target", config: "audio.tts_model", env: "OPENAI_TTS_MODEL", digest: true },
  refresh_audio: { ...toggle(), default: false, help: "synthesize caller speech again instead of using .audio_cache/", section: "target", config: "audio.refresh_audio", digest: false },
  chunk_ms: { ...whole({ min: 10, max: 200 }, 10), default: 20, value: "<ms>", help: "caller audio chunk length", section: "target", config: "audio.chunk_ms", digest: true },
  sample_rate_hz: {
    ...whole({ min: 24_000, max: 24_000 }),
    default: 24_000,
    flag: null,
    help: "the audio's sample rate: GPT-Live's PCM16 at 24 kHz, the only one",
    section: "target",
    config: "audio.sample_rate_hz",
    plan: false,
    digest: false,
  },
  response_timeout_seconds: {
    ...seconds(86_400),
    default: 30,
    value: "<s>",
    help: "wait for a complete response after the caller's audio",
    section: "target",
    config: "execution.response_timeout_seconds",
    digest: true,
  },

  // ── Services
  endpoint: {
    ...text(),
    default: undefined,
    default_help: "the local simulator; with --live OpenAI's",
    value: "<ws-url>",
    help: "the target's GPT-Live endpoint; a remote endpoint runs in real time",
    section: "services",
    config: "services.endpoint",
    env: "CRASHLAB_ENDPOINT",
    plan_alias: "services.live.endpoint",
    group: "live",
    digest: true,
  },
  endpoint_api_key_env: {
    ...envName,
    default: undefined,
    value: "<NAME>",
    help: "the environment variable holding --endpoint's key",
    section: "services",
    config: "services.endpoint_api_key_env",
    env: "CRASHLAB_ENDPOINT_API_KEY_ENV",
    plan_alias: "services.live.api_key_env",
    group: "live",
    digest: false,
  },
  responses_endpoint: {
    ...text(),
    default: undefined,
    default_help: "the package's own offline backend; with --live OpenAI's",
    value: "<url>",
    help: "the Responses API that answers client delegations",
    section: "services",
    config: "services.responses_endpoint",
    env: "CRASHLAB_RESPONSES_ENDPOINT",
    plan_alias: "services.responses.endpoint",
    group: "responses",
    digest: true,
  },
  responses_api_key_env: {
    ...envName,
    default: undefined,
    value: "<NAME>",
    help: "the environment variable holding --responses-endpoint's key",
    section: "services",
    config: "services.responses_api_key_env",
    env: "CRASHLAB_RESPONSES_API_KEY_ENV",
    plan_alias: "services.responses.api_key_env",
    group: "responses",
    digest: false,
  },
  speech: {
    ...choice(["espeak", "openai", "cache"]),
    default: (get) => (get("live") === true ? "openai" : "espeak"),
    default_help: "espeak; with --live openai",
    value: "<provider>",
    help: "caller speech, CRAWL and the offline RUN caller: espeak, openai (OpenAI-compatible speech) or cache (replay OpenAI speech from .audio_cache/ only)",
    section: "services",
    config: "audio.speech",
    plan_alias: "services.speech.provider",
    digest: true,
  },
  speech_endpoint: {
    ...text(),
    default: undefined,
    default_help: "OpenAI's",
    value: "<url>",
    help: "the speech API base for --speech openai",
    section: "services",
    config: "services.speech_endpoint",
    env: "CRASHLAB_SPEECH_ENDPOINT",
    plan_alias: "services.speech.endpoint",
    group: "speech",
    digest: true,
  },
  speech_api_key_env: {
    ...envName,
    default: undefined,
    value: "<NAME>",
    help: "the environment variable holding --speech-endpoint's key",
    section: "services",
    config: "services.speech_api_key_env",
    env: "CRASHLAB_SPEECH_API_KEY_ENV",
    plan_alias: "services.speech.api_key_env",
    group: "speech",
    digest: false,
  },
  caller_endpoint: {
    ...text(),
    default: undefined,
    default_help: "the offline caller; with --live OpenAI's",
    value: "<ws-url>",
    help: "RUN: the simulated caller's own GPT-Live endpoint (a live caller)",
    section: "services",
    config: "services.caller_endpoint",
    env: "CRASHLAB_CALLER_ENDPOINT",
    plan_alias: "services.caller.endpoint",
    group: "caller",
    digest: true,
  },
  caller_api_key_env: {
    ...envName,
    default: undefined,
    value: "<NAME>",
    help: "the environment variable holding --caller-endpoint's key",
    section: "services",
    config: "services.caller_api_key_env",
    env: "CRASHLAB_CALLER_API_KEY_ENV",
    plan_alias: "services.caller.api_key_env",
    group: "caller",
    digest: false,
  },
  completion_endpoint: {
    ...text(),
    default: undefined,
    default_help: "with --live OpenAI's; otherwise the completion rule decides",
    value: "<url>",
    help: "RUN, live caller: the Responses API that decides when the call is over",
    section: "services",
    config: "services.completion_endpoint",
    env: "CRASHLAB_COMPLETION_ENDPOINT",
    plan_alias: "services.completion.endpoint",
    group: "completion",
    digest: true,
  },
  completion_api_key_env: {
    ...envName,
    default: undefined,
    value: "<NAME>",
    help: "the environment variable holding --completion-endpoint's key",
    section: "services",
    config: "services.completion_api_key_env",
    env: "CRASHLAB_COMPLETION_API_KEY_ENV",
    plan_alias: "services.completion.api_key_env",
    group: "completion",
    digest: false,
  },
  azure: {
    ...toggle(),
    default: false,
    help: "every custom endpoint is Azure OpenAI: keys go in the api-key header and a URL may carry ?api-version=… (automatic for *.openai.azure.com, *.cognitiveservices.azure.com and *.services.ai.azure.com). A custom endpoint gets only the key named for it, or none; OPENAI_API_KEY goes only to OpenAI's own hosts; no credentials in URLs; an endpoint and its key's variable are taken together from the highest source that sets either",
    section: "services",
    config: "services.azure",
    plan_alias: "services.azure",
    digest: true,
  },

  // ── WALK and RUN
  condition: {
    ...list(choice(CONDITIONS)),
    default: [],
    value: "<preset>",
    help: "WALK: only recordings with this acoustic condition (repeatable); RUN: the simulated caller's speech is degraded by it (one only)",
    section: "recorded",
    config: "audio.condition",
    digest: true,
  },
  where: { ...list(where), default: [], value: "<key=value>", help: "only recordings whose metadata matches, e.g. accent=scottish (repeatable)", section: "recorded", config: "dataset.where", digest: false },
  speech_detector: {
    ...choice(["rms", "webrtc"]),
    default: "rms",
    value: "<name>",
    help: "the timeline's speech detector: rms (docs/audio-and-metrics.md) or webrtc (WebRTC VAD)",
    section: "recorded",
    config: "audio.speech_detector",
    digest: true,
  },
  listen: {
    ...toggle(),
    default: false,
    help: "play each conversation (caller left, assistant right) after its trial; needs an audio player; not with --concurrency above 1",
    section: "recorded",
    config: "output.listen",
    on_resume: true,
    digest: false,
  },
  log_audio_events: {
    ...toggle(),
    default: false,
    help: "log an event for every audio chunk sent and received (payloads never); by default each kind is counted in one audio.frames event per trial",
    section: "recorded",
    config: "audio.log_audio_events",
    digest: true,
  },

  // ── RUN conversations
  max_duration_seconds: {
    ...decimal({ min: 1, max: 3600 }),
    default: undefined,
    default_help: "the case's own, declared or 30 s + 20 s per expected turn, at least 90",
    value: "<s>",
    help: "a conversation longer than this fails with duration_limit",
    section: "conversation",
    config: "simulation.max_duration_seconds",
    digest: true,
  },
  assistant_opening_prompt: {
    ...text(),
    default: undefined,
    default_help: "the caller opens with the scenario's input.text",
    value: "<file>",
    help: "the assistant opens the call, asked with this file's text",
    section: "conversation",
    config: "simulation.assistant_opening_prompt",
    digest: true,
    path: true,
  },
  caller_voice: {
    ...text(),
    default: undefined,
    default_help: "its persona's",
    value: "<name>",
    help: "the simulated caller's voice (must differ from the assistant's)",
    section: "conversation",
    config: "simulation.caller_voice",
    digest: true,
  },
  completion_model: {
    ...text(),
    default: "gpt-5.6-luna",
    value: "<id>",
    help: "live caller: the model that judges when the conversation is over",
    section: "conversation",
    config: "simulation.completion_model",
    env: "OPENAI_COMPLETION_MODEL",
    digest: true,
  },
  semantic_drain: {
    ...toggle(),
    default: true,
    flag: null,
    negation: "no-semantic-drain",
    help: "live caller: decide the end by the completion rule, without that model",
    section: "conversation",
    config: "simulation.semantic_drain",
    digest: true,
  },
  response_deadline_ms: {
    ...whole({ min: 0, max: 600_000 }),
    default: 5000,
    value: "<ms>",
    help: "the response deadline (docs/audio-and-metrics.md); CRAWL and WALK too",
    section: "conversation",
    config: "simulation.response_deadline_ms",
    digest: true,
  },

  // ── Semantic judge
  judge: {
    ...toggle(),
    default: (get) => get("live") === true,
    default_help: "on with --live",
    negation: "no-judge",
    help: "run the judge; needs OPENAI_API_KEY or --judge-endpoint",
    section: "judge",
    config: "judge.enabled",
    digest: true,
  },
  judge_model: { ...text(), default: "gpt-5.6-terra", value: "<id>", help: "judge model", section: "judge", config: "judge.model", env: "OPENAI_EVAL_JUDGE_MODEL", digest: true },
  judge_reasoning_effort: {
    ...choice(["none", "minimal", "low", "medium", "high", "xhigh"]),
    default: undefined,
    default_help: "the provider's",
    value: "<effort>",
    help: "the judge's reasoning effort",
    section: "judge",
    config: "judge.reasoning_effort",
    env: "OPENAI_EVAL_JUDGE_REASONING_EFFORT",
    digest: true,
  },
  judge_repetitions: { ...whole({ min: 1, max: 15 }), default: 1, value: "<n>", help: "judge calls per clause; majority verdict, mean score", section: "judge", config: "judge.repetitions", digest: true },
  judge_endpoint: {
    ...text(),
    default: undefined,
    default_help: "OpenAI's",
    value: "<url>",
    help: "base URL of any Responses-compatible server, e.g. http://127.0.0.1:8080/v1",
    section: "judge",
    config: "judge.endpoint",
    env: "CRASHLAB_JUDGE_ENDPOINT",
    plan_alias: "services.judge.endpoint",
    group: "judge",
    digest: true,
  },
  judge_api_key_env: {
    ...envName,
    default: undefined,
    value: "<NAME>",
    help: "the environment variable holding the key for a custom --judge-endpoint; without it a custom endpoint gets no key",
    section: "judge",
    config: "judge.api_key_env",
    env: "CRASHLAB_JUDGE_API_KEY_ENV",
    plan_alias: "services.judge.api_key_env",
    group: "judge",
    digest: false,
  },
  judge_timeout_seconds: { ...seconds(3600), default: 60, value: "<s>", help: "per judge request", section: "judge", config: "judge.timeout_seconds", digest: true },
  judge_retries: { ...whole({ min: 0, max: 10 }), default: 1, value: "<n>", help: "retries per judge request on outages and timeouts", section: "judge", config: "judge.retries", digest: true },

  // ── Trials
  repetitions: {
    ...whole(SETTING_RANGES.repetitions),
    default: 1,
    value: "<n>",
    help: "independent trials per case, each with a fresh world",
    section: "trials",
    config: "execution.repetitions",
    digest: false,
  },
  real_time: {
    ...toggle(),
    default: (get) => remoteTarget(get) || liveCaller(get) || remoteClientService(get),
    default_help: "virtual time offline; real time with a remote Live endpoint (--live, --endpoint, --caller-endpoint) or a client-delegation service (--assistant-endpoint)",
    negation: "no-real-time",
    help: "wall-clock time, audio paced at its real rate (--no-real-time: virtual time, no waiting, reproducible)",
    section: "trials",
    config: "audio.real_time",
    digest: true,
  },
  concurrency: {
    ...whole(SETTING_RANGES.concurrency),
    default: (get) => (get("real_time") === true || get("listen") === true ? 1 : Math.min(availableParallelism(), MAX_VIRTUAL_CONCURRENCY)),
    default_help: `offline, the number of cores up to ${MAX_VIRTUAL_CONCURRENCY}, each trial in a worker thread; in real time and with --listen, 1`,
    value: "<n>",
    help: `trials at once, at most ${MAX_VIRTUAL_CONCURRENCY} with virtual time; 1 runs every trial in one thread`,
    section: "trials",
    config: "execution.concurrency",
    on_resume: true,
    digest: false,
  },
  seed: { ...whole(SETTING_RANGES.seed), default: 1, value: "<n>", help: "run seed; each trial's seed derives from it and the trial id", section: "trials", config: "execution.seed", digest: false },
  max_trials: {
    ...whole(SETTING_RANGES.max_trials),
    default: DEFAULT_MAX_TRIALS,
    value: "<n>",
    help: "refuse a run of more trials than this",
    section: "trials",
    config: "execution.max_trials",
    digest: false,
  },
  trial_timeout_seconds: {
    ...seconds(SETTING_RANGES.time_ms.max / 1000),
    default: undefined,
    default_help: `the PLAN's or the case's limit, else ${DEFAULT_LIMITS.time_ms / 1000}`,
    value: "<s>",
    help: "limit on a trial's timeline",
    section: "trials",
    config: "execution.trial_timeout_seconds",
    digest: true,
  },
  max_tool_calls: {
    ...whole(SETTING_RANGES.tool_calls),
    default: undefined,
    default_help: `the PLAN's or the case's limit, else ${DEFAULT_LIMITS.tool_calls}`,
    value: "<n>",
    help: "limit on tool calls per trial",
    section: "trials",
    config: "execution.max_tool_calls",
    digest: true,
  },
  max_turns: {
    ...whole(SETTING_RANGES.turns),
    default: undefined,
    default_help: `the PLAN's or the case's limit, else ${DEFAULT_LIMITS.turns}`,
    value: "<n>",
    help: "limit on assistant turns per trial",
    section: "trials",
    config: "execution.max_turns",
    digest: true,
  },
  max_provider_requests: {
    ...whole(SETTING_RANGES.provider_requests),
    default: undefined,
    default_help: `the PLAN's or the case's limit, else ${DEFAULT_LIMITS.provider_requests}`,
    value: "<n>",
    help: "limit on backend/model requests per trial",
    section: "trials",
    config: "execution.max_provider_requests",
    digest: true,
  },

  // ── Gates
  require: { ...list(text()), default: [], value: "<verifier>", help: "make a verifier required (repeatable)", section: "gates", config: "gates.require", digest: true },
  advisory: { ...list(text()), default: [], value: "<verifier>", help: "make a verifier advisory (repeatable)", section: "gates", config: "gates.advisory", digest: true },
  min_pass_rate: {
    ...decimal(SETTING_RANGES.min_pass_rate),
    default: undefined,
    default_help: "the PLAN's gates, else 1",
    value: "<0..1>",
    help: "minimum per-case pass rate for every gate",
    section: "gates",
    config: "gates.min_pass_rate",
    digest: true,
  },
  wilson: {
    ...toggle(),
    default: undefined,
    default_help: "the PLAN's gates, else off",
    help: "compare the 95% Wilson lower bound instead of the raw pass rate",
    section: "gates",
    config: "gates.wilson",
    digest: true,
  },

  // ── Shards
  shard: {
    ...shard,
    default: undefined,
    value: "<i/n>",
    help: "run only slice i of n (1 <= i <= n <= 1000): every trial of the selection is in exactly one slice, balanced by expected duration; each shard's run folder is a blob that `crashlab merge` joins into one run",
    section: "resume",
    plan: false,
    digest: false,
  },

  // ── Output
  results_dir: { ...text(), default: "results", value: "<dir>", help: "where run folders go", section: "output", config: "output.results_dir", env: "CRASHLAB_RESULTS_DIR", digest: false, path: true },
  run_name: { ...runName, default: undefined, value: "<name>", help: "prefix of the run id", section: "output", config: "output.run_name", digest: false },
  artifacts: {
    ...choice(ARTIFACT_POLICIES),
    default: "failures",
    value: "<which>",
    help: "whose audio (conversation.wav) is kept: failures (failed, inconclusive and errored trials, and each case's first repetition), all, or none; every trial's transcript and events are always kept",
    section: "output",
    config: "output.artifacts",
    digest: false,
  },
  json: { ...toggle(), default: false, help: "print results.json to stdout instead of the summary table", section: "output", config: "output.json", on_resume: true, digest: false },
  quiet: { ...toggle(), default: false, help: "no per-trial progress lines", section: "output", config: "output.quiet", on_resume: true, digest: false },
  verbose: {
    ...toggle(),
    default: false,
    help: "per trial: the transcript, tool calls, assessments and timing; RUN conversations are also printed as they unfold, each caller line with what it meant (answer, correct, interrupt, …)",
    section: "output",
    config: "execution.verbose",
    on_resume: true,
    digest: false,
  },
  visualize: { ...toggle(), default: false, help: "open report.html in the browser when the run ends (as `crashlab view`)", section: "output", config: "output.visualize", on_resume: true, digest: false },
} satisfies Record<string, Setting>;

type Declared = typeof SETTINGS;
type Key = keyof Declared;
type ValueType<S> = S extends { schema: infer Z extends z.ZodType } ? z.output<Z> : never;
type Optional<S> = S extends { default: undefined } ? true : false;

/** Every run setting, resolved: the settings above by name, as plain data (a worker receives exactly this). */
export type RunSettings = { -readonly [K in Key as Optional<Declared[K]> extends true ? never : K]: ValueType<Declared[K]> } & {
  -readonly [K in Key as Optional<Declared[K]> extends true ? K : never]?: ValueType<Declared[K]>;
};
export type SettingKey = Key;

/** The declared settings (a test may add one: everything reads this registry when it runs, nothing copies it at load). */
export function settingEntries(): Array<[string, Setting]> {
  return Object.entries(SETTINGS as Record<string, Setting>);
}

export function settingOf(key: string): Setting | undefined {
  return Object.hasOwn(SETTINGS, key) ? (SETTINGS as Record<string, Setting>)[key] : undefined;
}

/** A setting's built-in default (undefined: not set, or computed from the others). */
export function staticDefault<K extends SettingKey>(key: K): RunSettings[K] {
  const d = (SETTINGS as Record<string, Setting>)[key]!.default;
  return (typeof d === "function" ? undefined : d) as RunSettings[K];
}

/**
 * The credentials a run may read from the environment (the shell or an env file) besides the variables a
 * `*_api_key_env` setting names: each is a secret, redacted from every output, and never recorded.
 */
export const CREDENTIALS: Readonly<Record<string, string>> = {
  OPENAI_API_KEY: "the key for OpenAI's own hosts (with --live, --judge, --speech openai), and only for them",
  OPENAI_CLIENT_ASSISTANT_TOKEN: "the Bearer token for --assistant-endpoint's client-delegation service, and only for it: a dedicated random secret (32 to 512 printable characters), never an OpenAI key",
};
