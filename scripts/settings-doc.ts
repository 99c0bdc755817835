/**
 * Writes the table of every run setting into docs/configuration.md (test/settings-doc.ts builds it from
 * the settings' declarations): run it after adding or changing a setting, and read the diff.
 *
 *   pnpm tsx scripts/settings-doc.ts
 */
import { writeSettingsTable } from "../test/settings-doc";

writeSettingsTable();
console.log("wrote the settings table of docs/configuration.md");
