// Signing an Ethereum transaction in the page: RLP, then a legacy EIP-155 transaction or an EIP-1559 one (type 2),
// from the fields the server prepared (POST /app/api/v1/prepare). Nothing here sends: the page hands the raw bytes to
// the server, which checks and relays them.

import { keccak256 } from "./keccak.js";
import { bigIntToBytes, concat, fromHex, sign, toHex } from "./secp256k1.js";

/** RLP of a byte string (Uint8Array) or a list (Array) of them. */
export function rlp(item) {
  if (Array.isArray(item)) {
    const body = concat(...item.map(rlp));
    return concat(lengthPrefix(body.length, 0xc0), body);
  }
  if (item.length === 1 && item[0] < 0x80) return item;
  return concat(lengthPrefix(item.length, 0x80), item);
}

function lengthPrefix(length, offset) {
  if (length < 56) return Uint8Array.of(offset + length);
  const bytes = minimal(BigInt(length));
  return concat(Uint8Array.of(offset + 55 + bytes.length), bytes);
}

/** A non-negative integer as RLP wants it: big-endian, no leading zeros, empty for 0. */
export function minimal(value) {
  if (value < 0n) throw new Error("negative integer");
  if (value === 0n) return new Uint8Array(0);
  const bytes = bigIntToBytes(value, 32);
  let first = 0;
  while (bytes[first] === 0) first++;
  return bytes.slice(first);
}

const quantity = (text) => minimal(BigInt(text));

/**
 * Signs `tx` ({type, chainId, nonce, gas, to, value, data, gasPrice | maxFeePerGas + maxPriorityFeePerGas}, numbers as
 * 0x-quantities) with `privateKey`; returns {raw, hash} as hex.
 */
export async function signTransaction(tx, privateKey) {
  const chainId = BigInt(tx.chainId);
  const common = [quantity(tx.nonce)];
  const tail = [quantity(tx.gas), fromHex(tx.to), quantity(tx.value ?? "0x0"), fromHex(tx.data ?? "0x")];
  let raw;
  if (Number(tx.type ?? "0x0") === 2) {
    const fields = [minimal(chainId), ...common, quantity(tx.maxPriorityFeePerGas), quantity(tx.maxFeePerGas), ...tail, []];
    const signature = await sign(keccak256(concat(Uint8Array.of(2), rlp(fields))), privateKey);
    raw = concat(Uint8Array.of(2), rlp([...fields, minimal(BigInt(signature.recovery & 1)), minimal(signature.r), minimal(signature.s)]));
  } else if (Number(tx.type ?? "0x0") === 0) {
    const fields = [...common, quantity(tx.gasPrice), ...tail];
    const signature = await sign(keccak256(rlp([...fields, minimal(chainId), new Uint8Array(0), new Uint8Array(0)])), privateKey);
    const v = chainId * 2n + 35n + BigInt(signature.recovery & 1);
    raw = rlp([...fields, minimal(v), minimal(signature.r), minimal(signature.s)]);
  } else {
    throw new Error(`transaction type ${tx.type} is not signed here`);
  }
  return { raw: toHex(raw), hash: toHex(keccak256(raw)) };
}
