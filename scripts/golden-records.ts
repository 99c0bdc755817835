/**
 * Compares the golden trial records (test/golden-records.ts) with what the code produces now, and with
 * `--write` stores the new digests. Run it when a change alters records on purpose, and read the list
 * of changed trials before committing the new fixture:
 *
 *   pnpm exec tsx scripts/golden-records.ts           # compare, exit 1 when something changed
 *   pnpm exec tsx scripts/golden-records.ts --write   # store the digests of the current behaviour
 */
import { existsSync } from "node:fs";
import { changedTrials, GOLDEN_FILE, goldenDigests, readGolden, writeGolden } from "../test/golden-records";

const write = process.argv.includes("--write");
const actual = await goldenDigests();
const expected = existsSync(GOLDEN_FILE) ? readGolden() : {};
const changed = changedTrials(expected, actual);
for (const line of changed) console.log(line);
console.log(`${Object.keys(actual).length} digests (record, media+evidence per trial), ${changed.length} changed`);
if (write) {
  writeGolden(actual);
  console.log(`wrote ${GOLDEN_FILE}`);
} else if (changed.length > 0) process.exitCode = 1;
