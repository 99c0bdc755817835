/** Target settings: the run-wide settings a PLAN's target (a ready adapter or a factory) is built with. */

import type { AuthHeader } from "../services/auth";
import type { AssistantPolicy } from "./policy";
import { staticDefault, type RunSettings } from "../settings/schema";
import type { DelegationMode, TargetAdapter } from "./types";

/**
 * Run-wide settings a target is built with, resolved once from the command line (then PLAN defaults,
 * then built-ins). A PLAN target may be a ready adapter or a factory that takes these settings, so
 * `--live`, `--assistant`, `--model` … reach the package's targets without environment variables.
 */
export interface TargetSettings {
  /**
   * offline: the local GPT-Live simulator (or another in-process stand-in); live: a real Live endpoint —
   * OpenAI's service, or the server at `endpoint` (a gateway, Azure OpenAI, your own).
   */
  mode: "offline" | "live";
  delegation: DelegationMode;
  /** The voice frontend model, e.g. `gpt-live-1`. */
  model: string;
  /** The reasoning backend model (Responses delegation, or the client backend when live). */
  backend_model: string;
  /** The assistant's output voice. */
  voice: string;
  /** GPT-Live WebSocket URL override (`--endpoint`); default: the service's, or the simulator's. */
  endpoint?: string;
  /** HTTP base URL for the Responses API backend (client delegation), e.g. a compatible local server or Azure. */
  responses_base_url?: string;
  /**
   * Who answers client delegations: `responses` (the Responses API at `responses_base_url`, default
   * OpenAI's) or `policy` (the package's offline policy, the application's own backend). Default:
   * `responses` live, `policy` offline.
   */
  client_backend?: "responses" | "policy";
  /** The key for the GPT-Live endpoint only. Never recorded, never logged. */
  api_key?: string;
  /** The header the Live key travels in: `authorization` (Bearer, default) or Azure's `api-key`. */
  api_key_header?: AuthHeader;
  /** The key for the client backend's Responses endpoint only (never the Live endpoint's key). */
  responses_api_key?: string;
  /** The header the Responses key travels in (default `authorization`). */
  responses_api_key_header?: AuthHeader;
  /**
   * Client delegation answered by a separately running client-delegation service of the application's own
   * (docs/remote-assistant.md): its WebSocket URL and the Bearer token for it (never recorded, never
   * logged, never sent anywhere else). Takes the place of `client_backend`. Without `endpoint`, the token
   * is for a service the target names itself.
   */
  client_service?: { endpoint?: string; token?: string };
  /** Where each key came from (`OPENAI_API_KEY`, `env:NAME`, `none`), recorded in the target descriptor. */
  credentials?: { live: string; responses: string; client_service?: string };
  real_time: boolean;
  /**
   * Offline: the folder under which the local simulator keeps its synthesized voice (`.audio_cache/`,
   * beside the caller's speech); absent, in memory for the process only. Not part of any result.
   */
  simulator_speech_cache?: string;
  /**
   * Every run setting as resolved (docs/configuration.md), for a target that reads one the fields above do
   * not carry. Plain data; no key is ever a setting.
   */
  run?: Readonly<RunSettings>;
  /**
   * A wrapper around the offline assistant policy the target is built with, applied once when the target is
   * built: `crashlab vary` runs variants of the package's own assistant this way (docs/vary.md). It gets the
   * policy and returns the one the target runs in its place; the wrapped policy sees only what a policy sees.
   * `gptLiveTarget` applies it; never set by a run, never recorded (the wrapped policy's name is).
   */
  wrap_policy?: (policy: AssistantPolicy) => AssistantPolicy;
}

export const DEFAULT_TARGET_SETTINGS: TargetSettings = {
  mode: "offline",
  delegation: staticDefault("assistant"),
  model: staticDefault("model"),
  backend_model: staticDefault("backend_model"),
  voice: "marin",
  real_time: false,
};

export type TargetFactory = (settings: TargetSettings) => TargetAdapter;
export type TargetEntry = TargetAdapter | TargetFactory;

/** Build the selected target. Factories get the settings; ready adapters ignore them. */
export function instantiateTarget(entry: TargetEntry, settings: TargetSettings): TargetAdapter {
  return typeof entry === "function" ? entry(settings) : entry;
}
