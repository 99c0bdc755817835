/** Validating a world's state after a write by checking only what the write's patches touched. */

import type { Patch } from "immer";
import type { z } from "zod";
import { toPointer } from "./json";

export interface StateIssue {
  code?: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/**
 * Validate a state after a write by checking only what the write's patches touched.
 *
 * Validating the whole state after every write costs O(state) per write (a world with thousands of
 * reservations would spend most of its time re-parsing untouched ones). The state schema is usually
 * a tree of plain objects, records and arrays; such a node is valid exactly when each of its entries is
 * valid (and, for an object, its key set fits the shape), so a change below an entry only needs that
 * entry re-validated. Wherever the schema cannot be split like this (refinements or length checks on a
 * container, unions, transforms, lazy schemas, …) the whole subtree at that point is validated, so the
 * result is the same as a full `safeParse` of the new state.
 */
export function checkWrite(schema: z.ZodType, state: unknown, patches: readonly Patch[]): StateIssue[] {
  const issues: StateIssue[] = [];
  const validated = new Set<string>(); // several patches in one subtree: check it, and report its issues, once
  for (const patch of patches) {
    const target = targetOf(schema, state, patch);
    if (!target) continue;
    const key = toPointer(target.path as Array<string | number>);
    if (validated.has(key)) continue;
    validated.add(key);
    const parsed = target.node.safeParse(target.value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        issues.push({ ...issue, path: [...target.path, ...issue.path] } as StateIssue);
      }
    }
  }
  return issues;
}

interface Target {
  node: z.ZodType;
  value: unknown;
  path: PropertyKey[];
}

/** The smallest subtree whose validation decides whether this patch left the state valid (none: always valid). */
function targetOf(root: z.ZodType, state: unknown, patch: Patch): Target | undefined {
  const path = patch.path;
  let node = root;
  let value = state;
  for (const [i, key] of path.entries()) {
    const container = splittable(node);
    if (!container || typeof value !== "object" || value === null) return { node, value, path: path.slice(0, i) };
    const last = i === path.length - 1;
    const removed = last && patch.op === "remove";
    const def = container._zod.def as unknown as ContainerDef;
    let child: z.ZodType;
    if (def.type === "object") {
      if (Array.isArray(value) || !Object.hasOwn(def.shape!, key)) {
        // A key outside the shape: what it means depends on the object's unknown-key policy; let zod say.
        return { node, value, path: path.slice(0, i) };
      }
      child = def.shape![key as string]!;
    } else if (def.type === "record") {
      if (Array.isArray(value)) return { node, value, path: path.slice(0, i) };
      if (removed) {
        // Removing an entry of an open record breaks nothing; an enum-keyed record may require it.
        return kindOf(def.keyType!) === "string" ? undefined : { node, value, path: path.slice(0, i) };
      }
      if (last && !def.keyType!.safeParse(key).success) return { node, value, path: path.slice(0, i) };
      child = def.valueType!;
    } else {
      if (!Array.isArray(value)) return { node, value, path: path.slice(0, i) };
      if (removed || key === "length") return undefined;
      child = def.element!;
    }
    const childValue = removed ? undefined : (value as Record<PropertyKey, unknown>)[key as string];
    if (last) return { node: child, value: childValue, path: path as PropertyKey[] };
    node = child;
    value = childValue;
  }
  return { node: root, value: state, path: [] }; // the whole state was replaced
}

interface ContainerDef {
  type: "object" | "record" | "array";
  shape?: Record<string, z.ZodType>;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
}

type Internal = { _zod: { def: { type: string; checks?: unknown[]; innerType?: z.ZodType } } };

function kindOf(schema: z.ZodType): string {
  return (schema as unknown as Internal)._zod.def.type;
}

/**
 * The object/record/array schema under transparent wrappers, or undefined when validity of the node
 * is not the sum of the validity of its entries.
 */
function splittable(schema: z.ZodType): z.ZodType | undefined {
  let current = schema as unknown as Internal;
  for (;;) {
    const def = current._zod.def;
    if (def.checks?.length) return undefined;
    switch (def.type) {
      case "object":
      case "record":
      case "array":
        return current as unknown as z.ZodType;
      // Wrappers that only matter for undefined/null: the value here is an object.
      case "optional":
      case "nullable":
      case "default":
      case "prefault":
      case "readonly":
      case "nonoptional":
        current = def.innerType as unknown as Internal;
        continue;
      default:
        return undefined;
    }
  }
}
