// One CarChain transaction from the page: the quote (which also runs the server's checks, so a refusal shows before
// anything is asked), the confirmation, then the write — signed by the server with the account key the passphrase
// unlocks (dev node), by the browser's own key (a real network), or sent by the browser's wallet.
//
// One transaction at a time in the whole page: while one is being quoted, confirmed or sent, every other action (a
// second click, another button) is ignored, so a double or triple click sends exactly one.

import { api, ApiError } from "./api.js";
import { confirmTransaction } from "./confirm.js";
import { announce, offerFix, showError, showNotice, state } from "./state.js";
import * as wallet from "./wallet.js";

const WRITES = {
  rent: api.rent,
  return: api.returnCar,
  credit: api.buyCredit,
  registerCar: api.registerCar,
};

let inFlight = false;

/** Whether a transaction is being quoted, confirmed or sent. */
export function busy() {
  return inFlight;
}

/**
 * Quotes, confirms and sends `action` with `fields`; resolves with the outcome, or null when cancelled (or when
 * another transaction is in flight). `button`, when given, shows that it is working.
 */
export async function transact(action, fields, { title, text, button = null, chooseAmount = false }) {
  if (inFlight) return null;
  if (!state.signer) {
    throw new ApiError("NO_KEY", state.config.signing === "browser"
      ? "This browser holds no key for your account and no wallet is connected: import your key backup on the account screen, or use a wallet."
      : "This server does not hold your account's key: use a browser wallet that holds it.", 0);
  }
  inFlight = true;
  const wasDisabled = button?.disabled;
  if (button) {
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
  }
  try {
    const quoteFields = (values) => {
      const query = { action };
      if (values.plate) query.plate = values.plate;
      if (values.amount) query.amount = String(values.amount);
      return query;
    };
    const quote = await api.quote(quoteFields(fields));
    return await confirmTransaction({
      title,
      text,
      quote,
      amount: chooseAmount ? { value: fields.amount, requote: (amount) => api.quote(quoteFields({ ...fields, amount })) } : null,
      perform: async (passphrase, progress, amount) => {
        const values = amount ? { ...fields, amount } : fields;
        let outcome;
        if (state.signer === "server") {
          progress("Signing and sending…");
          outcome = await WRITES[action]({ ...values, walletPassphrase: passphrase });
        } else {
          const send = state.signer === "wallet" ? wallet.send(action, quoteFields(values), progress)
            : wallet.sendWithKey(action, quoteFields(values), passphrase, progress);
          outcome = await send;
          // The position is telemetry, off chain: recorded once the registration is mined.
          if (action === "registerCar" && outcome.status !== "pending") {
            await api.placeCar(values.plate, { latitude: values.latitude, longitude: values.longitude });
          }
        }
        return amount ? { ...outcome, amount } : outcome;
      },
    });
  } finally {
    inFlight = false;
    if (button) {
      button.removeAttribute("aria-busy");
      if (button.isConnected) button.disabled = wasDisabled;
    }
  }
}

/** The notice for an outcome: done, or still pending after the page stopped waiting. */
export function outcomeNotice(done, outcome) {
  if (outcome.status === "pending") {
    showNotice(`Your transaction ${outcome.transactionHash.slice(0, 10)}… is sent but not mined yet; it shows in your history once it is.`);
  } else {
    showNotice(`${done} (block ${outcome.blockNumber}${outcome.feeEth ? `, fee ${Number(outcome.feeEth).toPrecision(3)} ETH` : ""}).`);
  }
}

/** Returns `plate` (from the car's sheet or "my rental"), then says so and refreshes the page's data. */
export async function returnCar(plate, button) {
  try {
    const outcome = await transact("return", { plate }, { title: `Return ${plate}`, text: `Return car ${plate} (no refund).`, button });
    if (!outcome) return;
    outcomeNotice(`You returned ${plate}`, outcome);
    announce("changed");
  } catch (error) {
    showError(error);
  }
}

/** Buy credit, the amount chosen in the confirmation (from anywhere credit matters: the car's sheet, my rental, the
 * profile, an error that says there is none). */
export async function buyCredit(amount = 3, button = null) {
  try {
    const outcome = await transact("credit", { amount }, {
      title: "Buy credit", text: "Add credit to your account (a rental costs 1).", button, chooseAmount: true,
    });
    if (!outcome) return;
    outcomeNotice(`You bought ${outcome.amount ?? amount} credit`, outcome);
    announce("changed");
  } catch (error) {
    showError(error);
  }
}

offerFix("NO_CREDIT", "Buy credit", () => buyCredit(3));
