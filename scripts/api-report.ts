/**
 * Writes api/alpha.api.md, the API report of `crashlab/alpha` (test/api-report.ts builds it): run it when
 * a change alters the public surface on purpose, and read the diff before committing it.
 *
 *   pnpm api:report
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import { API_REPORT_FILE, apiEntries, renderApiReport, ROOT } from "../test/api-report";

const entries = apiEntries();
mkdirSync(dirname(API_REPORT_FILE), { recursive: true });
writeFileSync(API_REPORT_FILE, renderApiReport(entries));
console.log(`wrote ${relative(ROOT, API_REPORT_FILE)}: ${entries.length} exported names`);
