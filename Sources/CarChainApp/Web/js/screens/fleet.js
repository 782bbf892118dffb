// The map screen: the cars on an interactive map and in a list beside it, a search by plate, a "near me" radius
// filter, and a car's sheet (above the list, never over it) with Rent (or Return, for the car you rent) and your credit
// with Buy credit. Choosing a car moves the focus to its sheet; leaving the screen closes it.

import { api } from "../api.js";
import { byId, distance, fill, h, show } from "../dom.js";
import { MapView, metrics } from "../map.js";
import { announce, showError, showNotice, state } from "../state.js";
import { buyCredit, outcomeNotice, returnCar, transact } from "../transact.js";

let view = null;
let cars = [];
let you = null;
let selected = null;
let fitted = false;
let searchTimer = 0;
/** Answers of GET /cars are applied in the order asked: an older one arriving late is dropped. */
let asked = 0;

export function init() {
  view = new MapView(byId("map"), { onSelect: (plate) => select(plate, { focus: true }), tiles: state.config.tiles, attribution: byId("map-attribution") });
  byId("search").addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => load(), 200);
  });
  byId("map-tools").addEventListener("submit", (event) => {
    event.preventDefault();
    load();
  });
  byId("radius").addEventListener("change", () => {
    view.setRadius(you ? Number(byId("radius").value) || null : null);
    load();
  });
  byId("only-available").addEventListener("change", () => load());
  byId("near-me").addEventListener("click", nearMe);
  byId("zoom-in").addEventListener("click", () => view.zoomBy(1.5));
  byId("zoom-out").addEventListener("click", () => view.zoomBy(1 / 1.5));
  byId("sheet-close").addEventListener("click", () => {
    const plate = selected;
    select(null);
    byId("car-list").querySelector(`li[data-plate="${CSS.escape(plate ?? "")}"] button`)?.focus();
  });
  byId("sheet-rent").addEventListener("click", (event) => rent(event.currentTarget));
  byId("sheet-return").addEventListener("click", (event) => returnCar(selected, event.currentTarget));
  byId("sheet-buy").addEventListener("click", (event) => buyCredit(3, event.currentTarget));
}

let early = null;

/** Keeps an answer of GET /cars (no filters) asked for while the page started, for the first load. */
export function prefetched(answer) {
  early = answer;
}

/** Leaving the screen: the sheet closes (it belongs to this screen's choice). */
export function leave() {
  if (selected) select(null);
}

/** Reads the cars for the current filters and redraws the map and the list. */
export async function load() {
  const query = {};
  const search = byId("search").value.trim();
  if (search) query.q = search;
  if (you) {
    query.near = `${you.latitude},${you.longitude}`;
    const radius = byId("radius").value;
    if (radius) query.radius = radius;
  }
  if (byId("only-available").checked) query.available = "true";
  const ticket = ++asked;
  try {
    const unfiltered = Object.keys(query).length === 0;
    const answer = unfiltered && early ? early : await api.cars(query);
    early = null;
    if (ticket !== asked) return;
    cars = answer.cars;
    // The map fits itself once it is on screen with a size (MapView waits for that).
    view.setCars(cars, { fit: !fitted && cars.length > 0 });
    if (cars.length) fitted = true;
    renderList(answer);
    renderSheet();
    if (metrics.marks.mapReady === undefined && cars.length) {
      metrics.marks.mapReady = performance.now();
      performance.mark("carchain-map-ready");
    }
    announce("cars", answer);
  } catch (error) {
    if (ticket === asked) showError(error);
  }
}

function renderList(answer) {
  const shown = answer.cars.length === answer.total ? `${answer.total} cars` : `${answer.cars.length} of ${answer.total} cars shown`;
  byId("map-summary").textContent = `${shown} · ${answer.available} available · block ${answer.block}`;
  fill(byId("car-list"), answer.cars.map((car) =>
    h("li", { class: `car ${car.status}`, "data-plate": car.plate },
      h("button", { type: "button", onclick: () => select(car.plate, { focus: true }), "aria-pressed": car.plate === selected ? "true" : "false" },
        h("span", { class: "plate" }, car.plate),
        h("span", { class: "status" }, statusText(car.status)),
        car.distanceMetres !== undefined ? h("span", { class: "distance" }, distance(car.distanceMetres)) : null))));
}

export function statusText(status) {
  return { available: "available", rented: "rented", mine: "rented by you", "off-chain": "not on chain" }[status] ?? status;
}

/** Chooses a car (null: none); with `focus`, the focus follows to its sheet. */
function select(plate, { focus = false } = {}) {
  selected = plate;
  view.select(plate);
  renderSheet();
  for (const button of byId("car-list").querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(button.parentElement.dataset.plate === plate));
  }
  if (focus && plate && !byId("car-sheet").hidden) {
    const heading = byId("sheet-plate");
    heading.focus({ preventScroll: true });
    byId("car-sheet").scrollIntoView({ block: "nearest" });
  }
}

function renderSheet() {
  const car = cars.find((c) => c.plate === selected);
  show(byId("car-sheet"), Boolean(car));
  if (!car) return;
  byId("sheet-plate").textContent = car.plate;
  byId("sheet-status").textContent = `Status: ${statusText(car.status)}`;
  byId("sheet-status").dataset.status = car.status;
  byId("sheet-distance").textContent = car.distanceMetres !== undefined ? `${distance(car.distanceMetres)} from you` : "";
  const isUser = state.me?.role !== "manager";
  const rent = byId("sheet-rent");
  show(rent, isUser && car.status !== "mine");
  if (!rent.hasAttribute("aria-busy")) rent.disabled = car.status !== "available";
  show(byId("sheet-return"), car.status === "mine");
  show(byId("sheet-credit"), isUser);
  byId("sheet-credit-value").textContent = state.me?.credit ?? "–";
}

async function rent(button) {
  const plate = selected;
  if (!plate) return;
  try {
    const outcome = await transact("rent", { plate }, { title: `Rent ${plate}`, text: `Rent car ${plate} for 1 credit.`, button });
    if (!outcome) return;
    outcomeNotice(`You rented ${plate}`, outcome);
    announce("changed");
  } catch (error) {
    showError(error);
  }
}

/** Keeps the sheet's credit current (the profile changes on every block). */
export function renderCredit() {
  if (selected) renderSheet();
}

/** "Near me": the browser's position when it gives one, else the fleet's centre (said so). */
function nearMe() {
  const button = byId("near-me");
  if (you) {
    you = null;
    button.setAttribute("aria-pressed", "false");
    view.setYou(null);
    view.setRadius(null);
    load();
    return;
  }
  const use = (point, note) => {
    you = point;
    button.setAttribute("aria-pressed", "true");
    view.setYou(point);
    view.setRadius(Number(byId("radius").value) || null);
    if (note) showNotice(note);
    load();
  };
  const fallback = () => use(state.config.center, "Your browser gave no position: distances are from the fleet's centre.");
  if (!navigator.geolocation) return fallback();
  navigator.geolocation.getCurrentPosition(
    (position) => use({ latitude: position.coords.latitude, longitude: position.coords.longitude }),
    fallback,
    { timeout: 3000 },
  );
}
