// What the page knows (the configuration, the signed-in user's profile, who signs) and how it tells the person what
// happened: errors and news in a message fixed in the viewport (so it is on screen wherever the page is scrolled),
// focused and announced (role=alert / aria-live); inside the dialog while one is open. An error can carry the action
// that fixes it (no credit → "Buy credit").

import { byId, h, show } from "./dom.js";

export const state = {
  /** GET /config. */
  config: null,
  /** GET /me, null when signed out. */
  me: null,
  /** Who signs this user's transactions: "server" (the server's keystore, a passphrase), "wallet" (EIP-1193),
   * "browser" (the keystore this browser keeps), or null (nothing here can sign for them). */
  signer: null,
  /** Whether the node (or the app server) answers: "online", "offline", or null before the first answer. */
  connection: null,
};

const listeners = new Map();

/** Calls `handler` whenever `topic` is announced ("me", "changed", "cars", "connection"). */
export function on(topic, handler) {
  if (!listeners.has(topic)) listeners.set(topic, []);
  listeners.get(topic).push(handler);
}

export function announce(topic, value) {
  for (const handler of listeners.get(topic) ?? []) handler(value);
}

/** Fixes offered with an error, by the API's code: a label and what the button does. */
const fixes = new Map();

/** Offers `label` (a button that calls `action`) with every error whose code is `code`. */
export function offerFix(code, label, action) {
  fixes.set(code, { label, action });
}

let noticeTimer = 0;

/** Shows an error where the person is looking: in the open dialog, else in the page's message, scrolled into view and
 * focused. */
export function showError(error) {
  const message = typeof error === "string" ? error : error?.message ?? String(error);
  const code = typeof error === "string" ? "" : error?.code ?? "";
  const dialog = byId("confirm");
  if (dialog.open) {
    const target = byId("confirm-error");
    target.textContent = message;
    target.dataset.code = code;
    show(target);
    target.scrollIntoView({ block: "nearest" });
    return;
  }
  clearTimeout(noticeTimer);
  show(byId("notice"), false);
  const target = byId("error");
  const fix = fixes.get(code);
  byId("error-text").textContent = message;
  target.dataset.code = code;
  const actions = byId("error-actions");
  actions.replaceChildren();
  if (fix) {
    actions.append(h("button", { type: "button", class: "fix", onclick: () => { hideError(); fix.action(); } }, fix.label));
  }
  show(target);
  target.scrollIntoView({ block: "nearest" });
  (fix ? actions.firstChild : target).focus({ preventScroll: true });
}

/** Says what happened (a status, not an alert); it goes after a while. */
export function showNotice(message) {
  const notice = byId("notice");
  byId("notice-text").textContent = message;
  show(notice);
  hideError();
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => show(notice, false), 12000);
}

export function hideError() {
  show(byId("error"), false);
}

export function clearMessages() {
  hideError();
  clearTimeout(noticeTimer);
  show(byId("notice"), false);
  show(byId("confirm-error"), false);
}
