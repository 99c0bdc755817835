/**
 * Where a verifier (or a clause) was defined: the file whose code called `defineVerifier` or
 * `defineClause`, read from the call's stack, so a record can say whose evaluation graded it.
 */
import { dirname, isAbsolute, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** File → definition site; null: defined by crashlab itself. Never registered: unknown. */
const sites = new WeakMap<object, string | null>();

// crashlab's own code: the folder of this bundle (dist/), or src/ when it runs from source.
const here = dirname(fileURLToPath(import.meta.url));
const OWN = here.endsWith(`${sep}core${sep}verify`) ? resolve(here, "../..") : here;

function frameFile(line: string): string | null {
  const m = line.match(/\(?((?:file:\/\/)?[^\s()]+?):\d+:\d+\)?\s*$/);
  if (!m) return null;
  const raw = m[1]!;
  const file = raw.startsWith("file://") ? fileURLToPath(raw) : raw;
  return isAbsolute(file) ? file : null;
}

/**
 * The file of the code that called the define function: the frame after callerFile, noteDefinitionSite
 * and the define function itself. Null when that is crashlab's own code (its built-in verifiers and
 * clauses); undefined when the stack does not say.
 */
function callerFile(): string | null | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 8;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = limit;
  const file = frameFile(stack.split("\n")[4] ?? "");
  if (!file) return undefined;
  return file.startsWith(`${OWN}${sep}`) ? null : file;
}

/** Remember where `value` is being defined (call from the define function itself). */
export function noteDefinitionSite<T extends object>(value: T): T {
  const site = callerFile();
  if (site !== undefined) sites.set(value, site);
  return value;
}

/** `to` was made from `from` (a semantic verifier from its clause): it shares its definition site. */
export function inheritDefinitionSite<T extends object>(to: T, from: object): T {
  if (sites.has(from)) sites.set(to, sites.get(from)!);
  return to;
}

/** The absolute file that defined `value`; null: crashlab itself; undefined: not known. */
export function definitionSite(value: object): string | null | undefined {
  return sites.get(value);
}
