/**
 * Each service a run talks to, addressed on its own: the target's Live endpoint, the client
 * backend's Responses endpoint, caller speech, the RUN caller's Live endpoint and its completion observer
 * (the judge resolves in options.ts the same way). One resolution for all of them: a command-line flag,
 * then the PLAN's `defaults.services`, then the built-in default — the local simulator and offline
 * engines, or with `--live` OpenAI's own services. An endpoint and the variable naming its key are taken
 * together from the layer that sets either, so a PLAN's key is never sent to an endpoint the command line
 * chose. Keys are scoped: OPENAI_API_KEY only to OpenAI's own hosts, a custom endpoint only the key named
 * for it (`--…-api-key-env NAME`), or nothing.
 */
import type { ServiceDefault, ServicesDefaults } from "../run/plan";
import type { AuthHeader } from "../services/auth";
import { OPENAI_SPEECH_VOICES } from "../speech/openai-tts";
import { checkEndpointUrl, credentialFor, keyHeader, type Credential } from "./credentials";
import { UsageError } from "./usage-error";

export type { ServiceDefault, ServicesDefaults } from "../run/plan";

export type SpeechProvider = "espeak" | "openai" | "cache";
export const SPEECH_PROVIDERS: readonly SpeechProvider[] = ["espeak", "openai", "cache"];

/** A remote service: where it is, the key for it (never recorded) and where that key came from (recorded). */
export interface RemoteService {
  /** Absent: OpenAI's own endpoint for the service. */
  endpoint?: string;
  key?: string;
  header: AuthHeader;
  /** `OPENAI_API_KEY`, `env:NAME` or `none`. */
  credential: string;
}

export interface ResolvedServices {
  /** The target's Live endpoint: the local simulator, or a remote one (OpenAI's without `endpoint`). */
  live: { kind: "simulator" } | ({ kind: "remote" } & RemoteService);
  /** Who answers client delegations: the package's offline policy, or a Responses API. */
  responses: { kind: "policy" } | ({ kind: "remote" } & RemoteService);
  /** Caller speech: espeak-ng, OpenAI-compatible speech, or replay of cached OpenAI speech. */
  speech: { provider: "espeak" } | ({ provider: "openai" } & RemoteService) | { provider: "cache" };
  /** RUN's simulated caller: offline, or its own Live session (OpenAI's without `endpoint`). */
  caller: { kind: "offline" } | ({ kind: "live" } & RemoteService);
  /** RUN with a live caller: the Responses endpoint that decides when the call is over, or none (the rule). */
  completion: ({ kind: "remote" } & RemoteService) | null;
  /** Every custom endpoint is Azure OpenAI. */
  azure: boolean;
}

/** The run flags this resolution reads (a subset of RUN_OPTIONS). */
export interface ServiceFlags {
  live?: boolean;
  azure?: boolean;
  speech?: string;
  endpoint?: string;
  "endpoint-api-key-env"?: string;
  "responses-endpoint"?: string;
  "responses-api-key-env"?: string;
  "speech-endpoint"?: string;
  "speech-api-key-env"?: string;
  "caller-endpoint"?: string;
  "caller-api-key-env"?: string;
  "completion-endpoint"?: string;
  "completion-api-key-env"?: string;
}

interface Pair {
  endpoint?: string;
  keyEnv?: string;
  /** Which layer set them, for messages. */
  from: "flag" | "plan" | "none";
}

/** The endpoint and its key variable from the highest layer that sets either. */
function pair(endpoint: string | undefined, keyEnv: string | undefined, planned: ServiceDefault | undefined): Pair {
  if (endpoint !== undefined || keyEnv !== undefined) return { ...(endpoint !== undefined ? { endpoint } : {}), ...(keyEnv !== undefined ? { keyEnv } : {}), from: "flag" };
  if (planned?.endpoint !== undefined || planned?.api_key_env !== undefined)
    return { ...(planned.endpoint !== undefined ? { endpoint: planned.endpoint } : {}), ...(planned.api_key_env !== undefined ? { keyEnv: planned.api_key_env } : {}), from: "plan" };
  return { from: "none" };
}

interface ServiceSpec {
  /** The flag names, for messages: `--endpoint` and `--endpoint-api-key-env`. */
  flag: string;
  keyFlag: string;
  /** The PLAN setting, for messages: `defaults.services.live`. */
  setting: string;
  schemes: readonly string[];
  example: string;
}

/** Check one service's endpoint and resolve its credential. `allowOpenAIKey`: this run uses OpenAI's own service here. */
function remote(spec: ServiceSpec, given: Pair, env: Record<string, string | undefined>, azure: boolean, allowOpenAIKey: boolean): RemoteService {
  const where = given.from === "plan" ? `PLAN ${spec.setting}.endpoint` : spec.flag;
  const keyWhere = given.from === "plan" ? `PLAN ${spec.setting}.api_key_env` : spec.keyFlag;
  if (given.endpoint !== undefined) checkEndpointUrl(where, given.endpoint, spec.schemes, spec.example, keyWhere, azure || keyHeader(given.endpoint, false) === "api-key");
  if (given.keyEnv !== undefined && given.endpoint === undefined)
    throw new UsageError(`${keyWhere} names the key for a custom endpoint (${where}); without one this service is OpenAI's own, which takes OPENAI_API_KEY`);
  const credential: Credential = credentialFor({ ...(given.endpoint ? { url: given.endpoint } : {}), ...(given.keyEnv ? { namedEnv: given.keyEnv } : {}), flag: keyWhere, env, allowOpenAIKey });
  return {
    ...(given.endpoint !== undefined ? { endpoint: given.endpoint } : {}),
    ...(credential.key ? { key: credential.key } : {}),
    header: keyHeader(given.endpoint, azure),
    credential: credential.source,
  };
}

const LIVE_SPEC = (flag: string, setting: string): ServiceSpec => ({ flag, keyFlag: flag === "--endpoint" ? "--endpoint-api-key-env" : flag.replace(/-endpoint$/, "-api-key-env"), setting, schemes: ["ws", "wss"], example: "wss://gateway.example.com/v1/live/sessions" });
const HTTP_SPEC = (flag: string, setting: string): ServiceSpec => ({ flag, keyFlag: `${flag.replace(/-endpoint$/, "")}-api-key-env`, setting, schemes: ["http", "https"], example: "https://gateway.example.com/v1" });

/**
 * Resolve every service but the judge. `live` is `--live`: OpenAI's own services wherever no endpoint is
 * named, with OPENAI_API_KEY.
 */
export function resolveServices(cli: ServiceFlags, planned: ServicesDefaults = {}, env: Record<string, string | undefined>): ResolvedServices {
  const live = cli.live ?? false;
  const azure = cli.azure ?? planned.azure ?? false;

  const liveGiven = pair(cli.endpoint, cli["endpoint-api-key-env"], planned.live);
  const liveTarget: ResolvedServices["live"] =
    live || liveGiven.endpoint !== undefined || liveGiven.keyEnv !== undefined
      ? { kind: "remote", ...remote(LIVE_SPEC("--endpoint", "defaults.services.live"), liveGiven, env, azure, live) }
      : { kind: "simulator" };

  const responsesGiven = pair(cli["responses-endpoint"], cli["responses-api-key-env"], planned.responses);
  const responses: ResolvedServices["responses"] =
    live || responsesGiven.endpoint !== undefined || responsesGiven.keyEnv !== undefined
      ? { kind: "remote", ...remote(HTTP_SPEC("--responses-endpoint", "defaults.services.responses"), responsesGiven, env, azure, live) }
      : { kind: "policy" };

  const provider = speechProvider(cli, planned, live);
  const speechGiven = pair(cli["speech-endpoint"], cli["speech-api-key-env"], planned.speech);
  if (provider !== "openai" && (speechGiven.endpoint !== undefined || speechGiven.keyEnv !== undefined))
    throw new UsageError(`${speechGiven.from === "plan" ? "PLAN defaults.services.speech.endpoint" : "--speech-endpoint / --speech-api-key-env"} applies to --speech openai (an OpenAI-compatible speech endpoint); caller speech here is ${provider}`);
  let speech: ResolvedServices["speech"];
  if (provider === "openai") {
    // Choosing OpenAI speech is choosing OpenAI's service: its own host may have OPENAI_API_KEY.
    const service = remote(HTTP_SPEC("--speech-endpoint", "defaults.services.speech"), speechGiven, env, azure, true);
    if (!service.key && service.endpoint === undefined)
      throw new UsageError("OpenAI caller speech needs OPENAI_API_KEY in the environment, or --speech-endpoint (with --speech-api-key-env NAME) for another speech server; --speech espeak speaks offline");
    speech = { provider: "openai", ...service };
  } else speech = { provider };

  const callerGiven = pair(cli["caller-endpoint"], cli["caller-api-key-env"], planned.caller);
  const caller: ResolvedServices["caller"] =
    live || callerGiven.endpoint !== undefined || callerGiven.keyEnv !== undefined ? { kind: "live", ...remote(LIVE_SPEC("--caller-endpoint", "defaults.services.caller"), callerGiven, env, azure, live) } : { kind: "offline" };

  const completionGiven = pair(cli["completion-endpoint"], cli["completion-api-key-env"], planned.completion);
  if (caller.kind === "offline" && completionGiven.from === "flag")
    throw new UsageError("--completion-endpoint applies to a live simulated caller (--live or --caller-endpoint); the offline caller's calls end by the completion rule");
  const completion: ResolvedServices["completion"] =
    caller.kind === "live" && (live || completionGiven.endpoint !== undefined || completionGiven.keyEnv !== undefined)
      ? { kind: "remote", ...remote(HTTP_SPEC("--completion-endpoint", "defaults.services.completion"), completionGiven, env, azure, live) }
      : null;

  return { live: liveTarget, responses, speech, caller, completion, azure };
}

function speechProvider(cli: ServiceFlags, planned: ServicesDefaults, live: boolean): SpeechProvider {
  const given = cli.speech ?? planned.speech?.provider;
  if (given === undefined) return live ? "openai" : "espeak";
  if (!(SPEECH_PROVIDERS as readonly string[]).includes(given))
    throw new UsageError(`${cli.speech !== undefined ? "--speech" : "PLAN defaults.services.speech.provider"} takes one of ${SPEECH_PROVIDERS.join(", ")} (got "${given}")`);
  return given as SpeechProvider;
}

/** Whether a voice name is one of OpenAI's built-in speech voices (OpenAI and cached speech, live callers). */
export function isOpenAIVoice(voice: string): boolean {
  return (OPENAI_SPEECH_VOICES as readonly string[]).includes(voice);
}

/** What a service is, for provenance and messages: its endpoint (OpenAI's default when none was named). */
export function endpointOf(service: RemoteService, openaiDefault: string): string {
  return service.endpoint ?? openaiDefault;
}
