/**
 * The profiled pass of `pnpm bench run` names each frame of the built CLI by its source file: a frame in a
 * bundle with a source map beside it maps back to the file the code came from; other frames keep their url.
 */
import { buildSync } from "esbuild";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { frameSource } from "../bench/whole-run.bench";

const root = mkdtempSync(join(tmpdir(), "crashlab-bench-profile-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Two source files bundled into dist/out.js with its map, as tsup builds dist/. */
function bundle(): { out: string; first: string; second: string } {
  mkdirSync(join(root, "src", "core", "language"), { recursive: true });
  mkdirSync(join(root, "src", "core", "live"), { recursive: true });
  const first = join(root, "src", "core", "language", "words.ts");
  const second = join(root, "src", "core", "live", "frames.ts");
  writeFileSync(first, "export function countWords(text: string): number {\n  return text.split(' ').length;\n}\n");
  writeFileSync(second, "import { countWords } from '../language/words';\nexport function frameOf(text: string): string {\n  return `${countWords(text)}:${text}`;\n}\n");
  const out = join(root, "dist", "out.js");
  buildSync({ entryPoints: [second], bundle: true, sourcemap: true, outfile: out, format: "esm", platform: "node", logLevel: "silent" });
  return { out, first, second };
}

/** Where `needle` starts in `file`, zero-based as a CPU profile's call frames give it. */
function position(file: string, needle: string): { lineNumber: number; columnNumber: number } {
  const lines = readFileSync(file, "utf8").split("\n");
  const lineNumber = lines.findIndex((l) => l.includes(needle));
  expect(lineNumber).toBeGreaterThanOrEqual(0);
  return { lineNumber, columnNumber: lines[lineNumber]!.indexOf(needle) };
}

describe("a profile frame's source file", () => {
  const { out, first, second } = bundle();
  const url = pathToFileURL(out).href;

  it("is the file the bundle's map names for the frame's position", () => {
    expect(frameSource({ functionName: "countWords", url, ...position(out, "return text.split") })).toBe(pathToFileURL(first).href);
    expect(frameSource({ functionName: "frameOf", url, ...position(out, "return `${countWords") })).toBe(pathToFileURL(second).href);
  });

  it("is the frame's own url without a map, outside a file, or in a node: module", () => {
    const bare = join(root, "dist", "bare.js");
    writeFileSync(bare, "export const x = 1;\n");
    expect(frameSource({ functionName: "x", url: pathToFileURL(bare).href, lineNumber: 0, columnNumber: 0 })).toBe(pathToFileURL(bare).href);
    expect(frameSource({ functionName: "writeBuffer", url: "", lineNumber: -1, columnNumber: -1 })).toBe("");
    expect(frameSource({ functionName: "emit", url: "node:events", lineNumber: 470, columnNumber: 2 })).toBe("node:events");
  });
});
