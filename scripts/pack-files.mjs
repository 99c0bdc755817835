/**
 * What `npm pack` and `pnpm pack` put in the tarball that differs from the repository:
 *
 * - README.md: both always pack the root README, and the repository's is written for contributors (the
 *   bundled restaurant evaluation, the tests, the benchmarks). PACKAGE-README.md, the README for package
 *   users, takes its place.
 * - package.json without the lifecycle scripts of this repository (prepare builds dist/ on `pnpm install`
 *   here; prepack and postpack run this file): in an installed package they would do nothing useful, and
 *   npm warns about a dependency that declares `prepare`. pnpm pack drops them by itself; npm pack does not.
 *
 *   node scripts/pack-files.mjs swap      # prepack
 *   node scripts/pack-files.mjs restore   # postpack
 *
 * The repository's files wait in .pack-saved/ meanwhile (a dot name: nothing packs it). A pack that died
 * between the two leaves them there: the next swap, or a restore by hand, puts them back first.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";

const SAVED = ".pack-saved";
const FILES = ["README.md", "package.json"];
const LIFECYCLE = ["prepare", "prepack", "postpack"];

function restore() {
  if (!existsSync(SAVED)) return;
  for (const file of FILES) if (existsSync(`${SAVED}/${file}`)) renameSync(`${SAVED}/${file}`, file);
  rmSync(SAVED, { recursive: true });
}

const mode = process.argv[2];
if (mode === "swap") {
  restore();
  mkdirSync(SAVED);
  for (const file of FILES) copyFileSync(file, `${SAVED}/${file}`);
  copyFileSync("PACKAGE-README.md", "README.md");
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  for (const script of LIFECYCLE) delete pkg.scripts[script];
  writeFileSync("package.json", JSON.stringify(pkg, null, 2) + "\n");
} else if (mode === "restore") {
  restore();
} else {
  console.error("usage: node scripts/pack-files.mjs swap|restore");
  process.exit(2);
}
