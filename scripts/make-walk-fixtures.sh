#!/usr/bin/env bash
# Regenerates the bundled WALK dataset from CRAWL's scenarios: crashlab/data/walk.json and
# crashlab/data/audio/*.wav. Five clean baselines (one per kind of request: a corrected booking, an
# availability question, a cancellation, a clarification, an information request), then one
# conditioned recording for every CRAWL scenario, cycling the seven §8 presets in order; the clean
# baselines are reused for their scenarios' conditioned recordings rather than synthesized again.
# Offline (espeak-ng) and deterministic: running it again writes identical bytes.
set -euo pipefail
cd "$(dirname "$0")/.."

crashlab() { pnpm exec tsx src/cli.ts "$@"; }

pnpm exec tsx scripts/make-background-speaker.ts

crashlab generate-audio --data crashlab/data/crawl.json --output-data crashlab/data/walk.json \
  --condition clean --seed 41 --force \
  --example harbor_003 --example harbor_009 --example harbor_013 --example harbor_017 --example harbor_024

crashlab generate-audio --data crashlab/data/crawl.json --output-data crashlab/data/walk.json \
  --vary-conditions --append --seed 41 --force
