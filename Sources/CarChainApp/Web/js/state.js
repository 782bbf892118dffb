// What the page knows (the configuration, the signed-in user's profile, whether a wallet signs) and how it tells the
// person what happened: one alert line for errors, one status line for news.

import { byId, show } from "./dom.js";

export const state = {
  /** GET /config. */
  config: null,
  /** GET /me, null when signed out. */
  me: null,
  /** True when the browser's wallet (EIP-1193) signs instead of the server's keystore. */
  walletSigns: false,
};

const listeners = new Map();

/** Calls `handler` whenever `topic` is announced ("me", "block"). */
export function on(topic, handler) {
  if (!listeners.has(topic)) listeners.set(topic, []);
  listeners.get(topic).push(handler);
}

export function announce(topic, value) {
  for (const handler of listeners.get(topic) ?? []) handler(value);
}

/** Shows an error (in the open dialog when there is one, else at the top of the page). */
export function showError(error) {
  const message = typeof error === "string" ? error : error?.message ?? String(error);
  const dialog = byId("confirm");
  const target = dialog.open ? byId("confirm-error") : byId("error");
  target.textContent = message;
  target.dataset.code = error?.code ?? "";
  show(target);
  if (!dialog.open) show(byId("notice"), false);
}

export function showNotice(message) {
  const notice = byId("notice");
  notice.textContent = message;
  show(notice);
  show(byId("error"), false);
}

export function clearMessages() {
  show(byId("error"), false);
  show(byId("notice"), false);
  show(byId("confirm-error"), false);
}
