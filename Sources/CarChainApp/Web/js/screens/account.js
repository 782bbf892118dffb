// Signing up, in and out, resetting a password (the auth service's REST API, as the Firebase JS SDK calls it), and
// setting up the Ethereum account: a key on the server encrypted with a wallet passphrase, or the browser's wallet.

import { api } from "../api.js";
import * as auth from "../auth.js";
import { byId, formValues, show } from "../dom.js";
import { clearMessages, showError, showNotice, state } from "../state.js";
import * as wallet from "../wallet.js";

let onSignedIn = async () => {};

export function init(signedIn) {
  onSignedIn = signedIn;
  for (const name of ["signin", "signup", "reset"]) {
    byId(`tab-${name}`).addEventListener("click", () => selectTab(name));
  }
  const hasWallet = Boolean(wallet.provider());
  show(byId("signup-use-wallet-label"), hasWallet);
  show(byId("setup-wallet"), hasWallet);
  byId("signup-use-wallet").addEventListener("change", (event) => {
    for (const element of byId("form-signup").querySelectorAll(".key-only")) show(element, !event.target.checked);
  });
  byId("form-signin").addEventListener("submit", (event) => busy(event, signIn));
  byId("form-signup").addEventListener("submit", (event) => busy(event, signUp));
  byId("form-reset").addEventListener("submit", (event) => busy(event, sendReset));
  byId("reset-confirm").addEventListener("click", () => busy({ target: byId("form-reset"), preventDefault() {} }, confirmReset));
  byId("form-setup").addEventListener("submit", (event) => busy(event, setUpWithKey));
  byId("setup-wallet").addEventListener("click", () => busy({ target: byId("form-setup"), preventDefault() {} }, setUpWithWallet));
}

function selectTab(name) {
  for (const other of ["signin", "signup", "reset"]) {
    byId(`tab-${other}`).setAttribute("aria-selected", String(other === name));
    show(byId(`form-${other}`), other === name);
  }
  clearMessages();
}

/** Runs a form's action with its buttons disabled; errors are shown. */
async function busy(event, action) {
  event.preventDefault();
  const form = event.target;
  const buttons = [...form.querySelectorAll("button"), ...document.querySelectorAll("#setup-wallet")];
  for (const button of buttons) button.disabled = true;
  clearMessages();
  try {
    await action(formValues(form), form);
  } catch (error) {
    showError(error);
  } finally {
    for (const button of buttons) button.disabled = false;
  }
}

async function signIn({ email, password }, form) {
  await auth.signIn(email.trim(), password);
  form.reset();
  await onSignedIn();
}

async function signUp({ email, password, walletPassphrase, privateKey, useWallet }, form) {
  const viaWallet = Boolean(useWallet);
  if (!viaWallet && !walletPassphrase) throw new Error("Choose a wallet passphrase: it encrypts your account key.");
  if (!viaWallet && walletPassphrase === password) {
    throw new Error("Choose a wallet passphrase other than your password, so that a leaked password cannot spend your account.");
  }
  const created = await auth.signUp(email.trim(), password);
  showNotice("Account created; setting up your Ethereum account (funding and registering it on the chain)…");
  if (viaWallet) await linkWallet(created);
  else await api.setUpAccount({ walletPassphrase, ...(privateKey ? { privateKey } : {}) });
  form.reset();
  await onSignedIn();
  showNotice(`Welcome, ${created.email}: your account is ready.`);
}

/** Links the browser wallet's account and registers it on chain through the wallet. */
async function linkWallet(session) {
  const answer = await wallet.link(session.uid, session.email, state.config.chainId);
  if (!answer.registered) await wallet.send("register", {});
}

async function sendReset({ email }) {
  await auth.sendPasswordReset(email.trim());
  showNotice("A reset code was sent. Type it below with your new password.");
}

async function confirmReset({ code, newPassword }) {
  if (!code || !newPassword) throw new Error("Type the reset code and the new password.");
  await auth.resetPassword(code.trim(), newPassword);
  selectTab("signin");
  showNotice("Your password is changed: sign in with the new one.");
}

async function setUpWithKey({ walletPassphrase, privateKey }, form) {
  await api.setUpAccount({ walletPassphrase, ...(privateKey ? { privateKey } : {}) });
  form.reset();
  await onSignedIn();
}

async function setUpWithWallet() {
  await linkWallet(auth.session.current);
  await onSignedIn();
}
