// The fleet map: an interactive SVG in Web-Mercator projection (the projection FleetMap draws the CLI's SVG with).
// Offline it draws a grid; with a tile server configured (`--map-tiles`) it lays XYZ raster tiles under the pins and
// shows their attribution. Drag or arrow keys pan, the wheel, +/- and the buttons zoom; pins are coloured by
// availability; plates are placed where they overlap neither another plate nor a pin (the rest are left out and read
// in the pin's title and the list); a click on a pin selects the car, a click elsewhere picks a position (the manager
// places a new car that way). Each redraw updates the pins in place and records its duration in
// window.carchainMetrics.redraws (the speed test reads it).
//
// The geometry cannot go wrong: the view is fitted only while the map is on screen with a real size (a fit asked for
// while it is hidden waits for it to be shown), the scale stays finite and in range, and every loop is bounded.

import { svg } from "./dom.js";

const EARTH_RADIUS = 6371008.8;
const STEPS = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000];
/** Pixels per world unit: the whole world in 256 px at least, about 4 cm a pixel at most. */
const MIN_SCALE = 256;
const MAX_SCALE = 2 ** 28;
/** A map smaller than this is not laid out (hidden, or in a collapsed container): nothing is fitted or drawn. */
const MIN_SIZE = 40;
/** Plates considered for placement per redraw (the nearest to the centre first); tiles drawn at most. */
const LABEL_LIMIT = 400;
const TILE_LIMIT = 96;
const TILE_SIZE = 256;
/** Grid lines per direction at most. */
const GRID_LIMIT = 200;
const PRIORITY = { mine: 0, available: 1, rented: 2, "off-chain": 3 };

/** Redraw durations: `redraws` the script's part, `frames` until the next frame starts (style, layout and paint of
 * the redrawn map included). */
export const metrics = (window.carchainMetrics ??= { redraws: [], frames: [], marks: {} });

/** Latitude/longitude → world coordinates in [0, 1]² (x east, y south). */
export function project(latitude, longitude) {
  const phi = (Math.max(-85, Math.min(85, latitude)) * Math.PI) / 180;
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

const finite = (...values) => values.every(Number.isFinite);

export class MapView {
  /**
   * @param {SVGSVGElement} element the map's <svg>
   * @param {{onSelect?: (plate: string) => void, onPick?: (point: {latitude: number, longitude: number}) => void,
   *   tiles?: {template: string, attribution: string, maxZoom: number} | null, attribution?: HTMLElement}} options
   */
  constructor(element, { onSelect, onPick, tiles = null, attribution = null } = {}) {
    this.element = element;
    this.onSelect = onSelect;
    this.onPick = onPick;
    this.tiles = tiles;
    this.cars = [];
    this.fleet = "";
    this.pins = new Map();
    this.tileImages = new Map();
    this.center = project(40.4168, -3.7038);
    this.scale = 1 << 22;
    this.pendingFit = null;
    this.selected = null;
    this.you = null;
    this.radius = null;
    this.picked = null;
    this.frame = 0;
    this.layers = {
      background: element.appendChild(svg("rect", { class: "map-bg", x: 0, y: 0, width: "100%", height: "100%" })),
      tiles: element.appendChild(svg("g", { class: "map-tiles", "aria-hidden": "true" })),
      grid: element.appendChild(svg("g", { class: "map-grid", "aria-hidden": "true" })),
      area: element.appendChild(svg("g", { class: "map-area", "aria-hidden": "true" })),
      pins: element.appendChild(svg("g", { class: "map-pins" })),
      marks: element.appendChild(svg("g", { class: "map-marks", "aria-hidden": "true" })),
      scale: element.appendChild(svg("g", { class: "map-scale", "aria-hidden": "true" })),
    };
    if (tiles && attribution) {
      attribution.textContent = tiles.attribution;
      attribution.hidden = false;
    }
    element.classList.toggle("tiled", Boolean(tiles));
    this.attachInput();
    new ResizeObserver(() => this.schedule()).observe(element);
  }

  /** The map's pixel size, or null when it is not laid out at a usable size (hidden, collapsed). */
  measure() {
    if (this.frozenSize !== undefined && this.frozenSize !== null) return this.frozenSize;
    if (!this.element.isConnected) return null;
    const box = this.element.getBoundingClientRect();
    if (!(box.width >= MIN_SIZE && box.height >= MIN_SIZE)) return null;
    return { width: box.width, height: box.height };
  }

  /** The size to compute with when the map is not laid out (nothing is drawn then). */
  get size() {
    return this.measure() ?? { width: 640, height: 480 };
  }

  /**
   * Shows `cars` ({plate, latitude, longitude, status}). With `fit`, the view fits them; otherwise it refits when the
   * fleet changed (a car added or removed) and a car is outside the view.
   */
  setCars(cars, { fit = false } = {}) {
    // World coordinates once per car, not per redraw.
    for (const car of cars) car.world = project(car.latitude, car.longitude);
    const fleet = cars.map((car) => car.plate).sort().join(",");
    const changed = fleet !== this.fleet;
    this.cars = cars;
    this.fleet = fleet;
    if (fit || (changed && cars.length && !this.showsAll())) this.fit(this.fitPoints());
    this.schedule();
  }

  fitPoints() {
    return this.cars.map((car) => ({ latitude: car.latitude, longitude: car.longitude })).concat(this.you ? [this.you] : []);
  }

  /** Whether every car is in view (with a margin). */
  showsAll() {
    const size = this.measure();
    if (!size) return false;
    return this.cars.every((car) => {
      const x = (car.world.x - this.center.x) * this.scale + size.width / 2;
      const y = (car.world.y - this.center.y) * this.scale + size.height / 2;
      return x >= 24 && y >= 24 && x <= size.width - 24 && y <= size.height - 24;
    });
  }

  /** Updates statuses only ({plate: status}). */
  setStatuses(statuses) {
    for (const car of this.cars) if (statuses[car.plate]) car.status = statuses[car.plate];
    this.schedule();
  }

  /** Centres and zooms so every point fits, with a margin. While the map is not laid out the fit waits for it. */
  fit(points) {
    if (!points.length) return;
    const size = this.measure();
    if (!size) {
      this.pendingFit = points;
      return;
    }
    this.pendingFit = null;
    const world = points.map((p) => project(p.latitude, p.longitude)).filter((p) => finite(p.x, p.y));
    if (!world.length) return;
    let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const p of world) {
      minX = Math.min(minX, p.x);
      maxX = Math.max(maxX, p.x);
      minY = Math.min(minY, p.y);
      maxY = Math.max(maxY, p.y);
    }
    this.center = { x: (minX + maxX) / 2, y: (minY + maxY) / 2 };
    // At least about 500 m across, so one car alone is shown with its surroundings; a margin for the pins and labels.
    const spanX = Math.max(maxX - minX, 1.6e-5);
    const spanY = Math.max(maxY - minY, 1.6e-5);
    const margin = Math.min(96, size.width / 4, size.height / 4);
    this.setScale(Math.min((size.width - 2 * margin) / spanX, (size.height - 2 * margin) / spanY));
  }

  /** Sets the scale if it is a usable one (finite, positive), kept in range. */
  setScale(scale) {
    if (!Number.isFinite(scale) || scale <= 0) return;
    this.scale = Math.min(Math.max(scale, MIN_SCALE), MAX_SCALE);
  }

  setYou(point) { this.you = point; this.schedule(); }
  setRadius(metres) { this.radius = metres; this.schedule(); }
  setPicked(point) { this.picked = point; this.schedule(); }
  select(plate) { this.selected = plate; this.schedule(); }

  /** Moves the view by pixels. */
  panBy(dx, dy) {
    if (!finite(dx, dy)) return;
    this.center = {
      x: Math.min(Math.max(this.center.x - dx / this.scale, 0), 1),
      y: Math.min(Math.max(this.center.y - dy / this.scale, 0), 1),
    };
    this.schedule();
  }

  /** Zooms by `factor` around the pixel (px, py) (default: the centre). */
  zoomBy(factor, px, py) {
    const { width, height } = this.size;
    px ??= width / 2;
    py ??= height / 2;
    if (!finite(factor, px, py) || factor <= 0) return;
    const before = this.toWorld(px, py);
    this.setScale(this.scale * factor);
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

  /** Draws everything at the current view; the pins are updated in place, and only what changed is written. Nothing
   * is drawn while the map is not laid out (a fit asked for meanwhile is made first when it is). */
  redraw() {
    const started = performance.now();
    this.frozenSize = null;
    const size = this.measure();
    if (!size) return;
    if (this.pendingFit) this.fit(this.pendingFit);
    this.frozenSize = size;
    const { width, height } = size;
    this.drawTiles(width, height);
    this.drawGrid(width, height);
    this.drawArea();
    const seen = new Set();
    const shown = [];
    for (const car of this.cars) {
      seen.add(car.plate);
      let pin = this.pins.get(car.plate);
      if (!pin) {
        pin = svg("g", { class: "pin", "data-plate": car.plate });
        pin.append(svg("circle", { r: 9 }), svg("text", { x: 12, y: 4 }), svg("title"));
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
        shown.push({ car, pin, x, y });
      }
      const className = `pin ${car.status}${car.plate === this.selected ? " selected" : ""}`;
      if (state.className !== className) pin.setAttribute("class", (state.className = className));
      if (state.visible !== visible) pin.setAttribute("visibility", (state.visible = visible) ? "visible" : "hidden");
      const title = `${car.plate}: ${car.status}`;
      if (state.title !== title) pin.children[2].textContent = state.title = title;
    }
    const labels = this.placeLabels(shown, width, height);
    for (const car of this.cars) {
      const pin = this.pins.get(car.plate);
      const state = pin.drawn;
      const place = labels.get(car.plate);
      const label = place ? car.plate : "";
      if (state.label !== label) pin.children[1].textContent = state.label = label;
      const anchor = place ? `${place.x} ${place.y} ${place.anchor}` : "";
      if (place && state.anchor !== anchor) {
        state.anchor = anchor;
        pin.children[1].setAttribute("x", place.x);
        pin.children[1].setAttribute("y", place.y);
        pin.children[1].setAttribute("text-anchor", place.anchor);
      }
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

  /**
   * Where each plate goes: to the right of its pin, else left, above or below, wherever it overlaps no plate placed
   * before it and no other pin (selected car first, then yours, available, rented; nearer the centre first). A plate
   * with no free place is left out. Returns plate → {x, y, anchor} relative to the pin.
   */
  placeLabels(shown, width, height) {
    const placed = new Map();
    const cell = 64;
    const grid = new Map();
    const key = (cx, cy) => `${cx},${cy}`;
    const insert = (box) => {
      for (let cx = Math.floor(box.left / cell); cx <= Math.floor(box.right / cell); cx++) {
        for (let cy = Math.floor(box.top / cell); cy <= Math.floor(box.bottom / cell); cy++) {
          const list = grid.get(key(cx, cy));
          if (list) list.push(box);
          else grid.set(key(cx, cy), [box]);
        }
      }
    };
    const free = (box) => {
      if (box.left < 2 || box.top < 2 || box.right > width - 2 || box.bottom > height - 2) return false;
      for (let cx = Math.floor(box.left / cell); cx <= Math.floor(box.right / cell); cx++) {
        for (let cy = Math.floor(box.top / cell); cy <= Math.floor(box.bottom / cell); cy++) {
          for (const other of grid.get(key(cx, cy)) ?? []) {
            if (box.left < other.right && other.left < box.right && box.top < other.bottom && other.top < box.bottom) return false;
          }
        }
      }
      return true;
    };
    // Every pin is an obstacle (its circle), so no plate covers another car.
    for (const { x, y } of shown) insert({ left: x - 10, right: x + 10, top: y - 10, bottom: y + 10 });
    const cx = width / 2;
    const cy = height / 2;
    const order = shown
      .map((entry) => ({
        ...entry,
        rank: entry.car.plate === this.selected ? -1 : PRIORITY[entry.car.status] ?? 4,
        distance: (entry.x - cx) ** 2 + (entry.y - cy) ** 2,
      }))
      .sort((a, b) => a.rank - b.rank || a.distance - b.distance)
      .slice(0, LABEL_LIMIT);
    for (const { car, x, y } of order) {
      const w = car.plate.length * 7.6 + 4;
      const candidates = [
        { dx: 12, dy: 4, anchor: "start", box: { left: x + 11, right: x + 11 + w, top: y - 8, bottom: y + 7 } },
        { dx: -12, dy: 4, anchor: "end", box: { left: x - 11 - w, right: x - 11, top: y - 8, bottom: y + 7 } },
        { dx: 0, dy: -14, anchor: "middle", box: { left: x - w / 2, right: x + w / 2, top: y - 26, bottom: y - 11 } },
        { dx: 0, dy: 24, anchor: "middle", box: { left: x - w / 2, right: x + w / 2, top: y + 11, bottom: y + 27 } },
      ];
      const spot = candidates.find((candidate) => free(candidate.box));
      if (!spot) continue;
      insert(spot.box);
      placed.set(car.plate, { x: spot.dx, y: spot.dy, anchor: spot.anchor });
    }
    return placed;
  }

  drawGrid(width, height) {
    const perPixel = this.metresPerPixel();
    let path = this.layers.grid.firstChild;
    if (!path) path = this.layers.grid.appendChild(svg("path"));
    if (!(perPixel > 0) || !Number.isFinite(perPixel)) {
      path.setAttribute("d", "");
      return;
    }
    const step = STEPS.find((metres) => metres / perPixel >= 90) ?? STEPS[STEPS.length - 1];
    const stepPixels = Math.max(step / perPixel, width / GRID_LIMIT, 1);
    const lines = [];
    if (!this.tiles) {
      const origin = this.toPixel(0, 0);
      const offsetX = ((origin.x % stepPixels) + stepPixels) % stepPixels;
      const offsetY = ((origin.y % stepPixels) + stepPixels) % stepPixels;
      for (let i = 0, x = offsetX; i < GRID_LIMIT && x < width; i++, x += stepPixels) lines.push(`M${x.toFixed(1)} 0V${height}`);
      for (let i = 0, y = offsetY; i < GRID_LIMIT && y < height; i++, y += stepPixels) lines.push(`M0 ${y.toFixed(1)}H${width}`);
    }
    path.setAttribute("d", lines.join(""));
    // The scale bar: one grid step.
    const bar = step / perPixel;
    this.layers.scale.replaceChildren(
      svg("rect", { class: "scale-back", x: 6, y: height - 46, width: Math.min(bar, width - 24) + 12, height: 40, rx: 4 }),
      svg("rect", { x: 12, y: height - 18, width: Math.min(bar, width - 24), height: 6 }),
      Object.assign(svg("text", { x: 12, y: height - 26 }), { textContent: step >= 1000 ? `${step / 1000} km` : `${step} m` }),
    );
  }

  /** The raster tiles of the view (XYZ, 256 px), at the zoom nearest the view's; at most TILE_LIMIT of them. */
  drawTiles(width, height) {
    if (!this.tiles) return;
    const maxZoom = Math.max(0, Math.min(22, Number(this.tiles.maxZoom) || 19));
    let zoom = Math.max(0, Math.min(maxZoom, Math.round(Math.log2(this.scale / TILE_SIZE))));
    let count = 0;
    let range = null;
    // A zoom whose tiles cover the view with at most TILE_LIMIT of them (a bounded search downwards).
    for (let tries = 0; tries < 23; tries++) {
      const n = 2 ** zoom;
      const left = this.center.x - width / 2 / this.scale;
      const top = this.center.y - height / 2 / this.scale;
      range = {
        n,
        x0: Math.floor(left * n), x1: Math.floor((left + width / this.scale) * n),
        y0: Math.max(0, Math.floor(top * n)), y1: Math.min(n - 1, Math.floor((top + height / this.scale) * n)),
      };
      count = (range.x1 - range.x0 + 1) * (range.y1 - range.y0 + 1);
      if (count <= TILE_LIMIT || zoom === 0) break;
      zoom -= 1;
    }
    if (!range || count > TILE_LIMIT) return;
    const size = this.scale / range.n;
    const wanted = new Set();
    for (let tx = range.x0; tx <= range.x1; tx++) {
      for (let ty = range.y0; ty <= range.y1; ty++) {
        const wrapped = ((tx % range.n) + range.n) % range.n;
        const id = `${zoom}/${tx}/${ty}`;
        wanted.add(id);
        let image = this.tileImages.get(id);
        if (!image) {
          const href = this.tiles.template.replaceAll("{z}", String(zoom)).replaceAll("{x}", String(wrapped)).replaceAll("{y}", String(ty));
          image = svg("image", { href, preserveAspectRatio: "none", "data-tile": `${zoom}/${wrapped}/${ty}` });
          this.layers.tiles.append(image);
          this.tileImages.set(id, image);
        }
        const x = (tx / range.n - this.center.x) * this.scale + width / 2;
        const y = (ty / range.n - this.center.y) * this.scale + height / 2;
        // Half a pixel of overlap hides the seams between tiles.
        image.setAttribute("x", x.toFixed(1));
        image.setAttribute("y", y.toFixed(1));
        image.setAttribute("width", (size + 0.5).toFixed(1));
        image.setAttribute("height", (size + 0.5).toFixed(1));
      }
    }
    for (const [id, image] of this.tileImages) {
      if (!wanted.has(id)) {
        image.remove();
        this.tileImages.delete(id);
      }
    }
  }

  drawArea() {
    this.layers.area.replaceChildren();
    if (!this.you || !this.radius) return;
    const { x, y } = this.toPixel(this.you.latitude, this.you.longitude);
    const r = this.radius / this.metresPerPixel();
    if (!finite(x, y, r)) return;
    this.layers.area.append(svg("circle", { cx: x, cy: y, r: Math.min(Math.max(r, 2), 1e6), class: "radius" }));
  }

  drawMarks() {
    this.layers.marks.replaceChildren();
    if (this.you) {
      const { x, y } = this.toPixel(this.you.latitude, this.you.longitude);
      if (finite(x, y)) this.layers.marks.append(svg("circle", { cx: x, cy: y, r: 7, class: "you" }));
    }
    if (this.picked) {
      const { x, y } = this.toPixel(this.picked.latitude, this.picked.longitude);
      if (finite(x, y)) this.layers.marks.append(svg("path", { d: `M${x} ${y}l-9 -20h18z`, class: "picked" }));
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
      if (this.onPick && this.measure()) {
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
