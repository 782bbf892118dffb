// "My rental": the car the signed-in user rents, with Return; the credit left, with Buy credit.

import { byId, show } from "../dom.js";
import { state } from "../state.js";
import { buyCredit, returnCar } from "../transact.js";

export function init() {
  byId("rental-return").addEventListener("click", (event) => {
    const plate = state.me?.car;
    if (plate) returnCar(plate, event.currentTarget);
  });
  byId("rental-buy").addEventListener("click", (event) => buyCredit(3, event.currentTarget));
}

/** Shows the profile's rental. */
export function render() {
  const me = state.me;
  if (!me) return;
  show(byId("rental-current"), Boolean(me.car));
  show(byId("rental-none"), !me.car);
  byId("rental-plate").textContent = me.car ?? "";
  byId("rental-credit").textContent = me.credit;
}
