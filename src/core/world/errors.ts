/** A world's errors: a definition that cannot work, and a world that cannot be set up for a trial. */

import { formatPath } from "./json";
import { UserError } from "../user-error";

/** One located problem: where (a readable path) and what is wrong. */
export interface WorldIssue {
  path: string;
  message: string;
}

/** A world definition that cannot work (bad name, version or operation). Fix the `defineWorld` call. */
export class WorldDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorldDefinitionError";
  }
}

/**
 * A world could not be set up for a trial: the scenario's `application.initial_state` (or the state
 * built from it) is invalid, or a case asked for an operation the world does not have.
 */
export class WorldSetupError extends UserError {
  constructor(
    message: string,
    readonly issues: WorldIssue[] = [],
  ) {
    super(message);
    this.name = "WorldSetupError";
  }
}

interface ZodLikeIssue {
  code?: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  expected?: string;
}

/** Zod issues as path-precise lines; an unknown key is reported at its own path. */
export function issuesFrom(issues: readonly ZodLikeIssue[], root = ""): WorldIssue[] {
  const out: WorldIssue[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys" && issue.keys?.length) {
      for (const key of issue.keys) out.push({ path: joinPath(root, [...issue.path, key]), message: "unknown field" });
    } else if (issue.code === "invalid_type" && issue.message.endsWith("received undefined")) {
      out.push({ path: joinPath(root, issue.path), message: `missing (expected ${issue.expected ?? "a value"})` });
    } else {
      out.push({ path: joinPath(root, issue.path), message: issue.message });
    }
  }
  return out;
}

export function describeIssues(issues: readonly WorldIssue[]): string {
  return issues.map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ");
}

function joinPath(root: string, path: PropertyKey[]): string {
  const rest = formatPath(path);
  if (!root) return rest;
  if (!rest) return root;
  return rest.startsWith("[") ? root + rest : `${root}.${rest}`;
}
