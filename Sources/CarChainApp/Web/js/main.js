// The CarChain web app: boots with the node's configuration and the saved session, routes between the screens
// (#/map, #/rental, #/profile, #/manager), and keeps the map and "my rental" current as blocks arrive.

import { api, isSignedOut } from "./api.js";
import * as auth from "./auth.js";
import { byId, show } from "./dom.js";
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

function showScreen(name) {
  for (const screen of SCREENS) show(byId(`screen-${screen}`), screen === name);
  for (const link of byId("nav").querySelectorAll("a[data-screen]")) {
    if (link.dataset.screen === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.body.dataset.screen = name;
}

/** Reads the signed-in user's profile (or takes the answer of a request already made); signs out when the session is
 * gone. */
async function refreshMe(answer) {
  try {
    const me = await (answer ?? api.me());
    if (me instanceof Error) throw me;
    state.me = me;
    state.walletSigns = !state.me.serverHoldsKey && Boolean(wallet.provider());
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

async function route() {
  const signedIn = Boolean(auth.session.current);
  show(byId("nav"), signedIn && Boolean(state.me?.registered));
  if (!signedIn || !state.me) {
    showScreen("signin");
    return;
  }
  if (!state.me.address || !state.me.registered) {
    byId("setup-email").textContent = state.me.email;
    showScreen("setup");
    return;
  }
  byId("who").textContent = `${state.me.email} · ${state.me.role}`;
  show(byId("nav-manager"), state.me.role === "manager");
  const name = location.hash.replace(/^#\//, "") || "map";
  const screen = ["map", "rental", "profile", "manager"].includes(name) ? name : "map";
  showScreen(screen);
  if (screen === "map") await fleet.load();
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
  await route();
}

async function signOut() {
  stopWatching?.();
  stopWatching = null;
  await auth.signOut();
  state.me = null;
  location.hash = "";
  await route();
}

/** On every new block: the map's availability, the profile (credit, rental), the open screen's data. */
function startWatching() {
  stopWatching?.();
  stopWatching = watchHeads(async () => {
    if (!auth.session.current) return;
    try {
      await refreshMe();
      const screen = document.body.dataset.screen;
      if (screen === "map") await fleet.load();
      if (screen === "rental") rental.render();
      if (screen === "profile") {
        profile.render();
        await profile.loadHistory();
      }
      if (screen === "manager" && manager.isManager()) await manager.load();
    } catch (error) {
      showError(error);
    }
  }, { pollMs: state.config?.pollIntervalMs ?? 1000 });
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
  account.init(signedIn);
  fleet.init();
  rental.init();
  profile.init();
  manager.init();
  on("me", () => {
    rental.render();
    profile.render();
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
  window.addEventListener("hashchange", () => {
    clearMessages();
    route().catch(showError);
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

boot();
