// The confirmation of a transaction: what it does, its estimated gas and fee (in ETH, and in USD when the node has a
// price), and the wallet passphrase that unlocks the account key for this one action — or, with a browser wallet,
// a note that the wallet will ask. Errors (a wrong passphrase, a car taken meanwhile) show in the dialog, which stays
// open so the person can try again or cancel.

import { byId, fill, h, number, show } from "./dom.js";
import { clearMessages, showError, state } from "./state.js";

/**
 * Asks for confirmation and runs `perform(passphrase)` (passphrase null when the wallet signs).
 * Resolves with perform's result, or null when cancelled.
 */
export function confirmTransaction({ title, text, quote, perform }) {
  const dialog = byId("confirm");
  const form = byId("confirm-form");
  const passphrase = byId("confirm-passphrase");
  clearMessages();
  byId("confirm-title").textContent = title;
  byId("confirm-text").textContent = text;
  fill(byId("confirm-quote"), quoteFacts(quote));
  show(byId("confirm-passphrase-label"), !state.walletSigns);
  show(byId("confirm-wallet"), state.walletSigns);
  passphrase.value = "";
  passphrase.required = !state.walletSigns;
  const ok = byId("confirm-ok");
  ok.disabled = false;
  dialog.showModal();
  (state.walletSigns ? ok : passphrase).focus();

  return new Promise((resolve) => {
    const finish = (value) => {
      form.removeEventListener("submit", submit);
      byId("confirm-cancel").removeEventListener("click", cancel);
      dialog.removeEventListener("cancel", cancel);
      passphrase.value = "";
      if (dialog.open) dialog.close();
      resolve(value);
    };
    const cancel = (event) => {
      event?.preventDefault();
      finish(null);
    };
    const submit = async (event) => {
      event.preventDefault();
      show(byId("confirm-error"), false);
      if (!state.walletSigns && !passphrase.value) {
        showError("Type your wallet passphrase.");
        return;
      }
      ok.disabled = true;
      ok.textContent = "Sending…";
      try {
        const result = await perform(state.walletSigns ? null : passphrase.value);
        finish(result);
      } catch (error) {
        showError(error);
        passphrase.select();
      } finally {
        ok.disabled = false;
        ok.textContent = "Confirm";
      }
    };
    form.addEventListener("submit", submit);
    byId("confirm-cancel").addEventListener("click", cancel);
    dialog.addEventListener("cancel", cancel);
  });
}

function quoteFacts(quote) {
  if (!quote) return [];
  const usd = quote.feeUsd ? ` ≈ ${quote.feeUsd} USD (at ${quote.ethPrice} USD per ETH)` : "";
  return [
    h("dt", {}, "Estimated gas"), h("dd", { id: "quote-gas" }, `${number(quote.gas)} (limit ${number(quote.gasLimit)})`),
    h("dt", {}, "Gas price"), h("dd", {}, `${quote.gasPriceGwei} gwei`),
    h("dt", {}, "Estimated fee"), h("dd", { id: "quote-fee" }, `${quote.feeEth} ETH${usd}`),
  ];
}
