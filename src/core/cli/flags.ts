/**
 * Reading command-line flags, the same way for every command: one parse that refuses what Node's
 * parseArgs lets through (a repeated single-valued flag, an empty value) and accepts what it trips on
 * (a negative number after a flag), and value checks that refuse empty strings, NaN, Infinity and
 * out-of-range numbers with a message naming the flag and its range.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { SAFE_ID } from "../dataset/schema";
import { rangeText, type Range } from "../settings/field";
import { UsageError } from "./usage-error";

export { UsageError };

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig["options"]>;

export interface ParsedFlags<O extends ParseArgsOptionsConfig> {
  values: ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: true }>>["values"];
  positionals: string[];
}

/**
 * Parse `argv` against `options`. A flag that is not repeatable may be given once; every value must
 * be non-blank; `--seed -1` reaches the value check (which names the range) instead of parseArgs'
 * "argument is ambiguous". `positionals` is how many positional arguments the command takes.
 */
export function parseFlags<O extends ParseArgsOptionsConfig>(argv: readonly string[], options: O, positionals = 0): ParsedFlags<O> {
  const shorts = new Map<string, string>(Object.entries(options).flatMap(([name, o]) => (o.short ? [[`-${o.short}`, name] as const] : [])));
  const isFlag = (token: string) => token === "--" || (token.startsWith("--") && token.slice(2).split("=")[0]! in options) || shorts.has(token) || /^--[^-]/.test(token);
  // A value that starts with "-" is glued to its flag, so parseArgs takes it as the value.
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    args.push(token);
    if (token === "--") {
      args.push(...argv.slice(i + 1));
      break;
    }
    const name = token.startsWith("--") && !token.includes("=") ? token.slice(2) : shorts.get(token);
    if (name === undefined || options[name]?.type !== "string") continue;
    const next = argv[i + 1];
    if (next === undefined || isFlag(next)) throw new UsageError(`--${name} needs a value`);
    args[args.length - 1] = `--${name}=${next}`;
    i++;
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const given = new Map<string, string[]>();
  for (const token of parsed.tokens) {
    if (token.kind !== "option") continue;
    const list = given.get(token.name) ?? [];
    list.push(token.value ?? "");
    given.set(token.name, list);
    if (options[token.name]?.type === "string" && (token.value ?? "").trim() === "")
      throw new UsageError(`--${token.name} needs a value (got ${token.value === "" ? "an empty string" : "only whitespace"})`);
  }
  for (const [name, values] of given) {
    if (options[name]?.multiple || values.length < 2) continue;
    const shown = options[name]?.type === "string" ? ` (${values.map((v) => JSON.stringify(v)).join(", ")})` : "";
    throw new UsageError(`--${name} was given ${values.length} times${shown}; it takes one value, so give it once`);
  }
  if (parsed.positionals.length > positionals) {
    const extra = parsed.positionals[positionals]!;
    throw new UsageError(positionals === 0 ? `unexpected argument "${extra}": this command takes only flags` : `unexpected argument "${extra}": this command takes at most ${positionals} argument(s)`);
  }
  return { values: parsed.values as ParsedFlags<O>["values"], positionals: parsed.positionals };
}

export type { Range } from "../settings/field";

const WHOLE = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Any finite number: for values whose range is checked later, by what reads them. */
export const ANY_NUMBER: Range = { min: -Number.MAX_VALUE, max: Number.MAX_VALUE };

/** A whole number in `range`, written in digits (no sign, exponent, fraction, NaN or Infinity). */
export function wholeNumber(flag: string, text: string, range: Range): number {
  const n = Number(text.trim());
  if (!WHOLE.test(text.trim()) || !Number.isSafeInteger(n) || n < range.min || n > range.max)
    throw new UsageError(`${flag} takes ${rangeText(range, true)} (got "${text}")`);
  return n;
}

/** A finite decimal number in `range` (`0.9`, `.5`, `2e-1`; never NaN, Infinity or an empty string). */
export function decimalNumber(flag: string, text: string, range: Range): number {
  const n = Number(text.trim());
  if (!DECIMAL.test(text.trim()) || !Number.isFinite(n) || n < range.min || n > range.max)
    throw new UsageError(`${flag} takes ${rangeText(range, false)} (got "${text}")`);
  return n;
}

/** One of a fixed set of names, compared exactly. */
export function oneOf<T extends string>(flag: string, text: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(text)) throw new UsageError(`${flag} takes one of ${choices.join(", ")} (got "${text}")`);
  return text as T;
}

/** `--run-name`, for `run` and `merge` alike: it becomes part of a folder name under --results-dir. */
export function checkRunName(name: string | undefined): void {
  if (name !== undefined && (!SAFE_ID.test(name) || name.includes("..")))
    throw new UsageError(`--run-name must be a safe folder name (letters, digits, '_', '-', '.'), got "${name}"`);
}
