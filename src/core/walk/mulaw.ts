/**
 * G.711 μ-law companding (ITU-T G.711, the classic 16-bit-input formulation with bias 0x84 and clip
 * 32,635), used by the telephony condition (docs/audio-and-metrics.md) for its encode/decode round trip.
 */

const BIAS = 0x84;
const CLIP = 32_635;

/** One μ-law byte for a 16-bit linear sample. */
export function mulawEncode(sample: number): number {
  let pcm = Math.max(-32_768, Math.min(32_767, Math.round(sample)));
  const sign = pcm < 0 ? 0x80 : 0;
  if (sign) pcm = -pcm;
  if (pcm > CLIP) pcm = CLIP;
  pcm += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (pcm & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (pcm >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** The 16-bit linear value a μ-law byte stands for. */
export function mulawDecode(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = ((((u & 0x0f) << 3) + BIAS) << exponent) - BIAS;
  return u & 0x80 ? 0 - magnitude : magnitude; // 0 − 0 is +0: the code for −0 decodes to plain 0
}

let roundTrip: Int16Array | undefined;

/** decode(encode(x)) for every int16 x, indexed by x + 32768: the telephony hot loop is one lookup. */
export function mulawRoundTripTable(): Int16Array {
  if (!roundTrip) {
    roundTrip = new Int16Array(65_536);
    for (let x = -32_768; x <= 32_767; x++) roundTrip[x + 32_768] = mulawDecode(mulawEncode(x));
  }
  return roundTrip;
}
