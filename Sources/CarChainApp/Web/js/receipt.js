// Following a transaction the browser sent (its wallet, or its own key through the server's relay) until it has the
// confirmations the app is configured with: pending, mined (k of n confirmations), confirmed — or failed (reverted).
// The wait is bounded; a transaction still pending after it is reported as such, not as a failure.

import { api, ApiError } from "./api.js";
import { state } from "./state.js";

/** How long the page follows a transaction before saying it is still pending. */
const LIMIT_MS = 10 * 60 * 1000;

/** Polls GET /transactions/HASH; `progress(text)` hears each state. Resolves with the outcome (status "success", or
 * "pending" when the wait ran out); throws on a revert. */
export async function follow(hash, progress = () => {}) {
  const started = Date.now();
  const short = `${hash.slice(0, 10)}…`;
  let delay = 250;
  progress(`Sent (${short}): waiting to be mined…`);
  while (Date.now() - started < LIMIT_MS) {
    let status = null;
    try {
      status = await api.transaction(hash);
    } catch (error) {
      // The server or node away for a moment: keep following, say so.
      if (!(error instanceof ApiError) || (error.status !== 0 && error.status < 500)) throw error;
      progress(`Sent (${short}); the node does not answer, still waiting…`);
    }
    if (status?.status === "reverted") {
      throw new ApiError(status.code ?? "REVERTED", `${status.message ?? "The transaction reverted."} (block ${status.blockNumber})`, 409);
    }
    if (status?.status === "success") {
      if (status.confirmed) return status;
      progress(`Mined in block ${status.blockNumber}: ${status.confirmations} of ${status.requiredConfirmations} confirmations…`);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 1.5, state.config?.signing === "browser" ? 4000 : 1000);
  }
  return { transactionHash: hash, status: "pending" };
}
