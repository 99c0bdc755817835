/**
 * `pnpm bench`: `pnpm bench compare <git-ref>` (bench/compare.ts) pits this tree against another commit in
 * paired whole runs; anything else runs the suites and whole-run timings of bench/suites.ts. The suites are
 * imported only when asked for, so a compare loads none of them. Never part of the tests.
 */
const [command, ...rest] = process.argv.slice(2);
if (command === "compare") {
  const { compare } = await import("./compare");
  process.exitCode = await compare(rest);
} else {
  await import("./suites");
}
export {};
