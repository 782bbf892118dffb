// The manager's view: the contract's counters, the fleet's utilisation over time, the users, and registering a car
// by clicking its position on a map. Every read and write here is refused by the server for anyone but the manager;
// a user who opens this view sees that refusal.

import { api } from "../api.js";
import { drawUtilisation } from "../chart.js";
import { byId, fill, formValues, h, shortAddress } from "../dom.js";
import { MapView } from "../map.js";
import { announce, showError, showNotice, state } from "../state.js";
import { outcomeNotice, transact } from "../transact.js";

let view = null;
let picked = null;

export function init() {
  view = new MapView(byId("manager-map"), { onPick: pick, tiles: state.config.tiles, attribution: byId("manager-map-attribution") });
  byId("form-register").addEventListener("submit", register);
}

function pick(point) {
  picked = point;
  view.setPicked(point);
  byId("register-position").textContent = `at ${point.latitude.toFixed(5)}, ${point.longitude.toFixed(5)}`;
}

/** Loads the counters, the chart, the users and the map's cars. Someone else who opens this view sees none of the
 * manager's controls, only the server's refusal. */
export async function load() {
  const manager = isManager();
  for (const part of byId("screen-manager").querySelectorAll(".manager-only")) part.hidden = !manager;
  if (!manager) {
    try {
      await api.users();
    } catch (error) {
      showError(error);
    }
    return;
  }
  try {
    const [stats, users] = await Promise.all([api.stats(), api.users()]);
    fill(byId("manager-stats"), [
      ["users", stats.registeredUsers], ["cars", stats.registeredCars], ["rented", stats.rentedCars], ["available", stats.availableCars],
    ].map(([label, value]) => h("div", { class: "stat" }, h("strong", { "data-stat": label }, value), h("span", {}, label))));
    // The series ends at the last change; the chart carries it on to the head.
    const points = stats.utilisation.slice();
    const last = points[points.length - 1];
    if (last && last.block < stats.block) points.push({ ...last, block: stats.block });
    drawUtilisation(byId("utilisation"), points);
    fill(byId("users"), users.users.map((user) => h("tr", { "data-uid": user.uid },
      h("td", {}, user.email ?? user.uid), h("td", { class: "mono", title: user.address ?? "" }, shortAddress(user.address)),
      h("td", {}, user.credit), h("td", {}, user.car ?? "–"))));
    const cars = await api.cars({});
    // The first load fits the fleet; a car added later (here or elsewhere) refits when it is out of view.
    view.setCars(cars.cars, { fit: !view.cars.length });
  } catch (error) {
    showError(error);
  }
}

async function register(event) {
  event.preventDefault();
  const { plate } = formValues(event.target);
  if (!picked) {
    showError("Click the map where the car is first.");
    return;
  }
  const fields = { plate: plate.trim().toUpperCase(), latitude: picked.latitude, longitude: picked.longitude };
  try {
    const outcome = await transact("registerCar", fields, {
      title: `Register ${fields.plate}`,
      text: `Register car ${fields.plate} at ${fields.latitude.toFixed(5)}, ${fields.longitude.toFixed(5)}.`,
      button: event.target.querySelector("button[type=submit]"),
    });
    if (!outcome) return;
    if (outcome.status === "pending") {
      outcomeNotice(`Car ${fields.plate} is registered`, outcome);
      return;
    }
    showNotice(`Car ${fields.plate} is registered (block ${outcome.blockNumber}).`);
    event.target.reset();
    picked = null;
    view.setPicked(null);
    byId("register-position").textContent = "no position picked";
    announce("changed");
    load();
  } catch (error) {
    showError(error);
  }
}

export function isManager() {
  return state.me?.role === "manager";
}
