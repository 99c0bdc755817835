/** Seeded choices for the variant operators: a choice depends only on the seed and what it is about, never on call order. */

/** FNV-1a over a string. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** One of `n` (0 … n-1), chosen by the seed and a description of the choice. */
export function choose(seed: number, about: string, n: number): number {
  return n <= 0 ? 0 : hash(`${seed}|${about}`) % n;
}

/** `items` in an order fixed by the seed (the same seed, the same order). */
export function shuffled<T>(items: readonly T[], seed: number, about: string): T[] {
  return items
    .map((item, i) => ({ item, key: hash(`${seed}|${about}|${i}`) }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.item);
}
