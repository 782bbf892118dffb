// The profile: who, the account and its role from the chain, credit and balance, buying credit, and the history
// rebuilt from the contract's events.

import { api } from "../api.js";
import { byId, fill, formValues, h } from "../dom.js";
import { announce, showError, showNotice, state } from "../state.js";
import { transact } from "../transact.js";

export function init() {
  byId("form-credit").addEventListener("submit", async (event) => {
    event.preventDefault();
    const { amount } = formValues(event.target);
    try {
      const outcome = await transact("credit", { amount: Number(amount) }, { title: "Buy credit", text: `Add ${amount} credit to your account.` });
      if (!outcome) return;
      showNotice(`You bought ${amount} credit (block ${outcome.blockNumber}).`);
      announce("changed");
    } catch (error) {
      showError(error);
    }
  });
}

export function render() {
  const me = state.me;
  if (!me) return;
  byId("profile-email").textContent = me.email;
  byId("profile-address").textContent = me.address ?? "–";
  byId("profile-role").textContent = me.role === "manager" ? "manager (registers cars)" : "user";
  byId("profile-credit").textContent = me.credit;
  const balance = byId("profile-balance");
  balance.textContent = me.balanceEth ? `${Number(me.balanceEth).toFixed(6)} ETH` : "–";
  balance.title = me.balanceEth ? `${me.balanceEth} ETH (${me.balanceWei} wei)` : "";
}

/** Loads the history from the contract's events. */
export async function loadHistory() {
  try {
    const history = await api.history();
    const rows = [];
    for (const rental of history.rentals) {
      rows.push({ block: rental.rentedBlock, event: "Rented", details: rental.plate });
      if (rental.returnedBlock !== null) rows.push({ block: rental.returnedBlock, event: "Returned", details: rental.plate });
    }
    for (const topUp of history.topUps) {
      rows.push({ block: topUp.block, event: "Credit bought", details: `+${topUp.amount} (balance ${topUp.newBalance})` });
    }
    if (history.registeredBlock !== null && history.registeredBlock !== undefined) {
      rows.push({ block: history.registeredBlock, event: "Registered", details: "on the chain" });
    }
    rows.sort((a, b) => b.block - a.block);
    fill(byId("history"), rows.length
      ? rows.map((row) => h("tr", { "data-event": row.event }, h("td", {}, row.block), h("td", {}, row.event), h("td", {}, row.details)))
      : [h("tr", {}, h("td", { colspan: 3 }, "Nothing yet."))]);
  } catch (error) {
    showError(error);
  }
}
