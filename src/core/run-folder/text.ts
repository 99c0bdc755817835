/** Text taken from a run folder (or any input) made safe to put in a message: control bytes escaped, length capped. */

/** Control characters, and the invisible ones that reorder or hide text on a terminal. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** Escape what a terminal would act on or hide: `\u001b` for ESC, `\u0000` for NUL. Newlines too. */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * A piece of user data for a message: control characters escaped and at most `max` characters of it
 * (default 120), the rest said as a count — so a message never carries raw bytes from a file, nor
 * hundreds of kilobytes of one.
 */
export function shown(text: string, max = 120): string {
  const cut = text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
  return escapeControls(cut);
}

/** A value for a message: a string quoted, anything else as JSON, both through `shown`. */
export function shownValue(value: unknown, max = 60): string {
  if (value === undefined) return "nothing";
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  const text = json ?? String(value);
  // JSON has escaped the control characters below U+0020; the rest are escaped here.
  return text.length > max ? `${escapeControls(text.slice(0, max))}… (${text.length - max} more characters)` : escapeControls(text);
}
