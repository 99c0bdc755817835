/** A world's randomness: seeded from the trial seed and id, so a repetition replays exactly. */

import type { WorldRandom } from "./types";

/** The engine's handle on a world's randomness; operations see it only as `WorldRandom`. */
export interface EngineRandom extends WorldRandom {
  /** Remember the current position (one mark at a time). */
  mark(): void;
  /** Go back to the mark, forgetting the ids drawn since: a write that is run again draws the same ids. */
  rewind(): void;
}

/**
 * The world's only source of randomness: sfc32 seeded from the trial seed and trial id, so a
 * repetition replays exactly and two trials of one run draw different ids.
 */
export function createWorldRandom(seed: number, trial: string): EngineRandom {
  const [a, b, c, d] = seedWords(`${seed}\u0000${trial}`);
  const state: Sfc32 = { a, b, c, d };
  // Discard the first outputs: sfc32 mixes its seed in over a few rounds.
  for (let i = 0; i < 15; i++) next32(state);

  const issued = new Set<string>();
  let marked: Sfc32 | undefined;
  let issuedSinceMark: string[] = [];
  // Methods that never use `this`, so `const { id } = random` keeps working.
  return {
    next(): number {
      return next32(state) / 4294967296;
    },
    id(prefix: string): string {
      if (issued.size >= 0xffffff) throw new Error("world random: six-hex-digit id space exhausted");
      // 24 bits: six hex digits. Redraw on the (rare) repeat so ids never repeat within a world.
      for (;;) {
        const id = `${prefix}-${(next32(state) >>> 8).toString(16).toUpperCase().padStart(6, "0")}`;
        if (!issued.has(id)) {
          issued.add(id);
          if (marked) issuedSinceMark.push(id);
          return id;
        }
      }
    },
    mark(): void {
      marked = { ...state };
      issuedSinceMark = [];
    },
    rewind(): void {
      if (!marked) throw new Error("world random: rewind without a mark");
      Object.assign(state, marked);
      for (const id of issuedSinceMark) issued.delete(id);
      marked = undefined;
      issuedSinceMark = [];
    },
  };
}

interface Sfc32 {
  a: number;
  b: number;
  c: number;
  d: number;
}

/** One sfc32 step. */
function next32(s: Sfc32): number {
  let { a, b, c, d } = s;
  a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
  const t = (a + b + d) | 0;
  d = (d + 1) | 0;
  a = b ^ (b >>> 9);
  b = (c + (c << 3)) | 0;
  c = (c << 21) | (c >>> 11);
  c = (c + t) | 0;
  s.a = a;
  s.b = b;
  s.c = c;
  s.d = d;
  return t >>> 0;
}

/** cyrb128: four well-mixed 32-bit words from a string. */
function seedWords(text: string): [number, number, number, number] {
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}
