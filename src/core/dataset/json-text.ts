/**
 * A dataset file's bytes to a JSON value, refusing what JSON.parse accepts but a dataset must not hold:
 * text that is not UTF-8, nesting deep enough to exhaust the stack of any recursive reader (zod's among
 * them), keys that name JavaScript's object machinery (`__proto__` is dropped or becomes a prototype
 * when copied; `constructor` and `prototype` read as built-ins wherever a lookup misses), and duplicate
 * keys (JSON.parse silently keeps the last). A UTF-8 byte-order mark is accepted and skipped.
 */

/** Deepest nesting of objects and arrays a dataset may have; the contract's own fields need fewer than 10. */
export const MAX_JSON_DEPTH = 64;

/** Keys refused anywhere in a dataset. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export interface JsonTextProblem {
  /** Where: object keys and array indices from the root. */
  path: Array<string | number>;
  message: string;
}

export type JsonText = { ok: true; value: unknown } | { ok: false; problems: JsonTextProblem[] };

export function parseJsonText(bytes: Uint8Array): JsonText {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    return { ok: false, problems: [{ path: [], message: `not UTF-8 text (an invalid byte sequence${at >= 0 ? ` at byte ${at}` : ""}); save the file as UTF-8` }] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // JSON.parse quotes the source around the fault; keep the message on one line.
    const message = withLineAndColumn((error as Error).message, text).replace(/\s*[\r\n]+\s*/g, " ");
    return { ok: false, problems: [{ path: [], message: `not valid JSON (${message})` }] };
  }
  const problems = scanStructure(text);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
}

/** "… at position 812" gains "(line 30, column 7)". */
function withLineAndColumn(message: string, text: string): string {
  const at = /position (\d+)/.exec(message);
  if (!at) return message;
  const before = text.slice(0, Number(at[1]));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return `${message} (line ${line}, column ${column})`;
}

interface Frame {
  kind: "object" | "array";
  /** Object: the key being read; array: the index. */
  at: string | number;
  keys?: Set<string>;
  expectKey: boolean;
}

/**
 * One pass over text JSON.parse accepted: depth, forbidden and duplicate keys, each with its path.
 * Iterative, so no input can exhaust the stack.
 */
function scanStructure(text: string): JsonTextProblem[] {
  const problems: JsonTextProblem[] = [];
  const stack: Frame[] = [];
  const path = () => stack.map((f) => f.at);
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      if (stack.length >= MAX_JSON_DEPTH) {
        problems.push({ path: path(), message: `nested more than ${MAX_JSON_DEPTH} levels deep; a dataset may nest objects and arrays at most ${MAX_JSON_DEPTH} levels` });
        return problems;
      }
      stack.push(ch === 0x7b ? { kind: "object", at: "", keys: new Set(), expectKey: true } : { kind: "array", at: 0, expectKey: false });
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) {
      stack.pop();
    } else if (ch === 0x2c /* , */) {
      const top = stack.at(-1);
      if (top?.kind === "object") top.expectKey = true;
      else if (top) top.at = (top.at as number) + 1;
    } else if (ch === 0x22 /* " */) {
      const start = i;
      for (i++; text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c /* \ */) i++;
      const top = stack.at(-1);
      if (top?.kind === "object" && top.expectKey) {
        const key = JSON.parse(text.slice(start, i + 1)) as string;
        top.expectKey = false;
        top.at = key;
        if (FORBIDDEN_KEYS.has(key)) problems.push({ path: path(), message: `the key "${key}" is not allowed (it names JavaScript's object machinery, which a copy or lookup would use instead of your data); rename it` });
        else if (top.keys!.has(key)) problems.push({ path: path(), message: `duplicate key "${key}" in one object (JSON keeps only the last); remove one` });
        top.keys!.add(key);
        if (problems.length >= 20) return problems;
      }
    }
  }
  return problems;
}

/** Byte offset of the first plainly invalid UTF-8 lead or continuation byte, or -1 (for the message only). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += need + 1;
  }
  return -1;
}
