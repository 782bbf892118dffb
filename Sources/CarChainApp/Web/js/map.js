// The fleet map: an interactive SVG in Web-Mercator projection (the projection FleetMap draws the CLI's SVG with),
// no tiles and nothing from elsewhere. Drag or arrow keys pan, the wheel, +/- and the buttons zoom; pins are
// coloured by availability; a click on a pin selects the car, a click elsewhere picks a position (the manager
// places a new car that way). Each redraw updates the pins in place and records its duration in
// window.carchainMetrics.redraws (the speed test reads it).

import { svg } from "./dom.js";

const EARTH_RADIUS = 6371008.8;
const STEPS = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000];
/** Above this many pins, plates are drawn only when zoomed in enough to read them. */
const LABEL_LIMIT = 80;

/** Redraw durations: `redraws` the script's part, `frames` until the next frame starts (style, layout and paint of
 * the redrawn map included). */
export const metrics = (window.carchainMetrics ??= { redraws: [], frames: [], marks: {} });

/** Latitude/longitude → world coordinates in [0, 1]² (x east, y south). */
export function project(latitude, longitude) {
  const phi = (latitude * Math.PI) / 180;
  return { x: (longitude + 180) / 360, y: (1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2 };
}

/** World coordinates → latitude/longitude. */
export function unproject(x, y) {
  return { latitude: (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI, longitude: x * 360 - 180 };
}

/** The great-circle distance in metres (haversine), as the server computes it. */
export function haversine(a, b) {
  const rad = Math.PI / 180;
  const dPhi = (b.latitude - a.latitude) * rad;
  const dLambda = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dPhi / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLambda / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
}

export class MapView {
  /**
   * @param {SVGSVGElement} element the map's <svg>
   * @param {{onSelect?: (plate: string) => void, onPick?: (point: {latitude: number, longitude: number}) => void}} handlers
   */
  constructor(element, { onSelect, onPick } = {}) {
    this.element = element;
    this.onSelect = onSelect;
    this.onPick = onPick;
    this.cars = [];
    this.pins = new Map();
    this.center = project(40.4168, -3.7038);
    this.scale = 1 << 22; // pixels per world unit
    this.selected = null;
    this.you = null;
    this.radius = null;
    this.picked = null;
    this.frame = 0;
    this.layers = {
      background: element.appendChild(svg("rect", { class: "map-bg", x: 0, y: 0, width: "100%", height: "100%" })),
      grid: element.appendChild(svg("g", { class: "map-grid", "aria-hidden": "true" })),
      area: element.appendChild(svg("g", { class: "map-area", "aria-hidden": "true" })),
      pins: element.appendChild(svg("g", { class: "map-pins" })),
      marks: element.appendChild(svg("g", { class: "map-marks", "aria-hidden": "true" })),
      scale: element.appendChild(svg("g", { class: "map-scale", "aria-hidden": "true" })),
      legend: element.appendChild(svg("g", { class: "map-legend", "aria-hidden": "true" })),
    };
    this.drawLegend();
    this.attachInput();
    new ResizeObserver(() => this.schedule()).observe(element);
  }

  /** The pixel size of the map (measured once per redraw: measuring forces a layout). */
  get size() {
    if (this.frozenSize) return this.frozenSize;
    const box = this.element.getBoundingClientRect();
    return { width: Math.max(1, box.width), height: Math.max(1, box.height) };
  }

  /** Shows `cars` ({plate, latitude, longitude, status}); the first call fits the view to them. */
  setCars(cars, { fit = false } = {}) {
    // World coordinates once per car, not per redraw.
    for (const car of cars) car.world = project(car.latitude, car.longitude);
    this.cars = cars;
    if (fit) this.fit(cars.map((car) => ({ latitude: car.latitude, longitude: car.longitude })).concat(this.you ? [this.you] : []));
    this.redraw();
  }

  /** Updates statuses only ({plate: status}). */
  setStatuses(statuses) {
    for (const car of this.cars) if (statuses[car.plate]) car.status = statuses[car.plate];
    this.redraw();
  }

  /** Centres and zooms so every point fits, with a margin. */
  fit(points) {
    if (!points.length) return;
    const world = points.map((p) => project(p.latitude, p.longitude));
    const xs = world.map((p) => p.x);
    const ys = world.map((p) => p.y);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    this.center = { x: (minX + maxX) / 2, y: (minY + maxY) / 2 };
    const { width, height } = this.size;
    // At least about 500 m across, so one car alone is shown with its surroundings.
    const spanX = Math.max(maxX - minX, 1.6e-5);
    const spanY = Math.max(maxY - minY, 1.6e-5);
    this.scale = Math.min((width - 80) / spanX, (height - 80) / spanY, 1 << 27);
  }

  setYou(point) { this.you = point; this.schedule(); }
  setRadius(metres) { this.radius = metres; this.schedule(); }
  setPicked(point) { this.picked = point; this.schedule(); }
  select(plate) { this.selected = plate; this.redraw(); }

  /** Moves the view by pixels. */
  panBy(dx, dy) {
    this.center = { x: this.center.x - dx / this.scale, y: this.center.y - dy / this.scale };
    this.schedule();
  }

  /** Zooms by `factor` around the pixel (px, py) (default: the centre). */
  zoomBy(factor, px, py) {
    const { width, height } = this.size;
    px ??= width / 2;
    py ??= height / 2;
    const before = this.toWorld(px, py);
    this.scale = Math.min(Math.max(this.scale * factor, 64), 1 << 28);
    const after = this.toWorld(px, py);
    this.center = { x: this.center.x + before.x - after.x, y: this.center.y + before.y - after.y };
    this.schedule();
  }

  toWorld(px, py) {
    const { width, height } = this.size;
    return { x: this.center.x + (px - width / 2) / this.scale, y: this.center.y + (py - height / 2) / this.scale };
  }

  toPixel(latitude, longitude) {
    const { width, height } = this.size;
    const p = project(latitude, longitude);
    return { x: (p.x - this.center.x) * this.scale + width / 2, y: (p.y - this.center.y) * this.scale + height / 2 };
  }

  /** The position at the middle of the map. */
  centerPoint() { return unproject(this.center.x, this.center.y); }

  /** Metres per pixel at the view's latitude. */
  metresPerPixel() {
    const { latitude } = this.centerPoint();
    return (2 * Math.PI * EARTH_RADIUS * Math.cos((latitude * Math.PI) / 180)) / this.scale;
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.redraw();
    });
  }

  /** Draws everything at the current view; the pins are updated in place, and only what changed is written. */
  redraw() {
    const started = performance.now();
    this.frozenSize = null;
    this.frozenSize = this.size;
    const { width, height } = this.frozenSize;
    this.drawGrid(width, height);
    this.drawArea();
    const labels = this.cars.length <= LABEL_LIMIT || this.metresPerPixel() < 1.5;
    const seen = new Set();
    for (const car of this.cars) {
      seen.add(car.plate);
      let pin = this.pins.get(car.plate);
      if (!pin) {
        pin = svg("g", { class: "pin", "data-plate": car.plate });
        const title = svg("title");
        pin.append(svg("circle", { r: 9 }), svg("text", { x: 12, y: 4 }), title);
        this.layers.pins.append(pin);
        this.pins.set(car.plate, pin);
      }
      const x = (car.world.x - this.center.x) * this.scale + width / 2;
      const y = (car.world.y - this.center.y) * this.scale + height / 2;
      const visible = x > -40 && y > -40 && x < width + 40 && y < height + 40;
      const state = pin.drawn ?? (pin.drawn = {});
      if (visible) {
        const transform = `translate(${x.toFixed(1)} ${y.toFixed(1)})`;
        if (state.transform !== transform) pin.setAttribute("transform", (state.transform = transform));
      }
      const className = `pin ${car.status}${car.plate === this.selected ? " selected" : ""}`;
      if (state.className !== className) pin.setAttribute("class", (state.className = className));
      if (state.visible !== visible) pin.setAttribute("visibility", (state.visible = visible) ? "visible" : "hidden");
      const label = labels && visible ? car.plate : "";
      if (state.label !== label) pin.children[1].textContent = state.label = label;
      const title = `${car.plate}: ${car.status}`;
      if (state.title !== title) pin.children[2].textContent = state.title = title;
    }
    for (const [plate, pin] of this.pins) {
      if (!seen.has(plate)) {
        pin.remove();
        this.pins.delete(plate);
      }
    }
    this.drawMarks();
    this.frozenSize = null;
    metrics.redraws.push(performance.now() - started);
    requestAnimationFrame(() => metrics.frames.push(performance.now() - started));
    if (metrics.redraws.length > 2000) metrics.redraws.splice(0, 1000);
    if (metrics.frames.length > 2000) metrics.frames.splice(0, 1000);
  }

  drawGrid(width, height) {
    const perPixel = this.metresPerPixel();
    const step = STEPS.find((metres) => metres / perPixel >= 90) ?? STEPS[STEPS.length - 1];
    const stepPixels = step / perPixel;
    const origin = this.toPixel(0, 0);
    const lines = [];
    const offsetX = ((origin.x % stepPixels) + stepPixels) % stepPixels;
    const offsetY = ((origin.y % stepPixels) + stepPixels) % stepPixels;
    for (let x = offsetX; x < width; x += stepPixels) lines.push(`M${x.toFixed(1)} 0V${height}`);
    for (let y = offsetY; y < height; y += stepPixels) lines.push(`M0 ${y.toFixed(1)}H${width}`);
    let path = this.layers.grid.firstChild;
    if (!path) path = this.layers.grid.appendChild(svg("path"));
    path.setAttribute("d", lines.join(""));
    // The scale bar: one grid step.
    this.layers.scale.replaceChildren(
      svg("rect", { x: 12, y: height - 26, width: stepPixels, height: 6 }),
      Object.assign(svg("text", { x: 12, y: height - 32 }), { textContent: step >= 1000 ? `${step / 1000} km` : `${step} m` }),
    );
  }

  /** The colours' meaning, in the top left corner. */
  drawLegend() {
    const entries = [["available", "available"], ["rented", "rented"], ["mine", "yours"], ["off-chain", "not on chain"]];
    this.layers.legend.append(svg("rect", { x: 8, y: 8, width: 120, height: 16 + entries.length * 18, rx: 6 }));
    entries.forEach(([status, label], i) => {
      const row = svg("g", { class: `pin ${status}`, transform: `translate(22 ${24 + i * 18})` });
      row.append(svg("circle", { r: 6 }), Object.assign(svg("text", { x: 12, y: 4 }), { textContent: label }));
      this.layers.legend.append(row);
    });
  }

  drawArea() {
    this.layers.area.replaceChildren();
    if (!this.you || !this.radius) return;
    const { x, y } = this.toPixel(this.you.latitude, this.you.longitude);
    const r = this.radius / this.metresPerPixel();
    this.layers.area.append(svg("circle", { cx: x, cy: y, r: Math.max(r, 2), class: "radius" }));
  }

  drawMarks() {
    this.layers.marks.replaceChildren();
    if (this.you) {
      const { x, y } = this.toPixel(this.you.latitude, this.you.longitude);
      this.layers.marks.append(svg("circle", { cx: x, cy: y, r: 7, class: "you" }));
    }
    if (this.picked) {
      const { x, y } = this.toPixel(this.picked.latitude, this.picked.longitude);
      this.layers.marks.append(svg("path", { d: `M${x} ${y}l-9 -20h18z`, class: "picked" }));
    }
  }

  attachInput() {
    const element = this.element;
    let drag = null;
    element.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      drag = { x: event.clientX, y: event.clientY, moved: 0, target: event.target };
      element.setPointerCapture(event.pointerId);
    });
    element.addEventListener("pointermove", (event) => {
      if (!drag) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      drag.moved += Math.abs(dx) + Math.abs(dy);
      drag.x = event.clientX;
      drag.y = event.clientY;
      if (drag.moved > 4) this.panBy(dx, dy);
    });
    element.addEventListener("pointerup", (event) => {
      const ended = drag;
      drag = null;
      if (!ended || ended.moved > 4) return;
      const pin = ended.target.closest?.(".pin[data-plate]");
      if (pin && this.onSelect) {
        this.onSelect(pin.dataset.plate);
        return;
      }
      if (this.onPick) {
        const box = element.getBoundingClientRect();
        const world = this.toWorld(event.clientX - box.left, event.clientY - box.top);
        this.onPick(unproject(world.x, world.y));
      }
    });
    element.addEventListener("pointercancel", () => { drag = null; });
    element.addEventListener("wheel", (event) => {
      event.preventDefault();
      const box = element.getBoundingClientRect();
      this.zoomBy(event.deltaY < 0 ? 1.25 : 0.8, event.clientX - box.left, event.clientY - box.top);
    }, { passive: false });
    element.addEventListener("keydown", (event) => {
      const moves = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] };
      if (moves[event.key]) this.panBy(...moves[event.key]);
      else if (event.key === "+" || event.key === "=") this.zoomBy(1.25);
      else if (event.key === "-") this.zoomBy(0.8);
      else if (event.key === "Enter" && this.onPick) this.onPick(this.centerPoint());
      else return;
      event.preventDefault();
    });
  }
}
