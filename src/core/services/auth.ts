/**
 * How one service is addressed and authenticated: its base URL, the key named for it (or none), and the
 * header that key travels in — `Authorization: Bearer` (OpenAI, most gateways) or `api-key` (Azure
 * OpenAI's key authentication). Every HTTP client crashlab builds for a model service (the client
 * backend's Responses API, caller speech, the judge, the completion observer) is made here, so a key
 * reaches exactly the service it was named for and nothing the OpenAI SDK picks up from the process
 * environment (OPENAI_BASE_URL, OPENAI_ADMIN_KEY, OPENAI_ORG_ID, OPENAI_PROJECT_ID,
 * OPENAI_CUSTOM_HEADERS) ever goes along.
 */
import type { ClientOptions } from "openai";

/** The header a key is sent in. */
export type AuthHeader = "authorization" | "api-key";

export interface ServiceAuth {
  key: string;
  header: AuthHeader;
}

/** The headers that carry `auth` (none at all without a key). */
export function authHeaders(auth: ServiceAuth | null | undefined): Record<string, string> {
  if (!auth?.key) return {};
  return auth.header === "api-key" ? { "api-key": auth.key } : { Authorization: `Bearer ${auth.key}` };
}

/** Headers that carry credentials or account ids: only the service's own credential may set them. */
const CREDENTIAL_HEADERS = ["authorization", "api-key", "openai-organization", "openai-project"];

/** Header names the OpenAI SDK would add from OPENAI_CUSTOM_HEADERS ("Name: value" lines). */
function customHeaderNames(): string[] {
  const text = process.env.OPENAI_CUSTOM_HEADERS ?? "";
  return text
    .split("\n")
    .map((line) => (line.includes(":") ? line.slice(0, line.indexOf(":")).trim().toLowerCase() : ""))
    .filter(Boolean);
}

/**
 * A fetch that sends exactly this service's credential: whatever credential-like header the SDK computed
 * (from its options or the process environment) is removed, then `auth` is set.
 */
export function serviceFetch(auth: ServiceAuth | null | undefined): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    for (const name of [...CREDENTIAL_HEADERS, ...customHeaderNames()]) headers.delete(name);
    for (const [name, value] of Object.entries(authHeaders(auth))) headers.set(name, value);
    return fetch(input, { ...init, headers });
  };
}

/**
 * Split a service URL into the base URL the SDK appends paths to and its query (Azure's `api-version`),
 * which the SDK must send on every request instead.
 */
export function splitServiceUrl(url: string): { base: string; query: Record<string, string> } {
  const parsed = new URL(url);
  const query = Object.fromEntries(parsed.searchParams.entries());
  parsed.search = "";
  parsed.hash = "";
  return { base: parsed.toString().replace(/\/$/, ""), query };
}

export const OPENAI_API_BASE_URL = "https://api.openai.com/v1";

/**
 * Options for an OpenAI SDK client that talks to one service: the base URL spelled out (never read from
 * OPENAI_BASE_URL), no organization or project header, and the credential applied by `serviceFetch`.
 */
export function serviceClientOptions(options: { url?: string; auth: ServiceAuth | null | undefined; timeoutMs: number; maxRetries: number }): ClientOptions {
  const { base, query } = splitServiceUrl(options.url ?? OPENAI_API_BASE_URL);
  return {
    // The SDK insists on some credential; the real one (or none) is set by serviceFetch.
    apiKey: "crashlab-placeholder",
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    baseURL: base,
    ...(Object.keys(query).length ? { defaultQuery: query } : {}),
    defaultHeaders: { Authorization: null },
    fetch: serviceFetch(options.auth),
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
  };
}
