/** Matching expected arguments and state against what was observed (docs/grading.md): subsets, equality, one-to-one pairing. */

import type { ExpectedCall } from "../dataset/schema";
import type { ToolExecution } from "../record/trial-record";

/**
 * Argument and state matching (docs/grading.md) "Argument matching": the expected value is a
 * recursive subset of the observed one. Booleans by identity, numbers by numeric value, strings after
 * case folding with punctuation replaced by spaces and whitespace collapsed; a list matches when each
 * expected element matches its own observed element, in any order (a list in a world's view has no
 * order a dataset author can know: the reference harness's expected reservation lists name entries in
 * whatever order they like).
 */
export function normalizeText(value: string): string {
  return value
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export function matchesSubset(expected: unknown, observed: unknown): boolean {
  if (expected === null) return observed === null;
  // Booleans by identity and numbers by value are both `===` (4 and 4.0 are one number; "4" is not 4).
  if (typeof expected === "boolean" || typeof expected === "number") return observed === expected;
  if (typeof expected === "string") return typeof observed === "string" && normalizeText(observed) === normalizeText(expected);
  if (Array.isArray(expected)) {
    if (!Array.isArray(observed) || observed.length < expected.length) return false;
    // One observed element per expected one: two expected entries cannot both be met by one reservation.
    return maximumMatching(expected.length, observed.length, (i, j) => matchesSubset(expected[i], observed[j])) === expected.length;
  }
  if (typeof expected === "object") {
    if (observed === null || typeof observed !== "object" || Array.isArray(observed)) return false;
    const obs = observed as Record<string, unknown>;
    return Object.entries(expected as Record<string, unknown>).every(([key, value]) => key in obs && matchesSubset(value, obs[key]));
  }
  return false;
}

/** Deep structural equality of JSON values (for `{"unchanged": true}`: final equals initial exactly). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ak = Object.keys(a as object);
  const bo = b as Record<string, unknown>;
  return ak.length === Object.keys(bo).length && ak.every((k) => k in bo && jsonEqual((a as Record<string, unknown>)[k], bo[k]));
}

/** Size of a maximum one-to-one matching in a bipartite graph (Kuhn's augmenting paths; inputs are small). */
export function maximumMatching(left: number, right: number, edge: (i: number, j: number) => boolean): number {
  return maximumAssignment(left, right, edge).filter((i) => i !== -1).length;
}

/** A maximum one-to-one matching: for each right vertex, the left vertex it is matched to, or -1. */
export function maximumAssignment(left: number, right: number, edge: (i: number, j: number) => boolean): number[] {
  const owner = new Array<number>(right).fill(-1);
  const tryAssign = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < right; j++) {
      if (seen[j] || !edge(i, j)) continue;
      seen[j] = true;
      if (owner[j] === -1 || tryAssign(owner[j]!, seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  // Stryker disable next-line ArrayDeclaration: equivalent, an unfilled array reads undefined (not seen) just as false
  for (let i = 0; i < left; i++) tryAssign(i, new Array<boolean>(right).fill(false));
  return owner;
}

/** An observed call satisfies an expected one when names match, arguments are a subset, status fits (docs/grading.md). */
export function callMatches(expected: ExpectedCall, observed: ToolExecution): boolean {
  if (expected.name !== observed.name) return false;
  if (expected.status === "completed" && observed.status !== "completed") return false;
  if (expected.status === "refused" && (observed.status !== "failed" || (expected.error !== undefined && observed.error?.code !== expected.error))) return false;
  return matchesSubset(expected.arguments, observed.arguments ?? {});
}
