/**
 * Fuzzing the dataset loader and `crashlab validate` with seeded random mutations of the bundled
 * datasets: type swaps, deletions, deep nesting, huge strings, unicode, unknown and prototype keys,
 * duplicates, edge numbers, and damage to the JSON text itself. Whatever comes out, the loader returns a
 * valid dataset or throws a DatasetError, and validate returns 0 or 2 with one paragraph per problem —
 * never another exception, never a hang (a fixed number of iterations; no timing is asserted).
 */
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { DatasetError, loadDataset } from "../src/core/dataset/load";
import { Dataset } from "../src/core/dataset/schema";
import { seededRandom, type SeededRandom } from "../src/core/walk/seeded-random";

const repo = resolve(import.meta.dirname, "..");
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every location in a JSON value: a parent and a key (the root has none). */
function locations(value: Json): Array<{ parent: Json[] | { [key: string]: Json }; key: string | number }> {
  const out: Array<{ parent: Json[] | { [key: string]: Json }; key: string | number }> = [];
  const stack: Json[] = [value];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (Array.isArray(node)) node.forEach((child, i) => (out.push({ parent: node, key: i }), stack.push(child)));
    else if (node && typeof node === "object") for (const [k, child] of Object.entries(node)) out.push({ parent: node, key: k }), stack.push(child);
  }
  return out;
}

const pick = <T>(random: SeededRandom, list: readonly T[]): T => list[Math.floor(random.next() * list.length)]!;
const int = (random: SeededRandom, max: number) => Math.floor(random.next() * max);

function unicodeText(random: SeededRandom): string {
  const pieces = ["\u0000", "\uFEFF", "\u202E", "\uD800", "\uDFFF", "😀", "e\u0301", "\u00A0", "\u2028", "ß", "中文", "\t", "\n", "\\", '"', "'", "../", "%00", "   "];
  return Array.from({ length: 1 + int(random, 12) }, () => (random.next() < 0.3 ? String.fromCodePoint(int(random, 0x10ffff)).replace(/[\uD800-\uDFFF]/, "?") : pick(random, pieces))).join("");
}

function otherType(random: SeededRandom, value: Json): Json {
  const options: Json[] = ["text", 0, -1, 1.5, true, false, null, {}, [], [1, "two"], { nested: { deeper: [] } }];
  const different = options.filter((o) => typeof o !== typeof value || Array.isArray(o) !== Array.isArray(value) || (o === null) !== (value === null));
  return structuredClone(pick(random, different));
}

/** Deep nesting is written into the text (a marker replaced after stringifying), so the test's own recursive JSON.stringify never meets it. */
const NEST = /"@@nest:(\d+):(\d)@@"/g;
function nestedText(depth: number, kind: number): string {
  const [open, close] = kind === 0 ? ["[", "]"] : kind === 1 ? ['{"k":', "}"] : ['[{"k":', "}]"];
  return open.repeat(depth) + "1" + close.repeat(depth);
}

/** One to three structural mutations, then maybe damage to the text. */
function mutate(random: SeededRandom, original: Json): string {
  const doc = structuredClone(original);
  for (let n = 1 + int(random, 3); n > 0; n--) {
    const spots = locations(doc);
    const { parent, key } = pick(random, spots);
    const at = (parent as Record<string | number, Json>)[key]!;
    const set = (value: Json) => ((parent as Record<string | number, Json>)[key] = value);
    switch (pick(random, ["swap", "delete", "nest", "huge", "unicode", "duplicate", "key", "number"] as const)) {
      case "swap":
        set(otherType(random, at));
        break;
      case "delete":
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete parent[key as string];
        break;
      case "nest":
        set(`@@nest:${pick(random, [3, 30, 70, 500, 5000, 100_000])}:${int(random, 3)}@@`);
        break;
      case "huge":
        set(pick(random, ["a", "word ", "ü", "😀"]).repeat(pick(random, [10_000, 300_000, 1_000_000])));
        break;
      case "unicode":
        set(unicodeText(random));
        break;
      case "duplicate":
        if (Array.isArray(parent)) parent.splice(key as number, 0, structuredClone(at));
        else set([at, structuredClone(at)]);
        break;
      case "key":
        if (at && typeof at === "object" && !Array.isArray(at)) at[pick(random, ["colour", "__proto__", "constructor", "prototype", "", " ", "id"])] = unicodeText(random);
        else set({ [unicodeText(random)]: at });
        break;
      case "number":
        set(pick(random, [1e308, -0, 2 ** 53 + 1, -1, 0.1 + 0.2, Number.MIN_VALUE, 129, 8193]));
        break;
    }
  }
  let text = JSON.stringify(doc, null, random.next() < 0.5 ? 1 : undefined).replace(NEST, (_m, depth: string, kind: string) => nestedText(Number(depth), Number(kind)));
  const damage = random.next();
  if (damage < 0.05) text = text.slice(0, int(random, text.length));
  else if (damage < 0.1) text = "\uFEFF" + text;
  else if (damage < 0.13) text = text.replace('"title":', '"title": "dup", "title":');
  else if (damage < 0.16) {
    const at = int(random, text.length);
    text = text.slice(0, at) + pick(random, ["{", "]", ",", '"', "\\", "\u0000"]) + text.slice(at);
  }
  return text;
}

function fuzz(name: string, iterations: number, everyValidate: number) {
  const original = JSON.parse(readFileSync(join(repo, "crashlab/data", name), "utf8")) as Json;
  return async () => {
    const random = seededRandom(8, `fuzz ${name}`);
    const dir = mkdtempSync(join(tmpdir(), "crashlab-fuzz-"));
    // Recording paths resolve against the dataset's folder: give it the bundled audio (through a link).
    symlinkSync(join(repo, "crashlab/data/audio"), join(dir, "audio"));
    const file = join(dir, "d.json");
    const outcomes = { loaded: 0, refused: 0 };
    for (let i = 0; i < iterations; i++) {
      const text = mutate(random, original);
      writeFileSync(file, text);
      try {
        const { dataset } = loadDataset(file);
        // A load is a real load: the result satisfies the schema.
        expect(Dataset.safeParse(dataset).success, `iteration ${i}`).toBe(true);
        outcomes.loaded++;
      } catch (error) {
        if (!(error instanceof DatasetError)) throw new Error(`iteration ${i}: ${(error as Error)?.stack ?? String(error)}\n${text.slice(0, 400)}`);
        expect(error.message).toMatch(/^Invalid dataset /);
        outcomes.refused++;
      }
      if (i % everyValidate === 0) {
        let stdout = "";
        let stderr = "";
        const code = await main(["validate", file], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: dir, alpha: alpha as Record<string, unknown>, env: {} });
        expect([0, 2], `iteration ${i}: ${stderr}`).toContain(code);
        if (code === 2) {
          for (const line of stderr.trimEnd().split("\n")) expect(line).toMatch(/^crashlab: (Invalid dataset|Recording ")/);
          expect(stderr).not.toMatch(/\n\s+at /);
        } else expect(stdout).toContain("valid");
      }
    }
    // Neither outcome may be all there is, or the fuzz would test nothing.
    expect(outcomes.loaded).toBeGreaterThan(iterations / 20);
    expect(outcomes.refused).toBeGreaterThan(iterations / 5);
  };
}

describe("fuzzing the dataset loader and validate", () => {
  it("crawl.json: 300 seeded mutations, each a valid load or a DatasetError", fuzz("crawl.json", 300, 5), 120_000);
  it("walk.json (with its recordings): 100 seeded mutations, each a valid load or a DatasetError", fuzz("walk.json", 100, 4), 120_000);
});
