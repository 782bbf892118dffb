// The account key the browser keeps when the server holds none (a real network): encrypted with the wallet passphrase
// by WebCrypto — PBKDF2-SHA-256 (600,000 iterations, OWASP's figure) derives an AES-256-GCM key, the address is bound as
// additional data — and stored in localStorage under the signed-in user's uid. The passphrase and the key never leave
// the page; each action unlocks the key again and forgets it after signing. WebCrypto needs a secure context
// (https, or http on localhost / 127.0.0.1).

import { address, fromHex, isPrivateKey, randomPrivateKey } from "./secp256k1.js";

const PREFIX = "carchain.keystore.";
const ITERATIONS = 600000;

/** Thrown when the passphrase does not open the stored key. */
export class WrongPassphrase extends Error {
  constructor() {
    super("Wrong wallet passphrase: your account key did not unlock. Nothing was sent.");
    this.code = "WRONG_PASSPHRASE";
  }
}

export function available() {
  return Boolean(globalThis.crypto?.subtle) && window.isSecureContext;
}

const base64 = (bytes) => btoa(String.fromCharCode(...bytes));
const unbase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function derive(passphrase, salt, iterations) {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(passphrase), "PBKDF2", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations }, material, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

/** The stored keystore of `uid` (its address and encrypted key), or null. */
export function stored(uid) {
  try {
    const file = JSON.parse(localStorage.getItem(PREFIX + uid) ?? "null");
    return file?.version === 1 && file.address ? file : null;
  } catch {
    return null;
  }
}

/** Encrypts `privateKey` (a new one when null) with `passphrase`; returns the keystore file (not yet stored). */
export async function create(passphrase, privateKey = null) {
  if (!available()) throw new Error("This browser cannot keep a key here: open the app over https (or on localhost).");
  if (!passphrase) throw new Error("Choose a wallet passphrase: it encrypts your account key in this browser.");
  const key = privateKey ?? randomPrivateKey();
  if (!isPrivateKey(key)) throw new Error("That is not a secp256k1 private key (64 hex digits).");
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const account = address(key);
  const aes = await derive(passphrase, salt, ITERATIONS);
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(account.toLowerCase()) }, aes, key));
  key.fill(0);
  return {
    version: 1, address: account,
    kdf: { name: "PBKDF2", hash: "SHA-256", iterations: ITERATIONS, salt: base64(salt) },
    cipher: { name: "AES-GCM", iv: base64(iv) },
    ciphertext: base64(ciphertext),
  };
}

/** Stores `file` as `uid`'s key. */
export function save(uid, file) {
  localStorage.setItem(PREFIX + uid, JSON.stringify(file));
}

/** Reads a keystore file a person saved (its JSON text), checked. */
export function parse(text) {
  let file;
  try {
    file = JSON.parse(text);
  } catch {
    throw new Error("That file is not a CarChain key backup (not JSON).");
  }
  if (file?.version !== 1 || !/^0x[0-9a-fA-F]{40}$/.test(file.address ?? "") || file.kdf?.name !== "PBKDF2" || !file.ciphertext) {
    throw new Error("That file is not a CarChain key backup.");
  }
  return file;
}

/** Unlocks `file` with `passphrase`: the private key (32 bytes). The caller wipes it after use. */
export async function unlock(file, passphrase) {
  const iterations = Number(file.kdf.iterations);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > 10000000) throw new Error("The stored key has an unusable setting.");
  const aes = await derive(passphrase, unbase64(file.kdf.salt), iterations);
  let key;
  try {
    key = new Uint8Array(await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: unbase64(file.cipher.iv), additionalData: new TextEncoder().encode(file.address.toLowerCase()) },
      aes, unbase64(file.ciphertext)));
  } catch {
    throw new WrongPassphrase();
  }
  if (!isPrivateKey(key) || address(key).toLowerCase() !== file.address.toLowerCase()) throw new WrongPassphrase();
  return key;
}

/** A private key typed as hex (an import). */
export function parsePrivateKey(text) {
  let bytes;
  try {
    bytes = fromHex(text.trim());
  } catch {
    bytes = null;
  }
  if (!bytes || !isPrivateKey(bytes)) throw new Error("The account key to import is not a secp256k1 private key (64 hex digits).");
  return bytes;
}

