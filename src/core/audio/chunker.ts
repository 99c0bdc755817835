/**
 * Cutting caller audio into transport chunks (docs/audio-and-metrics.md): fixed-length PCM16 chunks, 960 bytes for 20 ms at
 * 24 kHz mono, with only the final chunk zero-padded up to full length.
 */

export interface ChunkShape {
  /** Default 24,000 Hz, the transport rate. */
  sampleRate?: number;
  /** Default 20 ms. */
  chunkMs?: number;
  /** Default 1 (mono). */
  channels?: number;
}

/** Bytes in one chunk; throws when the chunk would not hold a whole number of samples. */
export function chunkByteLength({ sampleRate = 24_000, chunkMs = 20, channels = 1 }: ChunkShape = {}): number {
  const samples = (sampleRate * chunkMs) / 1000;
  if (!Number.isInteger(samples) || samples <= 0) {
    throw new RangeError(`a ${chunkMs} ms chunk at ${sampleRate} Hz is ${samples} samples; choose a chunk length that holds whole samples`);
  }
  return samples * 2 * channels;
}

/** Chunking. Every chunk is a fresh copy; empty audio gives no chunks (docs/audio-and-metrics.md). */
export function chunkPcm(bytes: Uint8Array, shape: ChunkShape = {}): Uint8Array[] {
  const size = chunkByteLength(shape);
  const frameBytes = 2 * (shape.channels ?? 1);
  if (bytes.byteLength % frameBytes !== 0) {
    throw new RangeError(`PCM16 audio must be whole frames of ${frameBytes} bytes, got ${bytes.byteLength} bytes`);
  }
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.byteLength; at += size) {
    if (at + size <= bytes.byteLength) {
      chunks.push(bytes.slice(at, at + size));
    } else {
      const last = new Uint8Array(size); // zero-filled tail
      last.set(bytes.subarray(at));
      chunks.push(last);
    }
  }
  return chunks;
}

/** One chunk of digital silence, for keeping the microphone open after the caller finishes (docs/audio-and-metrics.md). */
export function silenceChunk(shape: ChunkShape = {}): Uint8Array {
  return new Uint8Array(chunkByteLength(shape));
}
