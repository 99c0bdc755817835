/**
 * A separately running client-delegation service (`--assistant-endpoint`, docs/remote-assistant.md): where
 * it may be and the token it is sent. The token goes only there, only over TLS outside this machine,
 * never inside the URL, and it is never an OpenAI key.
 */
import { isIP } from "node:net";
import { SettingsError } from "../settings/errors";
import { urlForDisplay } from "./redact";

/** The variable holding the service's token (the same name the public reference harness reads). */
export const CLIENT_SERVICE_TOKEN_ENV = "OPENAI_CLIENT_ASSISTANT_TOKEN";

/** What a token must be: long enough to be a secret, printable ASCII so it fits a header as it is. */
export const TOKEN_LENGTH = { min: 32, max: 512 } as const;

/** Whether a URL's host is this machine: `localhost`, 127.0.0.0/8 or ::1 (a plain ws:// there never leaves it). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1" || /^::ffff:127\./.test(host);
  return false;
}

/**
 * Check the service's endpoint: a ws:// or wss:// URL, wss:// unless its host is loopback, with no
 * user:password@, query or fragment (a token must never ride in the URL, where logs and proxies keep it).
 * `flag` names the setting as its source gave it.
 */
export function checkClientServiceEndpoint(flag: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingsError(`${flag} takes a wss:// URL of your client-delegation service, e.g. wss://agent.example.com/ws/assistant (got "${urlForDisplay(value)}")`);
  }
  const scheme = url.protocol.replace(/:$/, "");
  if (scheme !== "ws" && scheme !== "wss") throw new SettingsError(`${flag} takes a ws:// or wss:// URL, e.g. wss://agent.example.com/ws/assistant (got "${scheme}://…")`);
  if (url.username || url.password)
    throw new SettingsError(`${flag} must not carry credentials in the URL (user:password@…): the service's token goes in ${CLIENT_SERVICE_TOKEN_ENV}, which crashlab sends as an Authorization header`);
  if (url.search || url.hash)
    throw new SettingsError(`${flag} must not have a query string or fragment (got "${url.search ? "?<redacted>" : "#<redacted>"}", not shown: a query may hold a token): give the service's WebSocket URL only, e.g. wss://agent.example.com/ws/assistant`);
  if (scheme === "ws" && !isLoopbackHost(url.hostname))
    throw new SettingsError(
      `${flag} is a plain ws:// URL to ${url.hostname}, which is not this machine: the service's token would cross the network unencrypted; use wss:// (TLS), or ws:// only to localhost, 127.0.0.1 or [::1]`,
    );
  return value;
}

/**
 * The service's token from the credentials: set, 32–512 printable ASCII characters (no spaces), and not
 * any key the run holds for another service (`otherKeys`: OPENAI_API_KEY and every key a setting names).
 * The value never appears in a message.
 */
export function clientServiceToken(credentials: Readonly<Record<string, string | undefined>>, otherKeys: Readonly<Record<string, string | undefined>>, flag: string): string {
  const token = credentials[CLIENT_SERVICE_TOKEN_ENV]?.trim();
  if (!token)
    throw new SettingsError(
      `${flag} needs ${CLIENT_SERVICE_TOKEN_ENV}: set it in the environment or the env file (.env) to the same dedicated random secret the service expects (e.g. \`node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"\`)`,
    );
  if (token.length < TOKEN_LENGTH.min || token.length > TOKEN_LENGTH.max || !/^[\x21-\x7e]+$/.test(token))
    throw new SettingsError(`${CLIENT_SERVICE_TOKEN_ENV} must be a dedicated random secret of ${TOKEN_LENGTH.min} to ${TOKEN_LENGTH.max} printable characters without spaces (it has ${token.length} characters; its value is not shown)`);
  for (const [name, key] of Object.entries(otherKeys))
    if (name !== CLIENT_SERVICE_TOKEN_ENV && key?.trim() === token)
      throw new SettingsError(`${CLIENT_SERVICE_TOKEN_ENV} is the same value as ${name}: the service's token must be its own secret, never an OpenAI or other service key; generate a new one for the service and the evaluator`);
  return token;
}
