// The two ways the browser signs: an injected EIP-1193 wallet (window.ethereum), or the account key this browser keeps
// (crypto/keystore.js) when the server holds none. Either way the server prepares each transaction (its checks, gas,
// fees, nonce) and the page checks the chain before anything is signed: the wallet must be on the app's chain (asked
// to switch, refused otherwise), and a prepared transaction must be for the app's chain, to its contract, from the
// user's account. Then the transaction is followed until it has the configured confirmations (receipt.js).

import { api, ApiError } from "./api.js";
import * as keystore from "./crypto/keystore.js";
import { signPersonalMessage } from "./crypto/secp256k1.js";
import { signTransaction } from "./crypto/transaction.js";
import { follow } from "./receipt.js";
import { state } from "./state.js";

/** The injected provider, or null. */
export function provider() {
  return typeof window.ethereum?.request === "function" ? window.ethereum : null;
}

/** The wallet's first account (asking the user to connect). */
export async function account() {
  const accounts = await provider().request({ method: "eth_requestAccounts" });
  if (!accounts?.length) throw new ApiError("WALLET", "The wallet shares no account.", 0);
  return accounts[0];
}

/** Refuses to go on unless the wallet is on the app's chain; asks it to switch first. */
export async function ensureChain() {
  const wanted = Number(state.config.chainId);
  const current = async () => Number(BigInt(await provider().request({ method: "eth_chainId" })));
  if (await current() === wanted) return;
  try {
    await provider().request({ method: "wallet_switchEthereumChain", params: [{ chainId: `0x${wanted.toString(16)}` }] });
  } catch {
    // Refused or unknown to the wallet: the check below says so.
  }
  const now = await current();
  if (now !== wanted) {
    throw new ApiError("WRONG_CHAIN", `Your wallet is on chain ${now}, this app on chain ${wanted}${state.config.network ? ` (${state.config.network})` : ""}: switch networks in the wallet. Nothing was signed.`, 0);
  }
}

/** The text the server expects (AppAPI.walletLinkMessage), the address in lowercase hex. */
export function linkMessage(uid, email, address, chainId) {
  return `CarChain: link the account ${address} to the user ${email} (uid ${uid}) on chain ${chainId}.`;
}

function toHexText(text) {
  return "0x" + Array.from(new TextEncoder().encode(text), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Links the wallet's account to the signed-in user: the wallet signs the server's message (personal_sign). */
export async function link(uid, email) {
  await ensureChain();
  const address = (await account()).toLowerCase();
  const message = linkMessage(uid, email, address, state.config.chainId);
  const signature = await provider().request({ method: "personal_sign", params: [toHexText(message), address] });
  return api.setUpAccount({ wallet: { address, signature } });
}

/** Links the account of a key this browser keeps (its signature of the same message). */
export async function linkKey(uid, email, file, passphrase) {
  const key = await keystore.unlock(file, passphrase);
  try {
    const address = file.address.toLowerCase();
    const signature = await signPersonalMessage(linkMessage(uid, email, address, state.config.chainId), key);
    return await api.setUpAccount({ wallet: { address, signature } });
  } finally {
    key.fill(0);
  }
}

/** Checks a prepared transaction before it is signed: this app's chain, its contract, the user's account. */
function check(transaction, from) {
  const chainId = Number(BigInt(transaction.chainId));
  if (chainId !== Number(state.config.chainId)) {
    throw new ApiError("WRONG_CHAIN", `The server prepared a transaction for chain ${chainId}, not this app's chain ${state.config.chainId}: nothing was signed.`, 0);
  }
  if (state.config.contract && transaction.to.toLowerCase() !== state.config.contract.toLowerCase()) {
    throw new ApiError("NOT_CARCHAIN", "The prepared transaction is not for the CarChain contract: nothing was signed.", 0);
  }
  if (from && transaction.from.toLowerCase() !== from.toLowerCase()) {
    throw new ApiError("NOT_YOUR_ACCOUNT", `The prepared transaction is from ${transaction.from}, not your account ${from}: nothing was signed.`, 0);
  }
}

/** Prepares `action` on the server, has the wallet send it, and follows it; returns the outcome. */
export async function send(action, fields, progress = () => {}) {
  await ensureChain();
  const { transaction } = await api.prepare({ action, ...fields });
  check(transaction, null);
  let hash;
  try {
    progress("Your wallet asks you to send the transaction…");
    hash = await provider().request({
      method: "eth_sendTransaction",
      params: [{ from: transaction.from, to: transaction.to, data: transaction.data, gas: transaction.gas, value: transaction.value }],
    });
  } catch (error) {
    throw new ApiError("WALLET", `The wallet did not send the transaction: ${error.message ?? error}`, 0);
  }
  return follow(hash, progress);
}

/** Prepares `action`, signs it with the key this browser keeps (unlocked with `passphrase` for this one signature),
 * has the server relay it, and follows it; returns the outcome. */
export async function sendWithKey(action, fields, passphrase, progress = () => {}) {
  const file = keystore.stored(state.me.uid);
  if (!file) throw new ApiError("NO_KEY", "This browser does not hold your account key: import your key backup on the account screen.", 0);
  const { transaction } = await api.prepare({ action, ...fields });
  check(transaction, file.address);
  progress("Unlocking your key and signing…");
  const key = await keystore.unlock(file, passphrase);
  let signed;
  try {
    signed = await signTransaction(transaction, key);
  } finally {
    key.fill(0);
  }
  const { transactionHash } = await api.relay({ raw: signed.raw });
  return follow(transactionHash, progress);
}
