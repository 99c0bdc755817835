/** Which API key goes to which service: OPENAI_API_KEY only to OpenAI's hosts, any other key only where named. */

import { SettingsError } from "../settings/errors";
import { urlForDisplay } from "./redact";

/**
 * Which credential goes to which service: keys are scoped. `OPENAI_API_KEY` is sent only to
 * OpenAI's own hosts; any other endpoint (a gateway, a local server, another vendor) gets a key only when
 * the user names the environment variable that holds it for that very service (`--judge-api-key-env`,
 * `--endpoint-api-key-env`). The secret itself is never recorded: `source` says where it came from.
 */
export interface Credential {
  key?: string;
  /** Recorded in provenance: `OPENAI_API_KEY`, `env:NAME`, or `none`. */
  source: string;
}

/** The header a named key travels in: Azure's `api-key` for Azure hosts (or everything under --azure), else Bearer. */
export function keyHeader(url: string | undefined, azure: boolean): "authorization" | "api-key" {
  return url !== undefined && (azure || isAzureHost(url)) ? "api-key" : "authorization";
}

/**
 * Azure OpenAI's hosts (`<resource>.openai.azure.com`, `<resource>.cognitiveservices.azure.com`,
 * `<resource>.services.ai.azure.com`): a key named for one of them travels in the `api-key` header.
 */
export function isAzureHost(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return [".openai.azure.com", ".cognitiveservices.azure.com", ".services.ai.azure.com"].some((suffix) => host.endsWith(suffix));
}

/** OpenAI's own API hosts (api.openai.com and its subdomains); nothing else, not even look-alikes. */
export function isOpenAIHost(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === "openai.com" || host.endsWith(".openai.com");
}

/**
 * The credential for one service. `url` undefined means the service's default, which is OpenAI's own host.
 * `namedEnv` is the variable the user named for this service; it must be set and non-empty.
 */
export function credentialFor(options: { url?: string; namedEnv?: string; flag: string; env: Readonly<Record<string, string | undefined>>; allowOpenAIKey: boolean }): Credential {
  const { url, namedEnv, flag, env } = options;
  if (namedEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(namedEnv)) throw new SettingsError(`${flag} takes the name of an environment variable (letters, digits, '_'), got "${namedEnv}"`);
    const key = env[namedEnv]?.trim();
    if (!key) throw new SettingsError(`${flag} ${namedEnv}: the environment variable ${namedEnv} is not set or empty; export it or write it in the env file (.env), or drop ${flag}`);
    return { key, source: `env:${namedEnv}` };
  }
  const openai = env.OPENAI_API_KEY?.trim();
  if (options.allowOpenAIKey && openai && (url === undefined || isOpenAIHost(url))) return { key: openai, source: "OPENAI_API_KEY" };
  return { source: "none" };
}

/**
 * Refuse endpoint URLs that cannot work as a base URL: credentials inside the URL (they would be logged and
 * sent to every path) or a query string (the client appends paths). `schemes` are the accepted protocols.
 * Azure endpoints (`azure`) may carry one query parameter, `api-version`, which Azure's dated API versions
 * need; it is sent on every request.
 */
export function checkEndpointUrl(flag: string, value: string, schemes: readonly string[], example: string, keyFlag: string, azure = false): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingsError(`${flag} takes a ${schemes.join(" or ")} URL, e.g. ${example} (got "${urlForDisplay(value)}")`);
  }
  if (!schemes.includes(url.protocol.replace(/:$/, ""))) throw new SettingsError(`${flag} takes a ${schemes.map((s) => `${s}://`).join(" or ")} URL, e.g. ${example} (got "${url.protocol}//…")`);
  if (url.username || url.password)
    throw new SettingsError(`${flag} must not carry credentials in the URL (user:password@…): put the key in an environment variable and name it with ${keyFlag} NAME`);
  const onlyApiVersion = azure && !url.hash && [...url.searchParams.keys()].every((k) => k === "api-version") && url.searchParams.getAll("api-version").length === 1 && url.searchParams.get("api-version") !== "";
  if (url.search && onlyApiVersion) return value;
  if (url.search || url.hash)
    throw new SettingsError(
      `${flag} must not have a query string or fragment (got "${url.search ? "?<redacted>" : "#<redacted>"}", not shown: a query may hold a token): give the base URL only, e.g. ${example}${azure ? " (Azure endpoints may carry only ?api-version=…)" : " (an Azure endpoint may carry ?api-version=…; Azure hosts are recognized, or pass --azure)"}`,
    );
  return value;
}
