/**
 * Writes the table of docs/architecture.md's "Each folder's job" from each folder's README.md (its job and
 * its `May import:` line, read by test/folder-rules.ts): run it after changing a folder's README, and read
 * the diff.
 *
 *   pnpm tsx scripts/architecture-doc.ts
 */
import { writeFoldersTable } from "../test/folder-rules";

writeFoldersTable();
console.log("wrote the folders table of docs/architecture.md");
