/**
 * Writes the bundled second speaker of the background_speech and realistic conditions (§8) to
 * crashlab/data/audio/background-speaker.wav: a few neutral sentences by espeak-ng in a voice no
 * default caller uses (src/core/walk/condition-assets.ts holds the text and voice). Deterministic:
 * every run writes the same bytes, and a test checks the committed file against a fresh synthesis.
 *
 *   pnpm tsx scripts/make-background-speaker.ts
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLED_BACKGROUND_SPEAKER_PATH, bundledBackgroundSpeakerWav } from "../src/core/walk/index";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const path = join(root, BUNDLED_BACKGROUND_SPEAKER_PATH);
const wav = await bundledBackgroundSpeakerWav();
mkdirSync(dirname(path), { recursive: true });
writeFileSync(path, wav);
console.log(`${BUNDLED_BACKGROUND_SPEAKER_PATH}: ${wav.byteLength} bytes, ${((wav.byteLength - 44) / 48_000).toFixed(2)} s`);
