// The profile: who (name, email), the account and its role from the chain, credit and balance, buying credit, the
// key backup when the browser keeps the key, and the history rebuilt from the contract's events.

import { api } from "../api.js";
import * as auth from "../auth.js";
import * as keystore from "../crypto/keystore.js";
import { byId, eth, fill, formValues, h, show } from "../dom.js";
import { announce, showError, showNotice, state } from "../state.js";
import { outcomeNotice, transact } from "../transact.js";

export function init() {
  byId("form-credit").addEventListener("submit", async (event) => {
    event.preventDefault();
    const { amount } = formValues(event.target);
    const button = event.target.querySelector("button[type=submit]");
    try {
      const outcome = await transact("credit", { amount: Number(amount) }, {
        title: "Buy credit", text: `Add ${amount} credit to your account.`, button,
      });
      if (!outcome) return;
      outcomeNotice(`You bought ${amount} credit`, outcome);
      announce("changed");
    } catch (error) {
      showError(error);
    }
  });
  byId("form-name").addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = event.target.querySelector("button[type=submit]");
    if (button.disabled) return;
    button.disabled = true;
    try {
      const name = formValues(event.target).displayName.trim();
      await auth.setDisplayName(name);
      showNotice(name ? `Your name is now ${name}.` : "Your name is removed.");
      announce("me", state.me);
    } catch (error) {
      showError(error);
    } finally {
      button.disabled = false;
    }
  });
  byId("backup-key").addEventListener("click", () => {
    const file = state.me && keystore.stored(state.me.uid);
    if (!file) return;
    const blob = new Blob([JSON.stringify(file, null, 2)], { type: "application/json" });
    const link = h("a", { href: URL.createObjectURL(blob), download: `carchain-key-${file.address}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  });
}

export function render() {
  const me = state.me;
  if (!me) return;
  const name = auth.session.current?.displayName ?? "";
  byId("profile-name").textContent = name || "–";
  byId("form-name").elements.displayName.placeholder = name || "Your name";
  byId("profile-email").textContent = me.email;
  byId("profile-address").textContent = me.address ?? "–";
  byId("profile-role").textContent = me.role === "manager" ? "manager (registers cars)" : "user";
  byId("profile-credit").textContent = me.credit;
  const balance = byId("profile-balance");
  balance.textContent = me.balanceEth ? `${eth(me.balanceEth)} ETH` : "–";
  balance.title = me.balanceEth ? `${me.balanceEth} ETH (${me.balanceWei} wei)` : "";
  const signer = { server: "a key on this server, unlocked with your wallet passphrase for each action",
    browser: "a key kept in this browser, encrypted with your wallet passphrase", wallet: "your browser wallet" }[state.signer];
  byId("profile-signer").textContent = signer ?? "nothing here holds your key";
  show(byId("key-backup"), state.signer === "browser");
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
