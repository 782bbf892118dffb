// The fleet's utilisation over time (from the contract's events): cars registered and cars rented after each block
// that changed them, as two step lines in an SVG. No chart library: the axes are drawn here, with whole-number ticks
// at an even step (none skipped).

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
  const counts = ticks(0, Math.max(1, ...points.map((p) => p.registered)), 5);
  const top = counts[counts.length - 1];
  const x = (block) => margin.left + ((block - first) / (last - first)) * (width - margin.left - margin.right);
  const y = (value) => height - margin.bottom - (value / top) * (height - margin.top - margin.bottom);
  const step = (key) => points.map((p, i) => `${i ? "H" : "M"}${x(p.block).toFixed(1)} ${i ? "" : y(p[key]).toFixed(1)}${i ? `V${y(p[key]).toFixed(1)}` : ""}`).join("");

  const axes = svg("g", { class: "axes" });
  axes.append(svg("path", { d: `M${margin.left} ${margin.top}V${height - margin.bottom}H${width - margin.right}` }));
  for (const value of counts) {
    axes.append(svg("path", { class: "tick", d: `M${margin.left - 3} ${y(value).toFixed(1)}H${width - margin.right}` }));
    axes.append(Object.assign(svg("text", { x: margin.left - 6, y: y(value) + 4, "text-anchor": "end" }), { textContent: String(value) }));
  }
  // The first and last block, and round blocks between them that leave room for their labels.
  const between = ticks(first, last, 4).filter((block) => x(block) - x(first) > 40 && x(last) - x(block) > 40);
  for (const block of [first, ...between, last]) {
    axes.append(Object.assign(svg("text", { x: x(block), y: height - margin.bottom + 16, "text-anchor": "middle" }), { textContent: String(block) }));
  }
  axes.append(Object.assign(svg("text", { x: (width + margin.left) / 2, y: height - 4, "text-anchor": "middle" }), { textContent: "block" }));
  element.append(axes, svg("path", { d: step("registered"), class: "series registered" }), svg("path", { d: step("rented"), class: "series rented" }));
}

/**
 * Whole-number axis ticks from `low` covering `high`: every value when there are few, else a round step (1, 2 or 5
 * times a power of ten) so that no value between two ticks is skipped unevenly. The last tick is ≥ `high`.
 */
export function ticks(low, high, most) {
  const span = Math.max(1, high - low);
  let step = 1;
  // Bounded: the step grows tenfold every three tries.
  for (let i = 0; i < 60 && span / step > most; i++) step = [1, 2, 5][(i + 1) % 3] * 10 ** Math.floor((i + 1) / 3);
  const start = Math.ceil(low / step) * step;
  const out = [];
  if (start !== low) out.push(low);
  for (let value = start; value < high + step && out.length < most + 3; value += step) out.push(value);
  return out;
}
