// The EIP-1193 path: when the page has a wallet (window.ethereum), the server prepares each transaction (checks,
// gas estimate) and the wallet sends it (eth_sendTransaction); the page then follows it until it is mined.

import { api, ApiError } from "./api.js";

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

/** Links the wallet's account to the signed-in user: the wallet signs the server's message (personal_sign). */
export async function link(uid, email, chainId) {
  const address = (await account()).toLowerCase();
  const message = linkMessage(uid, email, address, chainId);
  const signature = await provider().request({ method: "personal_sign", params: [toHex(message), address] });
  return api.setUpAccount({ wallet: { address, signature } });
}

/** The text the server expects (AppAPI.walletLinkMessage), the address in lowercase hex. */
export function linkMessage(uid, email, address, chainId) {
  return `CarChain: link the account ${address} to the user ${email} (uid ${uid}) on chain ${chainId}.`;
}

function toHex(text) {
  return "0x" + Array.from(new TextEncoder().encode(text), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Prepares `action` on the server, has the wallet send it, and waits for it to be mined; returns the outcome. */
export async function send(action, fields, onSent) {
  const { transaction } = await api.prepare({ action, ...fields });
  let hash;
  try {
    hash = await provider().request({
      method: "eth_sendTransaction",
      params: [{ from: transaction.from, to: transaction.to, data: transaction.data, gas: transaction.gas, value: transaction.value }],
    });
  } catch (error) {
    throw new ApiError("WALLET", `The wallet did not send the transaction: ${error.message ?? error}`, 0);
  }
  onSent?.(hash);
  for (let attempt = 0; attempt < 600; attempt++) {
    const status = await api.transaction(hash);
    if (status.status === "success") return status;
    if (status.status === "reverted") throw new ApiError(status.code ?? "REVERTED", status.message, 409);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new ApiError("PENDING", `Transaction ${hash} is not mined yet: look again later.`, 0);
}
