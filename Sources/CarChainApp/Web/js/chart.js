// The fleet's utilisation over time (from the contract's events): cars registered and cars rented after each block
// that changed them, as two step lines in an SVG. No chart library: the axes are drawn here.

import { svg } from "./dom.js";

/** Draws `points` ([{block, registered, rented}]) into `element` (an <svg>). */
export function drawUtilisation(element, points) {
  const width = 640;
  const height = 240;
  const margin = { left: 44, right: 16, top: 16, bottom: 36 };
  element.setAttribute("viewBox", `0 0 ${width} ${height}`);
  element.replaceChildren();
  if (!points.length) {
    element.append(Object.assign(svg("text", { x: width / 2, y: height / 2, "text-anchor": "middle", class: "empty" }), {
      textContent: "No car registered yet",
    }));
    return;
  }
  const first = points[0].block;
  const last = Math.max(points[points.length - 1].block, first + 1);
  const top = Math.max(1, ...points.map((p) => p.registered));
  const x = (block) => margin.left + ((block - first) / (last - first)) * (width - margin.left - margin.right);
  const y = (value) => height - margin.bottom - (value / top) * (height - margin.top - margin.bottom);
  const step = (key) => points.map((p, i) => `${i ? "H" : "M"}${x(p.block).toFixed(1)} ${i ? "" : y(p[key]).toFixed(1)}${i ? `V${y(p[key]).toFixed(1)}` : ""}`).join("");

  const axes = svg("g", { class: "axes" });
  axes.append(svg("path", { d: `M${margin.left} ${margin.top}V${height - margin.bottom}H${width - margin.right}` }));
  for (const value of [0, Math.round(top / 2), top]) {
    axes.append(Object.assign(svg("text", { x: margin.left - 6, y: y(value) + 4, "text-anchor": "end" }), { textContent: String(value) }));
  }
  for (const block of [first, Math.round((first + last) / 2), last]) {
    axes.append(Object.assign(svg("text", { x: x(block), y: height - margin.bottom + 16, "text-anchor": "middle" }), { textContent: String(block) }));
  }
  axes.append(Object.assign(svg("text", { x: (width + margin.left) / 2, y: height - 4, "text-anchor": "middle" }), { textContent: "block" }));
  element.append(axes, svg("path", { d: step("registered"), class: "series registered" }), svg("path", { d: step("rented"), class: "series rented" }));
}
