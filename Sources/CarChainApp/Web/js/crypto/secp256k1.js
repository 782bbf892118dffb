// secp256k1 for signing in the page, written for it with BigInt: public keys and addresses, ECDSA signatures with
// RFC 6979 deterministic nonces (HMAC-SHA-256 through WebCrypto), low s (EIP-2) and the recovery id, and
// EIP-191 personal messages. The same key and hash give the same signature as libsecp256k1 (the Swift side's), which
// the tests check byte for byte (tools/app_tests/test_browser_crypto.py).

import { keccak256 } from "./keccak.js";

const P = 2n ** 256n - 2n ** 32n - 977n;
export const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const G = {
  x: 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n,
  y: 0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n,
};

const mod = (a, m = P) => {
  const r = a % m;
  return r >= 0n ? r : r + m;
};

/** a⁻¹ mod m (extended Euclid; a is never 0 here). */
function invert(a, m = P) {
  let [r0, r1] = [mod(a, m), m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n) throw new Error("not invertible");
  return mod(s0, m);
}

// Points in Jacobian coordinates (X, Y, Z) ↔ (X/Z², Y/Z³); Z = 0 is the point at infinity.
const INFINITY = { x: 0n, y: 1n, z: 0n };

function double(p) {
  if (p.z === 0n || p.y === 0n) return INFINITY;
  const ySquared = mod(p.y * p.y);
  const s = mod(4n * p.x * ySquared);
  const m = mod(3n * p.x * p.x);
  const x = mod(m * m - 2n * s);
  return { x, y: mod(m * (s - x) - 8n * ySquared * ySquared), z: mod(2n * p.y * p.z) };
}

function add(p, q) {
  if (p.z === 0n) return q;
  if (q.z === 0n) return p;
  const pz2 = mod(p.z * p.z);
  const qz2 = mod(q.z * q.z);
  const u1 = mod(p.x * qz2);
  const u2 = mod(q.x * pz2);
  const s1 = mod(p.y * qz2 * q.z);
  const s2 = mod(q.y * pz2 * p.z);
  if (u1 === u2) return s1 === s2 ? double(p) : INFINITY;
  const h = mod(u2 - u1);
  const r = mod(s2 - s1);
  const h2 = mod(h * h);
  const h3 = mod(h2 * h);
  const x = mod(r * r - h3 - 2n * u1 * h2);
  return { x, y: mod(r * (u1 * h2 - x) - s1 * h3), z: mod(h * p.z * q.z) };
}

function affine(p) {
  if (p.z === 0n) throw new Error("point at infinity");
  const zi = invert(p.z);
  const zi2 = mod(zi * zi);
  return { x: mod(p.x * zi2), y: mod(p.y * zi2 * zi) };
}

/** k·G, by a Montgomery ladder over all 256 bits (the same steps for every scalar of that length). */
function multiplyG(k) {
  let r0 = INFINITY;
  let r1 = { x: G.x, y: G.y, z: 1n };
  for (let bit = 255n; bit >= 0n; bit--) {
    if ((k >> bit) & 1n) {
      r0 = add(r0, r1);
      r1 = double(r1);
    } else {
      r1 = add(r0, r1);
      r0 = double(r0);
    }
  }
  return affine(r0);
}

export function bytesToBigInt(bytes) {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

export function bigIntToBytes(value, length = 32) {
  const out = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(value & 0xffn);
    value >>= 8n;
  }
  return out;
}

export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function toHex(bytes) {
  return "0x" + Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function fromHex(text) {
  const hex = text.startsWith("0x") || text.startsWith("0X") ? text.slice(2) : text;
  if (hex.length % 2 || /[^0-9a-fA-F]/.test(hex)) throw new Error("not hex");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Whether 32 bytes are a valid private key (1 ≤ d < n). */
export function isPrivateKey(bytes) {
  if (bytes.length !== 32) return false;
  const d = bytesToBigInt(bytes);
  return d > 0n && d < N;
}

/** A new private key from the browser's CSPRNG. */
export function randomPrivateKey() {
  for (let attempt = 0; attempt < 8; attempt++) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    if (isPrivateKey(bytes)) return bytes;
  }
  throw new Error("the browser's random generator gave no usable key");
}

/** The uncompressed public key (64 bytes, X ‖ Y) of a private key. */
export function publicKey(privateKey) {
  const point = multiplyG(bytesToBigInt(privateKey));
  return concat(bigIntToBytes(point.x), bigIntToBytes(point.y));
}

/** The EIP-55 checksummed address of a private key. */
export function address(privateKey) {
  return checksum(toHex(keccak256(publicKey(privateKey)).slice(12)));
}

/** EIP-55: a lowercase hex address with its checksum capitals. */
export function checksum(hexAddress) {
  const lower = hexAddress.toLowerCase().replace(/^0x/, "");
  const hash = keccak256(lower);
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 ? 0 : 4)) & 0xf;
    out += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return out;
}

async function hmac(key, ...parts) {
  const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, concat(...parts)));
}

/**
 * Signs a 32-byte hash: {r, s, recovery} (bigints and 0/1), s low. The nonce is RFC 6979's (HMAC-SHA-256), as
 * libsecp256k1 derives it without extra entropy.
 */
export async function sign(hash, privateKey) {
  if (hash.length !== 32) throw new Error("sign a 32-byte hash");
  if (!isPrivateKey(privateKey)) throw new Error("not a secp256k1 private key");
  const d = bytesToBigInt(privateKey);
  const h = mod(bytesToBigInt(hash), N);
  const x = bigIntToBytes(d);
  const h1 = bigIntToBytes(h);
  let v = new Uint8Array(32).fill(1);
  let k = new Uint8Array(32);
  k = await hmac(k, v, Uint8Array.of(0), x, h1);
  v = await hmac(k, v);
  k = await hmac(k, v, Uint8Array.of(1), x, h1);
  v = await hmac(k, v);
  // Bounded: a candidate fails with probability about 2^-128.
  for (let attempt = 0; attempt < 16; attempt++) {
    v = await hmac(k, v);
    const nonce = bytesToBigInt(v);
    if (nonce > 0n && nonce < N) {
      const point = multiplyG(nonce);
      const r = mod(point.x, N);
      if (r !== 0n) {
        let s = mod(invert(nonce, N) * (h + r * d), N);
        if (s !== 0n) {
          let recovery = (point.y & 1n ? 1 : 0) | (point.x >= N ? 2 : 0);
          if (s > N / 2n) {
            s = N - s;
            recovery ^= 1;
          }
          return { r, s, recovery };
        }
      }
    }
    k = await hmac(k, v, Uint8Array.of(0));
    v = await hmac(k, v);
  }
  throw new Error("no signature nonce found");
}

/** EIP-191's hash of a personal message (`personal_sign`). */
export function personalMessageHash(message) {
  const bytes = typeof message === "string" ? new TextEncoder().encode(message) : message;
  return keccak256(concat(new TextEncoder().encode(`\x19Ethereum Signed Message:\n${bytes.length}`), bytes));
}

/** `personal_sign`: r ‖ s ‖ v (v 27 or 28) as hex, as wallets answer it. */
export async function signPersonalMessage(message, privateKey) {
  const { r, s, recovery } = await sign(personalMessageHash(message), privateKey);
  return toHex(concat(bigIntToBytes(r), bigIntToBytes(s), Uint8Array.of(27 + recovery)));
}
