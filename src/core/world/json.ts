/** JSON helpers for world state: deep copies with JSON semantics, deep freezing, JSON Pointers, readable paths. */

import type { Json } from "./types";

/**
 * A deep copy with JSON semantics (what `JSON.parse(JSON.stringify(v))` gives, without the string round
 * trip): undefined, functions and symbols vanish from objects and become null in arrays, non-finite
 * numbers become null, `toJSON` is honoured. Everything that leaves a world goes through here, so no
 * caller ever holds a reference into world state or into a recorded event.
 */
export function toJson(value: unknown): Json {
  return copy(value, "") ?? null;
}

function copy(value: unknown, key: string): Json | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
    case "bigint":
      throw new TypeError(`cannot convert a BigInt to JSON (at "${key}")`);
  }
  if (value === null) return null;
  const withToJson = value as { toJSON?: (key: string) => unknown };
  if (typeof withToJson.toJSON === "function") return copy(withToJson.toJSON(key), key);
  if (Array.isArray(value)) {
    const out: Json[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i], "") ?? null;
    return out;
  }
  const out: { [key: string]: Json } = {};
  for (const k of Object.keys(value as object)) {
    const v = copy((value as Record<string, unknown>)[k], k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** Deep-freeze a JSON value that nobody else references (a fresh `toJson` copy). */
export function freezeJson<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key in value) freezeJson(value[key]);
  }
  return value;
}

/** RFC 6901: an immer path array as a JSON Pointer (`~` → `~0`, `/` → `~1`). */
export function toPointer(path: ReadonlyArray<string | number>): string {
  let pointer = "";
  for (const segment of path) {
    const s = String(segment);
    pointer += "/" + (s.includes("~") || s.includes("/") ? s.replace(/~/g, "~0").replace(/\//g, "~1") : s);
  }
  return pointer;
}

/** A readable location for error messages: `reservations[0].date`, `reservations["R-1"].party_size`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (typeof segment === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}
