/** Finding a local audio player for `--listen`, which plays WAV files aloud. */

import { spawnSync } from "node:child_process";
import { onPath } from "./on-path";

/** Players tried in order, with the arguments that play one WAV file and exit. */
const PLAYERS: ReadonlyArray<{ name: string; args: (file: string) => string[] }> = [
  { name: "aplay", args: (f) => ["-q", f] },
  { name: "paplay", args: (f) => [f] },
  { name: "pw-play", args: (f) => [f] },
  { name: "afplay", args: (f) => [f] },
  { name: "play", args: (f) => ["-q", f] },
  { name: "ffplay", args: (f) => ["-nodisp", "-autoexit", "-loglevel", "quiet", f] },
];

export interface Player {
  name: string;
  play(file: string): { ok: boolean; message?: string };
}


/** The first audio player available (`--listen`), or null with the list of what was looked for. */
export function findPlayer(env: Record<string, string | undefined>): Player | { missing: string[] } {
  const path = env.PATH ?? "";
  const found = PLAYERS.map((p) => ({ ...p, file: onPath(p.name, path) })).find((p) => p.file !== null);
  if (!found) return { missing: PLAYERS.map((p) => p.name) };
  return {
    name: found.name,
    play(file) {
      const result = spawnSync(found.file!, found.args(file), { stdio: "ignore" });
      if (result.error) return { ok: false, message: result.error.message };
      return result.status === 0 ? { ok: true } : { ok: false, message: `${found.name} exited with ${result.status}` };
    },
  };
}
