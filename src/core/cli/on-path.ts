/** Looking an executable up on PATH (audio players, browser openers). */

import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** The executable's full path on PATH, or null. */
export function onPath(name: string, path: string): string | null {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return null;
}
