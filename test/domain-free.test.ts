/**
 * The engine speaks no domain: the code of the folders that read speech and grade it holds no restaurant
 * word. A domain's words live in its package's vocabulary (docs/worlds.md "Vocabulary"); comments may
 * still use a restaurant for an example.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const FOLDERS = ["language", "verify", "caller", "timeline", "judge", "trial"].map((f) => join(ROOT, "src/core", f));
/** Whole words, any case: "Table", "RESERVATION_ID" and "party-size" count; "PriceTable" and "tables_per_slot" do not. */
const RESTAURANT_WORDS = new Set(["table", "reservation", "booking", "guests", "diners", "patio", "party"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return /\.tsx?$/.test(name) ? [path] : [];
    });
}

/** Each restaurant word in the code of a source text (identifiers, strings, templates, regular expressions; comments aside), with its line. */
export function restaurantWords(source: string, fileName = "source.ts"): Array<{ line: number; word: string; text: string }> {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: Array<{ line: number; word: string; text: string }> = [];
  const visit = (node: ts.Node): void => {
    let text: string | null = null;
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) text = node.text;
    else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) text = node.text;
    else if (ts.isRegularExpressionLiteral(node)) text = node.text;
    if (text !== null) {
      for (const word of text.split(/[^A-Za-z]+/)) {
        if (RESTAURANT_WORDS.has(word.toLowerCase())) found.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, word, text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("a domain-free engine", () => {
  it("finds a restaurant word in code, whatever its form, and none in comments", () => {
    const code = [
      "// a comment may say table, reservation or party",
      "/** and a doc comment: guests, diners, patio, booking */",
      'const words = ["Table", `party of ${n}`, /patio|bar/];',
      "const RESERVATION_ID = lookup('booking');",
      "function seat(guests: number) { return `${guests} diners`; }",
      "const prices: PriceTable = {}; const tables_per_slot = 4;",
    ].join("\n");
    expect(restaurantWords(code).map((w) => `${w.line}:${w.word}`)).toEqual(["3:Table", "3:party", "3:patio", "4:RESERVATION", "4:booking", "5:guests", "5:guests", "5:diners"]);
    expect(restaurantWords("// table\n/* reservation */\nconst x = 1;")).toEqual([]);
  });

  it("no restaurant word in the code of src/core/language, verify, caller, timeline, judge and trial", () => {
    const files = FOLDERS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(40);
    const hits = files.flatMap((path) => restaurantWords(readFileSync(path, "utf8"), path).map((w) => `${relative(ROOT, path)}:${w.line}: ${w.word} (in ${JSON.stringify(w.text.length > 60 ? `${w.text.slice(0, 59)}…` : w.text)})`));
    expect(hits).toEqual([]);
  });
});
