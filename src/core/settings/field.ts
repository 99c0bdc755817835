/**
 * How one run setting is declared: its kind, the schema every source is checked with, its default, its
 * help text, and where it may be given (flag, crashlab.toml key, environment variable, PLAN defaults).
 * The builders here (`whole`, `decimal`, `choice`, `text`, `toggle`, `list`) give the kind, the schema and
 * the text a message says an accepted value is; a setting in schema.ts adds the rest.
 */
import { z } from "zod";

export type SettingValue = string | number | boolean | string[];

/** The groups `crashlab run --help` lists settings in, in this order. */
export const SECTIONS = {
  selection: "Package and selection",
  configuration: "Configuration files (docs/configuration.md)",
  target: "Target and audio",
  services: "Each service on its own endpoint, with its own key (docs/azure.md has a worked Azure configuration)",
  recorded: "WALK (recorded callers) and RUN (simulated callers)",
  conversation: "RUN (a simulated caller in one full-duplex conversation)",
  judge: "Semantic judge (docs/verifiers-and-clauses.md)",
  trials: "Trials",
  gates: "Gates (override the PLAN's gate configuration)",
  resume: "Resume, rerun and shards",
  output: "Output",
} as const;
export type Section = keyof typeof SECTIONS;

/** What the value of a setting is, before the rest of its declaration. */
export interface SettingKind<T extends SettingValue> {
  kind: "whole" | "decimal" | "choice" | "text" | "toggle" | "list";
  schema: z.ZodType<T>;
  /** What an accepted value is, for every message and for --help: "a whole number from 1 to 15". */
  expected: string;
  /** `choice`: the accepted values. */
  choices?: readonly string[];
  /** `list`: what each item is. */
  item?: SettingKind<string>;
}

export interface Setting<T extends SettingValue = SettingValue> extends SettingKind<T> {
  /**
   * The built-in default, the last layer. `undefined`: not set unless given (the PLAN's own limits or gates,
   * the case's, or the engine's behaviour apply, as `default_help` says). A function: a default that follows
   * from settings declared before this one.
   */
  default: T | undefined | ((get: (key: string) => SettingValue | undefined) => T);
  /** What --help says after the value's description. */
  help: string;
  /** The default as --help states it, when the value alone does not say it (a computed default, or "none"). */
  default_help?: string;
  /** The placeholder --help shows after the flag (`<n>`); toggles take none. */
  value?: string;
  section: Section;
  /**
   * The flag, without `--`. Absent: the key with `_` as `-`; null: no flag (set in crashlab.toml only).
   * A toggle's flag sets it to true.
   */
  flag?: string | null;
  /** A toggle's flag that sets it to false (`no-real-time`). */
  negation?: string;
  /** More flags for the same setting (`scenario` for `example`); a list gathers them in order. */
  aliases?: readonly string[];
  /** Its key in crashlab.toml, `section.key` (`audio.chunk_ms`); absent: not in the config file. */
  config?: string;
  /** The environment variable (shell or --env-file) that may set it. */
  env?: string;
  /** Whether a PLAN's `defaults` may set it (default true), and the older nested names it also takes there. */
  plan?: boolean;
  plan_alias?: string;
  /** Whether it changes what a trial does or how it is judged: then it enters the plan digest. */
  digest: boolean;
  /** May be given beside --resume (how the rest of a run is shown or paced, never what its trials do). */
  on_resume?: boolean;
  /** Settings of one group resolve together, from the highest source that sets any of them (an endpoint and its key's variable). */
  group?: string;
  /** A path: given in crashlab.toml, it is relative to that file's folder. */
  path?: boolean;
}

export interface Range {
  min: number;
  max: number;
}

/** The description of a numeric range, as every message and --help state it. */
export function rangeText(range: Range, whole: boolean): string {
  const kind = whole ? "a whole number" : "a number";
  if (range.min === range.max) return String(range.min);
  if (range.min === -Number.MAX_VALUE && range.max === Number.MAX_VALUE) return kind;
  if (range.max === Number.MAX_SAFE_INTEGER || range.max === Number.MAX_VALUE) return `${kind} >= ${range.min}`;
  return `${kind} from ${range.min} to ${range.max}`;
}

const expectedMessage = (expected: string) => `expected ${expected}`;

/** A whole number in `range` (and a multiple of `step`, when given). */
export function whole(range: Range, step?: number): SettingKind<number> {
  const expected = `${rangeText(range, true)}${step ? ` in steps of ${step}` : ""}`;
  const message = expectedMessage(expected);
  let schema = z.number({ error: message }).int(message).min(range.min, message).max(range.max, message);
  if (step) schema = schema.multipleOf(step, message);
  return { kind: "whole", schema, expected };
}

/** A finite number in `range`. */
export function decimal(range: Range): SettingKind<number> {
  const expected = rangeText(range, false);
  const message = expectedMessage(expected);
  return { kind: "decimal", schema: z.number({ error: message }).min(range.min, message).max(range.max, message), expected };
}

/** One of a fixed set of names, compared exactly. */
export function choice<const T extends string>(choices: readonly [T, ...T[]]): SettingKind<T> {
  const expected = `one of ${choices.join(", ")}`;
  return { kind: "choice", schema: z.enum(choices, { error: expectedMessage(expected) }) as unknown as z.ZodType<T>, expected, choices };
}

/** A non-empty string (`check`, when given, says more about what it must be). */
export function text(check?: { test: (value: string) => boolean; expected: string }): SettingKind<string> {
  const expected = check?.expected ?? "a non-empty string";
  const message = expectedMessage(expected);
  return { kind: "text", schema: z.string({ error: message }).refine((s) => s.trim() !== "" && (check?.test(s) ?? true), message), expected };
}

/** On or off. */
export function toggle(): SettingKind<boolean> {
  return { kind: "toggle", schema: z.boolean({ error: "expected true or false" }), expected: "true or false" };
}

/** A list of values of one kind; a flag is repeated to give several. */
export function list(item: SettingKind<string>): SettingKind<string[]> {
  const expected = `${item.expected}, or a list of them`;
  return { kind: "list", schema: z.array(item.schema, { error: expectedMessage(expected) }), expected, item, ...(item.choices ? { choices: item.choices } : {}) };
}

const WHOLE = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const TRUE = /^(true|1|yes|on)$/i;
const FALSE = /^(false|0|no|off)$/i;

/**
 * A value written as text (a flag's value, an environment variable), read as the setting's kind and
 * checked with its schema; `undefined` when it is not one (the caller says what was expected, and where).
 * A number is written in digits: no hex, no thousands separators, never NaN or Infinity.
 */
export function readText(setting: SettingKind<SettingValue>, text: string): SettingValue | undefined {
  const t = text.trim();
  let value: unknown = text;
  if (setting.kind === "whole") value = WHOLE.test(t) ? Number(t) : undefined;
  else if (setting.kind === "decimal") value = DECIMAL.test(t) ? Number(t) : undefined;
  else if (setting.kind === "toggle") value = TRUE.test(t) ? true : FALSE.test(t) ? false : undefined;
  else if (setting.kind === "list") value = text.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (value === undefined) return undefined;
  const parsed = setting.schema.safeParse(value);
  return parsed.success ? (parsed.data as SettingValue) : undefined;
}

/** The flag a setting is given with on the command line, or null when it has none. */
export function flagOf(key: string, setting: Pick<Setting, "flag">): string | null {
  if (setting.flag === null) return null;
  return setting.flag ?? key.replace(/_/g, "-");
}
