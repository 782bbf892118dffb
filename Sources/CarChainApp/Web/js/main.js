// The CarChain web app: boots with the server's configuration and the saved session, routes between the screens
// (#/map, #/rental, #/profile, #/manager), and keeps the map and "my rental" current as blocks arrive. A screen switch
// at any moment is safe: only the newest route's answers are drawn, the map draws only while it is on screen, an open
// confirmation is dismissed (unless it is sending), and the focus moves to the new screen's heading.

import { api, isSignedOut } from "./api.js";
import * as auth from "./auth.js";
import * as keystore from "./crypto/keystore.js";
import { byId, show } from "./dom.js";
import { dismissConfirmation } from "./confirm.js";
import { watchHeads } from "./live.js";
import { metrics } from "./map.js";
import * as account from "./screens/account.js";
import * as fleet from "./screens/fleet.js";
import * as manager from "./screens/manager.js";
import * as profile from "./screens/profile.js";
import * as rental from "./screens/rental.js";
import { announce, clearMessages, on, showError, state } from "./state.js";
import * as wallet from "./wallet.js";

const SCREENS = ["signin", "setup", "map", "rental", "profile", "manager"];
let stopWatching = null;
/** Each route gets a number; an older route that finishes late draws nothing. */
let routes = 0;

function showScreen(name) {
  const previous = document.body.dataset.screen;
  if (previous === "map" && name !== "map") fleet.leave();
  for (const screen of SCREENS) show(byId(`screen-${screen}`), screen === name);
  for (const link of byId("nav").querySelectorAll("a[data-screen]")) {
    if (link.dataset.screen === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.body.dataset.screen = name;
  return previous !== name;
}

/** Who signs for the signed-in user, from the configuration, the profile and what this browser holds. */
function signerOf(me) {
  if (!me?.address) return null;
  if (state.config.signing === "server" && me.serverHoldsKey) return "server";
  const file = keystore.stored(me.uid);
  if (state.config.signing === "browser" && file && file.address.toLowerCase() === me.address.toLowerCase()) return "browser";
  if (wallet.provider()) return "wallet";
  return null;
}

/** Reads the signed-in user's profile (or takes the answer of a request already made); signs out when the session is
 * gone. */
async function refreshMe(answer) {
  try {
    const me = await (answer ?? api.me());
    if (me instanceof Error) throw me;
    state.me = me;
    state.signer = signerOf(me);
    announce("me", state.me);
  } catch (error) {
    if (isSignedOut(error)) {
      await signOut();
      showError(error);
      return;
    }
    throw error;
  }
}

function whoText(me) {
  const name = auth.session.current?.displayName;
  return `${name || me.email} · ${me.role}`;
}

/** Shows the screen the hash names (or what the user must do first) and loads its data; `user` when the person asked
 * for it (the focus moves to the screen's heading then). */
async function route({ user = false } = {}) {
  const ticket = ++routes;
  const signedIn = Boolean(auth.session.current);
  show(byId("nav"), signedIn && Boolean(state.me?.registered));
  let screen;
  if (!signedIn || !state.me) {
    screen = "signin";
  } else if (!state.me.address || !state.me.registered || (state.config.signing === "browser" && !state.signer)) {
    screen = "setup";
    account.renderSetup();
  } else {
    byId("who").textContent = whoText(state.me);
    byId("who").title = state.me.email;
    show(byId("nav-manager"), state.me.role === "manager");
    const name = location.hash.replace(/^#\//, "") || "map";
    screen = ["map", "rental", "profile", "manager"].includes(name) ? name : "map";
  }
  const changed = showScreen(screen);
  if (user && changed) byId(`screen-${screen}`).querySelector("h1")?.focus({ preventScroll: false });
  if (screen === "map") await fleet.load();
  if (ticket !== routes) return;
  if (screen === "rental") rental.render();
  if (screen === "profile") {
    profile.render();
    await profile.loadHistory();
  }
  if (screen === "manager") await manager.load();
}

async function signedIn() {
  await refreshMe();
  startWatching();
  await route({ user: true });
}

async function signOut() {
  stopWatching?.();
  stopWatching = null;
  dismissConfirmation();
  await auth.signOut();
  state.me = null;
  state.signer = null;
  location.hash = "";
  await route();
}

/** The connection's state in the header: the node's latest block, or that it does not answer (and since when). */
function showConnection(next, why) {
  state.connection = next;
  const badge = byId("connection");
  badge.dataset.state = next;
  show(badge);
  if (next === "offline") {
    byId("connection-text").textContent = "Offline: the node does not answer. Retrying…";
    byId("connection-block").textContent = "";
    badge.title = why;
  } else {
    byId("connection-text").textContent = "Connected";
    badge.title = "";
  }
  document.body.classList.toggle("offline", next === "offline");
}

/** On every new block: the profile (credit, rental), the open screen's data. */
function startWatching() {
  stopWatching?.();
  const refresh = async () => {
    if (!auth.session.current) return;
    try {
      await refreshMe();
      const screen = document.body.dataset.screen;
      if (screen === "setup") account.renderSetup();
      if (screen === "map") await fleet.load();
      if (screen === "rental") rental.render();
      if (screen === "profile") {
        profile.render();
        await profile.loadHistory();
      }
      if (screen === "manager" && manager.isManager()) await manager.load();
    } catch (error) {
      // While the node is away the badge says so; one error line per outage is enough.
      if (state.connection !== "offline") showError(error);
    }
  };
  stopWatching = watchHeads((block) => {
    byId("connection-block").textContent = ` · block ${block}`;
    refresh();
  }, {
    pollMs: state.config?.pollIntervalMs ?? 1000,
    socket: state.config.signing !== "browser",
    onConnection: (next, why) => {
      const was = state.connection;
      showConnection(next, why);
      if (next === "online" && was === "offline") {
        clearMessages();
        refresh();
      }
    },
  });
}

async function boot() {
  metrics.marks.start = performance.now();
  // The configuration, the profile and the fleet are asked for at once (a returning user sees the map sooner).
  auth.session.load();
  const configuration = api.config();
  const early = auth.session.current ? { me: api.me().catch((error) => error), cars: api.cars({}).catch(() => null) } : null;
  try {
    state.config = await configuration;
  } catch (error) {
    show(byId("loading"), false);
    showError(error);
    return;
  }
  auth.configure(state.config.auth);
  describeMode();
  account.init(signedIn);
  fleet.init();
  rental.init();
  profile.init();
  manager.init();
  on("me", () => {
    rental.render();
    profile.render();
    fleet.renderCredit();
    if (state.me) byId("who").textContent = whoText(state.me);
  });
  on("changed", async () => {
    try {
      await refreshMe();
      await route();
    } catch (error) {
      showError(error);
    }
  });
  byId("sign-out").addEventListener("click", signOut);
  byId("error-close").addEventListener("click", () => show(byId("error"), false));
  window.addEventListener("hashchange", () => {
    clearMessages();
    dismissConfirmation();
    route({ user: true }).catch(showError);
  });
  try {
    if (auth.session.current) {
      await refreshMe(early?.me);
      fleet.prefetched(await early?.cars);
      startWatching();
    }
    await route();
  } catch (error) {
    showError(error);
    showScreen("signin");
  } finally {
    show(byId("loading"), false);
  }
}

/** Says on the page which mode this is: the dev node's keys on the server, or a real network where the browser signs. */
function describeMode() {
  const config = state.config;
  const network = config.network ? `${config.network} (chain ${config.chainId})` : `chain ${config.chainId}`;
  byId("mode").textContent = config.signing === "browser"
    ? `${network}. Your account key stays in your browser (or your wallet): this server holds none.`
    : `Development node, ${network}. For convenience the server keeps each account's key, encrypted with its wallet passphrase: do not use it for real funds.`;
  byId("mode").dataset.signing = config.signing;
  if (!config.contract && config.noContract) showError(config.noContract);
}

boot();
