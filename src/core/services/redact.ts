/**
 * One redaction for every output channel (results.json, report.html, junit.xml, events, transcripts,
 * the console): applied to the text as it leaves, so no writer can forget a field. It removes the exact
 * secrets the run knows (the keys it was given), key-shaped strings (`sk-…`, `Bearer …`) and the values of
 * secret-named JSON fields (`"authorization": "…"`, `"api_key": "…"`).
 */
export type Redact = (text: string) => string;

export const REDACTED = "[REDACTED]";

const KEY_SHAPED = /\b(sk-[A-Za-z0-9_-]{8,}|Bearer\s+[A-Za-z0-9._~+/=-]{8,})/g;
const SECRET_FIELD = /("(?:authorization|api[_-]?key|openai[_-]?api[_-]?key|token|secret|password)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

/** A redactor for these known secrets (values shorter than 8 characters are not secrets worth matching). */
export function redactor(secrets: Iterable<string | undefined | null>): Redact {
  const values = [...secrets].map((s) => s?.trim() ?? "").filter((s) => s.length >= 8);
  // Each secret as written raw, inside a JSON string, and inside HTML text.
  const forms = values.flatMap((s) => [s, JSON.stringify(s).slice(1, -1), s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)]);
  const known = [...new Set(forms)].sort((a, b) => b.length - a.length);
  return (text: string) => {
    let out = text;
    for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out.replace(KEY_SHAPED, REDACTED).replace(SECRET_FIELD, `$1"${REDACTED}"`);
  };
}

/** Without known secrets: only the shapes (what a library caller gets by default). */
export const redactShapes: Redact = redactor([]);

/**
 * An endpoint URL as messages print it: the query string, the fragment and any user:password@ replaced,
 * since a gateway's token may ride there in any name (`?token=…`, `?sig=…`) and any shape, which the
 * key-shaped rule above cannot see. Works on text that does not parse as a URL too.
 */
export function urlForDisplay(value: string): string {
  return value
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/i, "$1<redacted>@")
    .replace(/\?[^#]*/, "?<redacted>")
    .replace(/#.*/, "#<redacted>");
}

/**
 * Every URL in a message (a library's error text may quote the one it was given), shown as urlForDisplay
 * does: first the `known` ones exactly (a URL with a space in it is quoted whole), then anything URL-shaped.
 */
export function redactUrls(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const url of known) if (url) out = out.split(url).join(urlForDisplay(url));
  return out.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi, (url) => urlForDisplay(url));
}
