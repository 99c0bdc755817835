import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { resultsJsonSchema } from "../src/core/record/results";
import { Provenance } from "../src/core/record/trial-record";
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

  it("docs/results.md documents every field of a trial's provenance", () => {
    // Every leaf of the record schema's provenance, as a dotted path (`[]` before the fields of an array's objects).
    const leaves = (schema: z.ZodType, path: string): string[] => {
      if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return leaves(schema.unwrap() as z.ZodType, path);
      if (schema instanceof z.ZodArray) return schema.element instanceof z.ZodObject ? leaves(schema.element as z.ZodType, `${path}[]`) : [path];
      if (schema instanceof z.ZodObject) return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
      return [path];
    };
    const fields = leaves(Provenance, "");
    expect(fields).toEqual(expect.arrayContaining(["digest", "parts.package", "target_parts.tools", "git.repositories[].changed", "models.observed.served_by", "node"]));
    const doc = readFileSync(resolve(repo, "docs/results.md"), "utf8");
    // The rows of the table under "## Provenance": the field cell, then what it says.
    const section = doc.slice(doc.indexOf("## Provenance"), doc.indexOf("\n## ", doc.indexOf("## Provenance") + 1));
    const rows = section.split("\n").filter((l) => l.startsWith("| `")).map((l) => { const [, field, text] = l.split("|"); return { field: field!, text: text! }; });
    expect(rows.length).toBeGreaterThan(10);
    const undocumented = fields.filter((f) => {
      // Named in a row's field cell; or its parent is, and the row's text names the leaf.
      if (rows.some((r) => r.field.includes(`\`${f}\``))) return false;
      const dot = f.lastIndexOf(".");
      const parent = f.slice(0, dot);
      const leaf = f.slice(dot + 1);
      return !rows.some((r) => r.field.includes(`\`${parent}\``) && r.text.includes(`\`${leaf}\``));
    });
    expect(undocumented).toEqual([]);
  });
});

