/** Reading a source file's imports, for the tests that hold the import rules. */

/** Every module specifier in a file: static imports/exports, dynamic import(), require(). */
export function importsOf(source: string): string[] {
  const specs: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'"`;]*?\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g];
  for (const p of patterns) for (const m of source.matchAll(p)) specs.push(m[1]!);
  return specs;
}
