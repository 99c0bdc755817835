import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { resultsJsonSchema } from "../src/core/record/results";
import { CRASHLAB_VERSION } from "../src/core/version";

const repo = resolve(import.meta.dirname, "..");

describe("published schemas and versions", () => {
  it("schema/results.schema.json is the JSON Schema of the results.json zod schema", () => {
    const committed = JSON.parse(readFileSync(resolve(repo, "schema/results.schema.json"), "utf8"));
    // On a mismatch: regenerate with `pnpm crashlab schema > schema/results.schema.json`.
    expect(committed).toEqual(resultsJsonSchema());
  });

  it("records the package version in provenance", () => {
    expect(JSON.parse(readFileSync(resolve(repo, "package.json"), "utf8")).version).toBe(CRASHLAB_VERSION);
  });
});
