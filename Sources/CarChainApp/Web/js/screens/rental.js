// "My rental": the car the signed-in user rents, with Return; the credit left.

import { byId, show } from "../dom.js";
import { announce, showError, showNotice, state } from "../state.js";
import { transact } from "../transact.js";

export function init() {
  byId("rental-return").addEventListener("click", returnCar);
}

/** Shows the profile's rental. */
export function render() {
  const me = state.me;
  if (!me) return;
  show(byId("rental-current"), Boolean(me.car));
  show(byId("rental-none"), !me.car);
  byId("rental-plate").textContent = me.car ?? "";
  byId("rental-since").textContent = "";
  byId("rental-credit").textContent = me.credit;
}

async function returnCar() {
  const plate = state.me?.car;
  if (!plate) return;
  try {
    const outcome = await transact("return", { plate }, { title: `Return ${plate}`, text: `Return car ${plate} (no refund).` });
    if (!outcome) return;
    showNotice(`You returned ${plate} (block ${outcome.blockNumber}).`);
    announce("changed");
  } catch (error) {
    showError(error);
  }
}
