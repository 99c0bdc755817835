/**
 * npm and pnpm always pack the root README.md, and the repository's README is written for contributors
 * (the bundled restaurant evaluation, the tests, the benchmarks). So `prepack` puts PACKAGE-README.md, the
 * README for package users, in its place, and `postpack` puts the repository's back.
 *
 *   node scripts/pack-readme.mjs swap      # prepack
 *   node scripts/pack-readme.mjs restore   # postpack
 *
 * The repository's README waits in .pack-readme-repository.md meanwhile (a dot name, so no README.*
 * pattern packs it). A pack that died between the two leaves it there: the next swap, or a restore by
 * hand, puts it back first.
 */
import { copyFileSync, existsSync, renameSync } from "node:fs";

const SAVED = ".pack-readme-repository.md";
const restore = () => existsSync(SAVED) && renameSync(SAVED, "README.md");

const mode = process.argv[2];
if (mode === "swap") {
  restore();
  renameSync("README.md", SAVED);
  copyFileSync("PACKAGE-README.md", "README.md");
} else if (mode === "restore") {
  restore();
} else {
  console.error("usage: node scripts/pack-readme.mjs swap|restore");
  process.exit(2);
}
