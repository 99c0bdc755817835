/**
 * One-pole RC filters (the discrete forms of an RC high-pass and low-pass), in place on float
 * samples. telephony band is two of each; the realistic preset's cough and off-axis speech use
 * them to shape their sound.
 */

/** y[n] = a·(y[n−1] + x[n] − x[n−1]), a = RC / (RC + dt). */
export function highPassInPlace(x: Float64Array, cutoffHz: number, sampleRate: number): void {
  const rc = 1 / (2 * Math.PI * cutoffHz);
  const dt = 1 / sampleRate;
  const a = rc / (rc + dt);
  let previousIn = 0;
  let previousOut = 0;
  for (let i = 0; i < x.length; i++) {
    const input = x[i]!;
    previousOut = a * (previousOut + input - previousIn);
    previousIn = input;
    x[i] = previousOut;
  }
}

/** y[n] = y[n−1] + α·(x[n] − y[n−1]), α = dt / (RC + dt). */
export function lowPassInPlace(x: Float64Array, cutoffHz: number, sampleRate: number): void {
  const rc = 1 / (2 * Math.PI * cutoffHz);
  const dt = 1 / sampleRate;
  const alpha = dt / (rc + dt);
  let y = 0;
  for (let i = 0; i < x.length; i++) {
    y += alpha * (x[i]! - y);
    x[i] = y;
  }
}
