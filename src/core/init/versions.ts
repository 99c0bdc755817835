/**
 * What a scaffolded package pins (exact versions, so a fresh install types and runs as ours does): the
 * zod this crashlab is built with (the package shares it through `z` from `crashlab/alpha`), and the
 * TypeScript and Node types we type-check with. A test keeps them in step with package.json.
 */
export const SCAFFOLD_PINS = {
  zod: "4.6.7",
  typescript: "5.9.3",
  "@types/node": "20.19.43",
} as const;
