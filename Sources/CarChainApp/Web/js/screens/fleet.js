// The map screen: the cars on an interactive map and in a list beside it, a search by plate, a "near me" radius
// filter, and a car's sheet with Rent (or Return, for the car you rent).

import { api } from "../api.js";
import { byId, distance, fill, h, show } from "../dom.js";
import { MapView, metrics } from "../map.js";
import { announce, showError, showNotice, state } from "../state.js";
import { returnCar, transact } from "../transact.js";

let view = null;
let cars = [];
let you = null;
let selected = null;
let fitted = false;
let searchTimer = 0;

export function init() {
  view = new MapView(byId("map"), { onSelect: select });
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
  byId("sheet-close").addEventListener("click", () => select(null));
  byId("sheet-rent").addEventListener("click", rent);
  byId("sheet-return").addEventListener("click", returnSelected);
}

let early = null;

/** Keeps an answer of GET /cars (no filters) asked for while the page started, for the first load. */
export function prefetched(answer) {
  early = answer;
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
  try {
    const unfiltered = Object.keys(query).length === 0;
    const answer = unfiltered && early ? early : await api.cars(query);
    early = null;
    cars = answer.cars;
    view.setCars(cars, { fit: !fitted && cars.length > 0 });
    if (cars.length) fitted = true;
    renderList(answer);
    if (selected) renderSheet();
    if (metrics.marks.mapReady === undefined && cars.length) {
      metrics.marks.mapReady = performance.now();
      performance.mark("carchain-map-ready");
    }
    announce("cars", answer);
  } catch (error) {
    showError(error);
  }
}

function renderList(answer) {
  const shown = answer.cars.length === answer.total ? `${answer.total} cars` : `${answer.cars.length} of ${answer.total} cars shown`;
  byId("map-summary").textContent = `${shown} · ${answer.available} available · block ${answer.block}`;
  fill(byId("car-list"), answer.cars.map((car) =>
    h("li", { class: `car ${car.status}`, "data-plate": car.plate },
      h("button", { type: "button", onclick: () => select(car.plate), "aria-pressed": car.plate === selected ? "true" : "false" },
        h("span", { class: "plate" }, car.plate),
        h("span", { class: "status" }, statusText(car.status)),
        car.distanceMetres !== undefined ? h("span", { class: "distance" }, distance(car.distanceMetres)) : null))));
}

export function statusText(status) {
  return { available: "available", rented: "rented", mine: "rented by you", "off-chain": "not on chain" }[status] ?? status;
}

function select(plate) {
  selected = plate;
  view.select(plate);
  renderSheet();
  for (const button of byId("car-list").querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(button.parentElement.dataset.plate === plate));
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
  show(byId("sheet-rent"), isUser && car.status !== "mine");
  byId("sheet-rent").disabled = car.status !== "available";
  show(byId("sheet-return"), car.status === "mine");
}

async function rent() {
  const plate = selected;
  try {
    const outcome = await transact("rent", { plate }, { title: `Rent ${plate}`, text: `Rent car ${plate} for 1 credit.` });
    if (!outcome) return;
    showNotice(`You rented ${plate} (block ${outcome.blockNumber}, fee ${outcome.feeEth ?? ""} ETH).`);
    announce("changed");
  } catch (error) {
    showError(error);
  }
}

function returnSelected() {
  return returnCar(selected);
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
