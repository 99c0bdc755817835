/**
 * Each service a run talks to, addressed on its own: the target's Live endpoint, the client backend's
 * Responses endpoint, caller speech, the RUN caller's Live endpoint, its completion observer and the
 * semantic judge. The settings say where each is (resolved once, an endpoint together with the variable
 * naming its key — src/core/settings/resolve.ts); here each becomes a reachable service: the local
 * simulator and offline engines by default, with `--live` OpenAI's own services, or the endpoint named,
 * each with its own key. Keys are scoped: OPENAI_API_KEY only to OpenAI's own hosts, a custom endpoint
 * only the key named for it (`--…-api-key-env NAME`), or nothing.
 */
import { displayName } from "../settings/resolve";
import { liveCaller, remoteTarget, type RunSettings } from "../settings/schema";
import { SettingsError } from "../settings/errors";
import type { AuthHeader } from "./auth";
import { checkClientServiceEndpoint, clientServiceToken, CLIENT_SERVICE_TOKEN_ENV } from "./client-service";
import { checkEndpointUrl, credentialFor, keyHeader, type Credential } from "./credentials";

export type SpeechProvider = RunSettings["speech"];

/** How a message names a setting: as its source gave it (`--endpoint`, `PLAN defaults.services.live.endpoint`, …). */
export type SettingName = (key: string) => string;

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
  /**
   * Client delegation answered by a separately running service (`--assistant-endpoint`) instead: its URL
   * and token (never recorded; `credential` names the variable). Null otherwise.
   */
  client_service: { endpoint: string; token: string; credential: string } | null;
  /** Caller speech: espeak-ng, OpenAI-compatible speech, or replay of cached OpenAI speech. */
  speech: { provider: "espeak" } | ({ provider: "openai" } & RemoteService) | { provider: "cache" };
  /** RUN's simulated caller: offline, or its own Live session (OpenAI's without `endpoint`). */
  caller: { kind: "offline" } | ({ kind: "live" } & RemoteService);
  /** RUN with a live caller: the Responses endpoint that decides when the call is over, or none (the rule). */
  completion: ({ kind: "remote" } & RemoteService) | null;
  /** The semantic judge's Responses endpoint, when the judge runs. */
  judge: RemoteService | null;
  /** Every custom endpoint is Azure OpenAI. */
  azure: boolean;
}

/** The settings this resolution reads. */
export type ServiceSettings = Pick<
  RunSettings,
  | "live"
  | "assistant"
  | "assistant_endpoint"
  | "azure"
  | "speech"
  | "judge"
  | "endpoint"
  | "endpoint_api_key_env"
  | "responses_endpoint"
  | "responses_api_key_env"
  | "speech_endpoint"
  | "speech_api_key_env"
  | "caller_endpoint"
  | "caller_api_key_env"
  | "completion_endpoint"
  | "completion_api_key_env"
  | "judge_endpoint"
  | "judge_api_key_env"
>;

interface ServiceSpec {
  /** The settings: `endpoint` and `endpoint_api_key_env`. */
  endpoint: keyof ServiceSettings;
  keyEnv: keyof ServiceSettings;
  schemes: readonly string[];
  example: string;
}

const LIVE = ["ws", "wss"] as const;
const HTTP = ["http", "https"] as const;
const live = (endpoint: keyof ServiceSettings, keyEnv: keyof ServiceSettings): ServiceSpec => ({ endpoint, keyEnv, schemes: LIVE, example: "wss://gateway.example.com/v1/live/sessions" });
const http = (endpoint: keyof ServiceSettings, keyEnv: keyof ServiceSettings, example = "https://gateway.example.com/v1"): ServiceSpec => ({ endpoint, keyEnv, schemes: HTTP, example });

/** Check one service's endpoint and resolve its credential. `allowOpenAIKey`: this run uses OpenAI's own service here. */
function remote(spec: ServiceSpec, s: ServiceSettings, env: Readonly<Record<string, string | undefined>>, name: SettingName, allowOpenAIKey: boolean): RemoteService {
  const endpoint = s[spec.endpoint] as string | undefined;
  const keyEnv = s[spec.keyEnv] as string | undefined;
  const where = name(spec.endpoint);
  const keyWhere = name(spec.keyEnv);
  if (endpoint !== undefined) checkEndpointUrl(where, endpoint, spec.schemes, spec.example, keyWhere, s.azure || keyHeader(endpoint, false) === "api-key");
  if (keyEnv !== undefined && endpoint === undefined)
    throw new SettingsError(`${keyWhere} names the key for a custom endpoint (${where}); without one this service is OpenAI's own, which takes OPENAI_API_KEY`);
  const credential: Credential = credentialFor({ ...(endpoint ? { url: endpoint } : {}), ...(keyEnv ? { namedEnv: keyEnv } : {}), flag: keyWhere, env, allowOpenAIKey });
  return {
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(credential.key ? { key: credential.key } : {}),
    header: keyHeader(endpoint, s.azure),
    credential: credential.source,
  };
}

const named = (s: ServiceSettings, spec: ServiceSpec) => s[spec.endpoint] !== undefined || s[spec.keyEnv] !== undefined;
const get = (s: ServiceSettings) => (key: string) => (s as Record<string, RunSettings[keyof RunSettings]>)[key] as never;

/**
 * Every service of a run. `live` is `--live`: OpenAI's own services wherever no endpoint is named, with
 * OPENAI_API_KEY. `env` holds the credentials (the shell's and the env file's).
 */
export function resolveServices(s: ServiceSettings, env: Readonly<Record<string, string | undefined>>, name: SettingName = displayName): ResolvedServices {
  const LIVE_SPEC = live("endpoint", "endpoint_api_key_env");
  const liveTarget: ResolvedServices["live"] = remoteTarget(get(s)) ? { kind: "remote", ...remote(LIVE_SPEC, s, env, name, s.live) } : { kind: "simulator" };

  // A client-delegation service of the application's own answers client delegations itself: no Responses
  // API is then called for them (naming one as well would leave it unclear who answers).
  const RESPONSES = http("responses_endpoint", "responses_api_key_env");
  let client_service: ResolvedServices["client_service"] = null;
  if (s.assistant === "client" && s.assistant_endpoint !== undefined) {
    const where = name("assistant_endpoint");
    if (named(s, RESPONSES))
      throw new SettingsError(`${where} and ${name(s.responses_endpoint !== undefined ? "responses_endpoint" : "responses_api_key_env")} both answer client delegations: give one (the service runs its own backend)`);
    client_service = { endpoint: checkClientServiceEndpoint(where, s.assistant_endpoint), token: clientServiceToken(env, env, where), credential: CLIENT_SERVICE_TOKEN_ENV };
  }
  const responses: ResolvedServices["responses"] = !client_service && (s.live || named(s, RESPONSES)) ? { kind: "remote", ...remote(RESPONSES, s, env, name, s.live) } : { kind: "policy" };

  const SPEECH = http("speech_endpoint", "speech_api_key_env");
  if (s.speech !== "openai" && named(s, SPEECH))
    throw new SettingsError(`${name(s.speech_endpoint !== undefined ? "speech_endpoint" : "speech_api_key_env")} applies to --speech openai (an OpenAI-compatible speech endpoint); caller speech here is ${s.speech}`);
  let speech: ResolvedServices["speech"];
  if (s.speech === "openai") {
    // Choosing OpenAI speech is choosing OpenAI's service: its own host may have OPENAI_API_KEY.
    const service = remote(SPEECH, s, env, name, true);
    if (!service.key && service.endpoint === undefined)
      throw new SettingsError("OpenAI caller speech needs OPENAI_API_KEY in the environment, or --speech-endpoint (with --speech-api-key-env NAME) for another speech server; --speech espeak speaks offline");
    speech = { provider: "openai", ...service };
  } else speech = { provider: s.speech };

  const CALLER = live("caller_endpoint", "caller_api_key_env");
  const caller: ResolvedServices["caller"] = liveCaller(get(s)) ? { kind: "live", ...remote(CALLER, s, env, name, s.live) } : { kind: "offline" };

  const COMPLETION = http("completion_endpoint", "completion_api_key_env");
  const completion: ResolvedServices["completion"] = caller.kind === "live" && (s.live || named(s, COMPLETION)) ? { kind: "remote", ...remote(COMPLETION, s, env, name, s.live) } : null;

  // The judge: OpenAI's (with OPENAI_API_KEY) or any Responses-compatible server, only when it runs.
  const JUDGE = http("judge_endpoint", "judge_api_key_env", "http://127.0.0.1:8080/v1");
  let judge: RemoteService | null = null;
  if (s.judge) {
    judge = remote(JUDGE, s, env, name, true);
    if (!judge.key && judge.endpoint === undefined) throw new SettingsError("--judge needs OPENAI_API_KEY in the environment, or --judge-endpoint pointing at a Responses-compatible server");
  }
  return { live: liveTarget, responses, client_service, speech, caller, completion, judge, azure: s.azure };
}

/** What a service is, for provenance and messages: its endpoint (OpenAI's default when none was named). */
export function endpointOf(service: RemoteService, openaiDefault: string): string {
  return service.endpoint ?? openaiDefault;
}
