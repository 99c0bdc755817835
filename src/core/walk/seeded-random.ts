/**
 * Seeded randomness for acoustic conditions (docs/audio-and-metrics.md: deterministic for a given seed). Each effect draws
 * from its own named stream, so changing one effect's parameters never shifts another effect's
 * random numbers: the packet-loss pattern of seed 41 stays the same whatever the noise level.
 */
import { createHash } from "node:crypto";

export interface SeededRandom {
  /** Uniform in [0, 1). */
  next(): number;
}

/** sfc32 seeded from sha256(seed, stream). */
export function seededRandom(seed: number, stream: string): SeededRandom {
  const digest = createHash("sha256").update(`${seed}\u0000${stream}`).digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  const next32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // sfc32 mixes its seed in over its first outputs.
  for (let i = 0; i < 12; i++) next32();
  return { next: () => next32() / 4294967296 };
}

/** A 32-bit seed for one output, derived from the run seed and a name (a scenario id). */
export function deriveSeed(seed: number, name: string): number {
  return createHash("sha256").update(`${seed}\u0000${name}`).digest().readUInt32LE(0);
}
