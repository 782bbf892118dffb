// Keccak-256 (the original Keccak padding Ethereum uses, not SHA3-256's), written for this page: 64-bit lanes as
// pairs of 32-bit halves, the 24 rounds of Keccak-f[1600], rate 136 bytes. Checked against the Swift implementation's
// vectors (tools/app_tests/test_browser_crypto.py).

/** The round constants, high and low halves. */
const RC = [
  0x00000000, 0x00000001, 0x00000000, 0x00008082, 0x80000000, 0x0000808a, 0x80000000, 0x80008000,
  0x00000000, 0x0000808b, 0x00000000, 0x80000001, 0x80000000, 0x80008081, 0x80000000, 0x00008009,
  0x00000000, 0x0000008a, 0x00000000, 0x00000088, 0x00000000, 0x80008009, 0x00000000, 0x8000000a,
  0x00000000, 0x8000808b, 0x80000000, 0x0000008b, 0x80000000, 0x00008089, 0x80000000, 0x00008003,
  0x80000000, 0x00008002, 0x80000000, 0x00000080, 0x00000000, 0x0000800a, 0x80000000, 0x8000000a,
  0x80000000, 0x80008081, 0x80000000, 0x00008080, 0x00000000, 0x80000001, 0x80000000, 0x80008008,
];
/** Rotation offsets, by lane index x + 5y. */
const ROTATION = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];
/** Where the π step moves lane x + 5y: to y + 5((2x + 3y) mod 5). */
const TARGET = ROTATION.map((_, i) => {
  const x = i % 5;
  const y = (i - x) / 5;
  return y + 5 * ((2 * x + 3 * y) % 5);
});
const RATE = 136;

/** Keccak-f[1600] on `hi`/`lo` (25 lanes each). */
function permute(hi, lo) {
  const cHi = new Uint32Array(5);
  const cLo = new Uint32Array(5);
  const bHi = new Uint32Array(25);
  const bLo = new Uint32Array(25);
  for (let round = 0; round < 24; round++) {
    // θ
    for (let x = 0; x < 5; x++) {
      cHi[x] = hi[x] ^ hi[x + 5] ^ hi[x + 10] ^ hi[x + 15] ^ hi[x + 20];
      cLo[x] = lo[x] ^ lo[x + 5] ^ lo[x + 10] ^ lo[x + 15] ^ lo[x + 20];
    }
    for (let x = 0; x < 5; x++) {
      const nHi = cHi[(x + 1) % 5];
      const nLo = cLo[(x + 1) % 5];
      const dHi = cHi[(x + 4) % 5] ^ ((nHi << 1) | (nLo >>> 31));
      const dLo = cLo[(x + 4) % 5] ^ ((nLo << 1) | (nHi >>> 31));
      for (let y = 0; y < 25; y += 5) {
        hi[x + y] ^= dHi;
        lo[x + y] ^= dLo;
      }
    }
    // ρ and π
    for (let i = 0; i < 25; i++) {
      const n = ROTATION[i];
      const h = hi[i];
      const l = lo[i];
      let rh;
      let rl;
      if (n === 0) {
        rh = h;
        rl = l;
      } else if (n < 32) {
        rh = (h << n) | (l >>> (32 - n));
        rl = (l << n) | (h >>> (32 - n));
      } else if (n === 32) {
        rh = l;
        rl = h;
      } else {
        const m = n - 32;
        rh = (l << m) | (h >>> (32 - m));
        rl = (h << m) | (l >>> (32 - m));
      }
      bHi[TARGET[i]] = rh;
      bLo[TARGET[i]] = rl;
    }
    // χ
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        hi[x + y] = bHi[x + y] ^ (~bHi[((x + 1) % 5) + y] & bHi[((x + 2) % 5) + y]);
        lo[x + y] = bLo[x + y] ^ (~bLo[((x + 1) % 5) + y] & bLo[((x + 2) % 5) + y]);
      }
    }
    // ι
    hi[0] ^= RC[2 * round];
    lo[0] ^= RC[2 * round + 1];
  }
}

/** Keccak-256 of `data` (a Uint8Array, an array of bytes or a string, UTF-8 encoded) as a 32-byte Uint8Array. */
export function keccak256(data) {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : Uint8Array.from(data);
  const hi = new Uint32Array(25);
  const lo = new Uint32Array(25);
  // The message and its padding (0x01 … 0x80), in whole blocks.
  const blocks = Math.floor(bytes.length / RATE) + 1;
  const padded = new Uint8Array(blocks * RATE);
  padded.set(bytes);
  padded[bytes.length] ^= 0x01;
  padded[padded.length - 1] ^= 0x80;
  for (let offset = 0; offset < padded.length; offset += RATE) {
    for (let lane = 0; lane < RATE / 8; lane++) {
      const at = offset + lane * 8;
      lo[lane] ^= padded[at] | (padded[at + 1] << 8) | (padded[at + 2] << 16) | (padded[at + 3] << 24);
      hi[lane] ^= padded[at + 4] | (padded[at + 5] << 8) | (padded[at + 6] << 16) | (padded[at + 7] << 24);
    }
    permute(hi, lo);
  }
  const out = new Uint8Array(32);
  for (let lane = 0; lane < 4; lane++) {
    for (let byte = 0; byte < 4; byte++) {
      out[lane * 8 + byte] = (lo[lane] >>> (8 * byte)) & 0xff;
      out[lane * 8 + 4 + byte] = (hi[lane] >>> (8 * byte)) & 0xff;
    }
  }
  return out;
}
