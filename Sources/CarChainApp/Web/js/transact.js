// One CarChain transaction from the page: the quote (which also runs the server's checks, so a refusal shows before
// anything is asked), the confirmation, then the write — signed by the server with the account key the passphrase
// unlocks, or prepared by the server and sent by the browser's wallet.

import { api } from "./api.js";
import { confirmTransaction } from "./confirm.js";
import { announce, showError, showNotice } from "./state.js";
import * as wallet from "./wallet.js";

const WRITES = {
  rent: api.rent,
  return: api.returnCar,
  credit: api.buyCredit,
  registerCar: api.registerCar,
};

/** Quotes, confirms and sends `action` with `fields`; resolves with the outcome, or null when cancelled. */
export async function transact(action, fields, { title, text }) {
  const quoteFields = { action };
  if (fields.plate) quoteFields.plate = fields.plate;
  if (fields.amount) quoteFields.amount = String(fields.amount);
  const quote = await api.quote(quoteFields);
  return confirmTransaction({
    title,
    text,
    quote,
    perform: async (passphrase) => {
      if (passphrase !== null) return WRITES[action]({ ...fields, walletPassphrase: passphrase });
      const outcome = await wallet.send(action, quoteFields);
      // The position is telemetry, off chain: recorded once the wallet's registration is mined.
      if (action === "registerCar") await api.placeCar(fields.plate, { latitude: fields.latitude, longitude: fields.longitude });
      return outcome;
    },
  });
}

/** Returns `plate` (from the car's sheet or "my rental"), then says so and refreshes the page's data. */
export async function returnCar(plate) {
  try {
    const outcome = await transact("return", { plate }, { title: `Return ${plate}`, text: `Return car ${plate} (no refund).` });
    if (!outcome) return;
    showNotice(`You returned ${plate} (block ${outcome.blockNumber}).`);
    announce("changed");
  } catch (error) {
    showError(error);
  }
}
