// The confirmation of a transaction: what it does, its estimated gas and fee (in ETH, and in USD when the server has a
// price), the amount when it is chosen here (credit), and the wallet passphrase that unlocks the account key for this
// one action — or a note that the wallet will ask. Errors (a wrong passphrase, a car taken meanwhile) show in the
// dialog, which stays open so the person can try again or cancel; while the transaction is being sent it shows its
// progress (signed, sent, mined, confirmations).
//
// One confirmation at a time, always torn down: every listener belongs to one confirmation and goes with it (an
// AbortController), opening another ends the previous one, Confirm sends once however often it is pressed, and the
// focus goes back where it came from.

import { byId, eth, fill, h, number, show } from "./dom.js";
import { clearMessages, showError, state } from "./state.js";

let active = null;

/** Ends the open confirmation (as a cancel), unless its transaction is being sent. */
export function dismissConfirmation() {
  active?.cancel();
}

/** Whether a confirmation is sending its transaction. */
export function isSending() {
  return Boolean(active?.sending());
}

/**
 * Asks for confirmation and runs `perform(passphrase, progress, amount)` (passphrase null when the wallet signs;
 * `progress(text)` shows how the transaction is going). With `amount` ({value, requote}) the amount is chosen in the
 * dialog and `requote(amount)` gives its quote. Resolves with perform's result, or null when cancelled.
 */
export function confirmTransaction({ title, text, quote, perform, amount = null }) {
  active?.cancel();
  const dialog = byId("confirm");
  const form = byId("confirm-form");
  const passphrase = byId("confirm-passphrase");
  const ok = byId("confirm-ok");
  const cancelButton = byId("confirm-cancel");
  const amountField = byId("confirm-amount");
  const progress = byId("confirm-progress");
  const opener = document.activeElement;
  const asksPassphrase = state.signer === "server" || state.signer === "browser";
  clearMessages();
  byId("confirm-title").textContent = title;
  byId("confirm-text").textContent = text;
  fill(byId("confirm-quote"), quoteFacts(quote));
  show(byId("confirm-passphrase-label"), asksPassphrase);
  show(byId("confirm-wallet"), state.signer === "wallet");
  show(byId("confirm-amount-label"), Boolean(amount));
  show(progress, false);
  progress.textContent = "";
  passphrase.value = "";
  passphrase.required = asksPassphrase;
  if (amount) amountField.value = String(amount.value);
  ok.disabled = false;
  ok.textContent = "Confirm";
  cancelButton.disabled = false;
  dialog.showModal();
  (amount ? amountField : asksPassphrase ? passphrase : ok).focus();

  const controller = new AbortController();
  const signal = controller.signal;
  let sending = false;
  let done = false;
  let quoting = 0;

  return new Promise((resolve) => {
    const finish = (value) => {
      if (done) return;
      done = true;
      controller.abort();
      passphrase.value = "";
      if (dialog.open) dialog.close();
      if (active === handle) active = null;
      // Back where the person was, if it is still there; the screen's heading otherwise.
      const target = opener instanceof HTMLElement && opener.isConnected && opener.offsetParent !== null && !opener.disabled
        ? opener : document.querySelector("section.screen:not([hidden]) h1");
      target?.focus({ preventScroll: true });
      resolve(value);
    };
    const cancel = (event) => {
      event?.preventDefault();
      if (!sending) finish(null);
    };
    const handle = { cancel: () => cancel(), sending: () => sending };
    active = handle;

    const submit = async (event) => {
      event.preventDefault();
      if (sending || done || quoting) return;
      show(byId("confirm-error"), false);
      if (asksPassphrase && !passphrase.value) {
        showError("Type your wallet passphrase.");
        passphrase.focus();
        return;
      }
      const chosen = amount ? Number(amountField.value) : null;
      if (amount && !validAmount(chosen)) {
        showError(`Choose a whole number of credit from ${state.config.creditRange[0]} to ${state.config.creditRange[1]}.`);
        amountField.focus();
        return;
      }
      sending = true;
      ok.disabled = true;
      cancelButton.disabled = true;
      ok.textContent = "Sending…";
      const report = (message) => {
        if (done) return;
        show(progress);
        progress.textContent = message;
      };
      try {
        const result = await perform(asksPassphrase ? passphrase.value : null, report, chosen);
        finish(result);
      } catch (error) {
        if (done) return;
        sending = false;
        show(progress, false);
        showError(error);
        if (asksPassphrase) passphrase.select();
      } finally {
        if (!done) {
          sending = false;
          ok.disabled = false;
          cancelButton.disabled = false;
          ok.textContent = "Confirm";
        }
      }
    };

    if (amount) {
      let timer = 0;
      amountField.addEventListener("input", () => {
        clearTimeout(timer);
        const chosen = Number(amountField.value);
        if (!validAmount(chosen)) return;
        const ticket = ++quoting;
        ok.disabled = true;
        timer = setTimeout(async () => {
          try {
            const fresh = await amount.requote(chosen);
            if (ticket === quoting && !done) fill(byId("confirm-quote"), quoteFacts(fresh));
          } catch (error) {
            if (!done) showError(error);
          } finally {
            if (ticket === quoting) {
              quoting = 0;
              if (!sending && !done) ok.disabled = false;
            }
          }
        }, 300);
      }, { signal });
    }
    form.addEventListener("submit", submit, { signal });
    cancelButton.addEventListener("click", cancel, { signal });
    dialog.addEventListener("cancel", cancel, { signal });
    // Closed by anything else (a form's method=dialog, the browser): the same end.
    dialog.addEventListener("close", () => finish(null), { signal });
  });
}

function validAmount(value) {
  const [low, high] = state.config?.creditRange ?? [1, 999];
  return Number.isInteger(value) && value >= low && value <= high;
}

function quoteFacts(quote) {
  if (!quote) return [];
  const usd = quote.feeUsd ? ` ≈ ${quote.feeUsd} USD (at ${quote.ethPrice} USD per ETH)` : "";
  return [
    h("dt", {}, "Estimated gas"), h("dd", { id: "quote-gas" }, `${number(quote.gas)} (limit ${number(quote.gasLimit)})`),
    h("dt", {}, "Gas price"), h("dd", {}, `${Number(quote.gasPriceGwei).toLocaleString("en-US", { maximumFractionDigits: 3 })} gwei`),
    h("dt", {}, "Estimated fee"), h("dd", { id: "quote-fee", title: `${quote.feeEth} ETH (${quote.feeWei} wei)` }, `${eth(quote.feeEth)} ETH${usd}`),
  ];
}
