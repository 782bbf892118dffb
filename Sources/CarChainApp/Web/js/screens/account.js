// Signing up, in and out, resetting a password (the auth service's REST API, as the Firebase JS SDK calls it), and
// setting up the Ethereum account: a new key or an imported one (the fleet's manager imports the deployer's key) —
// kept on the server (dev node) or in this browser (a real network), encrypted with a wallet passphrase — or the
// browser's wallet. On a real network the account needs ETH for its registration: the setup screen says how much and
// where to send it, and registers once it is there.

import { api } from "../api.js";
import * as auth from "../auth.js";
import * as keystore from "../crypto/keystore.js";
import { byId, eth, formValues, shortAddress, show } from "../dom.js";
import { clearMessages, showError, showNotice, state } from "../state.js";
import { outcomeNotice, transact } from "../transact.js";
import * as wallet from "../wallet.js";

let onSignedIn = async () => {};
const browserKeeps = () => state.config.signing === "browser";

export function init(signedIn) {
  onSignedIn = signedIn;
  for (const name of ["signin", "signup", "reset"]) {
    byId(`tab-${name}`).addEventListener("click", () => selectTab(name));
  }
  const hasWallet = Boolean(wallet.provider());
  for (const id of ["signup-choice-wallet", "setup-choice-wallet"]) show(byId(id), hasWallet);
  for (const form of [byId("form-signup"), byId("form-setup")]) {
    form.addEventListener("change", () => showChoice(form));
    showChoice(form);
  }
  describeManager();
  const where = browserKeeps()
    ? "It encrypts your account key in this browser (the server never sees the key or the passphrase); you type it again for every rental, return or purchase. It is not your password."
    : "It encrypts your account key on the server; you type it again for every rental, return or purchase. It is not your password, and it is never stored.";
  for (const element of document.querySelectorAll(".passphrase-help")) element.textContent = where;
  // The emulator's list of codes is on the node's own origin: on a dev node only.
  show(byId("reset-emulator-help"), state.config.signing === "server");
  byId("form-signin").addEventListener("submit", (event) => busy(event, signIn));
  byId("form-signup").addEventListener("submit", (event) => busy(event, signUp));
  byId("form-reset").addEventListener("submit", (event) => busy(event, sendReset));
  byId("reset-confirm").addEventListener("click", (event) => busy({ target: byId("form-reset"), submitter: event.currentTarget, preventDefault() {} }, confirmReset));
  byId("form-setup").addEventListener("submit", (event) => busy(event, setUp));
  byId("form-register-account").addEventListener("submit", (event) => busy(event, registerOnChain));
}

/** Says who the manager is and how to become them, where the choice is made. */
function describeManager() {
  const config = state.config;
  let text = "";
  if (config.manager) {
    text = `The fleet's manager is the account that deployed CarChain, ${config.manager}`;
    if (config.managerDevAccount !== null && config.managerDevAccount !== undefined) {
      text += ` — dev account ${config.managerDevAccount} of this node, whose key \`carchain node\` printed when it started`;
    }
    text += ": import its key here to sign in as the manager.";
  } else if (config.noContract) {
    text = config.noContract;
  }
  for (const element of document.querySelectorAll(".manager-help")) element.textContent = text;
}

/** Shows the fields of the chosen kind of account (new key, imported key, wallet). */
function showChoice(form) {
  const choice = form.elements.account?.value ?? "new";
  for (const element of form.querySelectorAll("[data-for]")) show(element, element.dataset.for.split(" ").includes(choice));
  const key = form.elements.privateKey;
  if (key) key.required = choice === "import";
}

export function selectTab(name) {
  for (const other of ["signin", "signup", "reset"]) {
    byId(`tab-${other}`).setAttribute("aria-selected", String(other === name));
    show(byId(`form-${other}`), other === name);
  }
  clearMessages();
}

/** Runs a form's action with its buttons disabled (a second submit meanwhile is ignored); errors are shown. */
async function busy(event, action) {
  event.preventDefault();
  const form = event.target;
  if (form.dataset.busy) return;
  form.dataset.busy = "1";
  const buttons = [...form.querySelectorAll("button")];
  for (const button of buttons) button.disabled = true;
  clearMessages();
  try {
    await action(formValues(form), form);
  } catch (error) {
    showError(error);
  } finally {
    delete form.dataset.busy;
    for (const button of buttons) button.disabled = false;
  }
}

async function signIn({ email, password }, form) {
  await auth.signIn(email.trim(), password);
  form.reset();
  await onSignedIn();
}

/** What a new account needs from the form, checked before anything is created. */
function accountFields({ account = "new", walletPassphrase, privateKey }, password) {
  if (account === "wallet") return { kind: "wallet" };
  if (!walletPassphrase) throw new Error("Choose a wallet passphrase: it encrypts your account key.");
  if (password !== undefined && walletPassphrase === password) {
    throw new Error("Choose a wallet passphrase other than your password, so that a leaked password cannot spend your account.");
  }
  if (account === "import") {
    if (!privateKey?.trim()) throw new Error("Paste the account key to import (64 hex digits).");
    if (browserKeeps()) keystore.parsePrivateKey(privateKey);
  }
  return { kind: account, walletPassphrase, privateKey: account === "import" ? privateKey.trim() : null };
}

async function signUp(values, form) {
  const fields = accountFields(values, values.password);
  if (values.displayName && values.displayName.length > 64) throw new Error("A name has at most 64 characters.");
  const created = await auth.signUp(values.email.trim(), values.password);
  if (values.displayName?.trim()) await auth.setDisplayName(values.displayName.trim());
  showNotice("Account created; setting up your Ethereum account…");
  await createAccount(fields, created);
  form.reset();
  showChoice(form);
  await onSignedIn();
  const who = auth.session.current?.displayName || created.email;
  showNotice(state.me?.registered ? `Welcome, ${who}: your account is ready.` : `Welcome, ${who}: your account is made; register it on the chain.`);
}

/** Makes the Ethereum account: on the server (dev node), in this browser (a real network), or the wallet's. */
async function createAccount(fields, session) {
  if (fields.kind === "wallet") {
    const answer = await wallet.link(session.uid, session.email);
    if (!answer.registered && !browserKeeps()) await wallet.send("register", {});
    return;
  }
  if (!browserKeeps()) {
    await api.setUpAccount({ walletPassphrase: fields.walletPassphrase, ...(fields.privateKey ? { privateKey: fields.privateKey } : {}) });
    return;
  }
  const file = await keystore.create(fields.walletPassphrase, fields.privateKey ? keystore.parsePrivateKey(fields.privateKey) : null);
  keystore.save(session.uid, file);
  await wallet.linkKey(session.uid, session.email, file, fields.walletPassphrase);
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

/** The setup screen: an account for a signed-in user who has none (or whose key this browser lacks). */
async function setUp(values, form) {
  const session = auth.session.current;
  if (values.account === "backup") {
    const file = keystore.parse(await form.elements.backup.files[0]?.text() ?? "");
    await keystore.unlock(file, values.walletPassphrase);
    if (state.me?.address && file.address.toLowerCase() !== state.me.address.toLowerCase()) {
      throw new Error(`That backup holds ${file.address}, not your account ${state.me.address}.`);
    }
    keystore.save(session.uid, file);
    if (!state.me?.address) await wallet.linkKey(session.uid, session.email, file, values.walletPassphrase);
  } else {
    await createAccount(accountFields(values), session);
  }
  form.reset();
  showChoice(form);
  await onSignedIn();
}

/** Shows the setup screen for what is missing: the account, the key in this browser, or the registration on chain. */
export function renderSetup() {
  const me = state.me;
  byId("setup-email").textContent = me.email;
  const needsAccount = !me.address || (browserKeeps() && !state.signer);
  show(byId("form-setup"), needsAccount);
  show(byId("setup-choice-backup"), browserKeeps());
  byId("setup-lead").textContent = !me.address
    ? "Your Ethereum account is not ready yet."
    : needsAccount
      ? `Your account ${me.address} is not in this browser: restore it from your key backup, or use the wallet that holds it.`
      : `Your account ${me.address} is not registered on the chain yet.`;
  const registering = Boolean(me.address) && !me.registered && !needsAccount;
  show(byId("form-register-account"), registering);
  if (registering) {
    const balance = BigInt(me.balanceWei ?? "0");
    byId("enrol-balance").textContent = `${eth(me.balanceEth ?? "0")} ETH`;
    byId("enrol-address").textContent = me.address;
    show(byId("enrol-fund"), balance === 0n);
    byId("enrol-fund").textContent = `Your account has no ETH to pay for its registration: send some${
      state.config.network ? ` ${state.config.network}` : ""} ETH (chain ${state.config.chainId}) to ${me.address} — 0.001 ETH is plenty — then register.`;
  }
}

/** Registers the linked account on chain, signed by this browser's key or the wallet. */
async function registerOnChain(_values, form) {
  const outcome = await transact("register", {}, {
    title: "Register your account", text: `Register ${shortAddress(state.me.address)} as ${state.me.email} on the chain.`,
    button: form.querySelector("button[type=submit]"),
  });
  if (!outcome) return;
  outcomeNotice("Your account is registered", outcome);
  await onSignedIn();
}
