import { describe, expect, it } from "vitest";
import { english, memoize, parsed, parsedJson } from "../src/core/language/nlp";

/** Terms as readers see them: compromise's own term ids are new in every parse, so they are left out. */
const terms = (json: unknown[]) => JSON.parse(JSON.stringify(json, (key, value: unknown) => (key === "id" ? undefined : value))) as unknown[];

/** What compromise itself gives for `text`: a fresh parse, lemmas computed, terms with offsets. */
function fresh(text: string): unknown[] {
  const doc = english(text);
  doc.compute("root");
  return terms(doc.json({ offset: true }) as unknown[]);
}

describe("language layer: one shared parse per text", () => {
  const lines = [
    "You're booked: a table for two under Maya on August 14 at 7 p.m. Your reservation number is R-E58827.",
    "You're booked: a table for two under Maya on August 14 at 7 p.m. Your reservation number is R-0B6153.",
    "Which reservation would you like to cancel: R-2040 or R-2041?",
    "I'm sorry, I can't cancel reservation R-1001, it isn't yours.",
    "Please cancel my reservations R-1001 and R-1002 today.",
    "Our phone number is 555-0142; call before 10 p.m.",
  ];

  it("reads a text whose record ids are one noun each exactly as compromise reads it, the ids' characters included", () => {
    for (const line of lines) expect(terms(parsedJson(line)), line).toEqual(fresh(line));
  });

  it("keeps each text's own ids when two texts differ only in their ids", () => {
    const [a, b] = [lines[0]!, lines[1]!];
    const last = (text: string) => (parsedJson(text) as Array<{ terms: Array<{ text: string; normal: string }> }>).at(-1)!.terms.at(-1)!;
    expect(last(a)).toMatchObject({ text: "R-E58827", normal: "r-e58827" });
    expect(last(b)).toMatchObject({ text: "R-0B6153", normal: "r-0b6153" });
    expect(parsed(a).text()).toBe(a);
    expect(parsed(b).text()).toBe(b);
    // The shared parse of the first is not changed by reading the second.
    expect(terms(parsedJson(a))).toEqual(fresh(a));
  });

  it("reads every record id as one noun, so no id's characters change how its sentence is read", () => {
    const tags = (text: string) => (parsedJson(text) as Array<{ terms: Array<{ text: string; tags: string[] }> }>).flatMap((s) => s.terms.map((t) => [t.text.replace(/^[A-Za-z]{1,3}-\w+$/, "ID"), t.tags]));
    // compromise alone reads "R-0E00E0" as a number and splits "AB-77X9" in two.
    for (const sentence of ["Your reservation number is ID.", "I can't cancel ID, it isn't yours.", "Which one: ID or ID?"]) {
      const readings = ["R-E58827", "R-0E00E0", "AB-77X9", "r-1001", "XYZ-9"].map((id) => tags(sentence.replaceAll("ID", id)));
      for (const r of readings) expect(r, sentence).toEqual(readings[0]);
    }
    expect((parsedJson("Cancel AB-77X9 now.") as Array<{ terms: Array<{ text: string; tags: string[] }> }>)[0]!.terms.map((t) => t.text)).toEqual(["Cancel", "AB-77X9", "now"]);
  });

  it("memoize reads each text once and starts over past its bound", () => {
    const seen: string[] = [];
    const read = memoize((text: string) => {
      seen.push(text);
      return text.length;
    }, 2);
    expect([read("ab"), read("ab"), read("abc")]).toEqual([2, 2, 3]);
    expect(seen).toEqual(["ab", "abc"]);
    read("abcd"); // the bound is reached: the memory starts over
    read("ab");
    expect(seen).toEqual(["ab", "abc", "abcd", "ab"]);
  });
});
