import { UsageError } from "./usage-error";

/**
 * Which credential goes to which service (issue: keys are scoped). `OPENAI_API_KEY` is sent only to
 * OpenAI's own hosts; any other endpoint (a gateway, a local server, another vendor) gets a key only when
 * the user names the environment variable that holds it for that very service (`--judge-api-key-env`,
 * `--endpoint-api-key-env`). The secret itself is never recorded: `source` says where it came from.
 */
export interface Credential {
  key?: string;
  /** Recorded in provenance: `OPENAI_API_KEY`, `env:NAME`, or `none`. */
  source: string;
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
export function credentialFor(options: { url?: string; namedEnv?: string; flag: string; env: Record<string, string | undefined>; allowOpenAIKey: boolean }): Credential {
  const { url, namedEnv, flag, env } = options;
  if (namedEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(namedEnv)) throw new UsageError(`${flag} takes the name of an environment variable (letters, digits, '_'), got "${namedEnv}"`);
    const key = env[namedEnv]?.trim();
    if (!key) throw new UsageError(`${flag} ${namedEnv}: the environment variable ${namedEnv} is not set or empty; export it, or drop ${flag}`);
    return { key, source: `env:${namedEnv}` };
  }
  const openai = env.OPENAI_API_KEY?.trim();
  if (options.allowOpenAIKey && openai && (url === undefined || isOpenAIHost(url))) return { key: openai, source: "OPENAI_API_KEY" };
  return { source: "none" };
}

/**
 * Refuse endpoint URLs that cannot work as a base URL: credentials inside the URL (they would be logged and
 * sent to every path) or a query string (the client appends paths). `schemes` are the accepted protocols.
 */
export function checkEndpointUrl(flag: string, value: string, schemes: readonly string[], example: string, keyFlag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} takes a ${schemes.join(" or ")} URL, e.g. ${example} (got "${value}")`);
  }
  if (!schemes.includes(url.protocol.replace(/:$/, ""))) throw new UsageError(`${flag} takes a ${schemes.map((s) => `${s}://`).join(" or ")} URL, e.g. ${example} (got "${url.protocol}//…")`);
  if (url.username || url.password)
    throw new UsageError(`${flag} must not carry credentials in the URL (user:password@…): put the key in an environment variable and name it with ${keyFlag} NAME`);
  if (url.search || url.hash) throw new UsageError(`${flag} must not have a query string or fragment (got "${url.search || url.hash}"): give the base URL only, e.g. ${example}`);
  return value;
}
