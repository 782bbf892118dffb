// Small DOM helpers: building elements, showing and hiding, formatting numbers for people.

/** The element with this id (throws when the page lacks it: a broken page should fail loudly). */
export function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`missing element #${id}`);
  return element;
}

/** Creates an element: h("li", {class: "car", "data-plate": p}, "text", child). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

const SVG = "http://www.w3.org/2000/svg";

/** Creates an SVG element with attributes. */
export function svg(tag, attributes = {}) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

export function show(element, visible = true) { element.hidden = !visible; }

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}

/** 1234567 → "1,234,567". */
export function number(value) {
  return Number(value).toLocaleString("en-US");
}

/** Metres as "350 m" or "1.25 km". */
export function distance(metres) {
  if (metres < 1000) return `${Math.round(metres)} m`;
  return `${(metres / 1000).toFixed(2).replace(/\.?0+$/, "")} km`;
}

/**
 * An amount of ETH (a decimal string with up to 18 decimals, as the API sends it) for reading: three significant
 * digits below 1 ETH, four decimals above, trailing zeros dropped; "< 0.000001" for dust. The exact value belongs in
 * a title.
 */
export function eth(text) {
  const value = Number(text);
  if (!Number.isFinite(value)) return String(text);
  if (value === 0) return "0";
  if (Math.abs(value) < 0.000001) return "< 0.000001";
  const shown = Math.abs(value) >= 1 ? value.toFixed(4) : value.toPrecision(3);
  // toPrecision never uses exponents between 1e-6 and 1; trailing zeros of the fraction go.
  return shown.includes(".") ? shown.replace(/\.?0+$/, "") : shown;
}

/** 0x1234…abcd. */
export function shortAddress(address) {
  return address ? `${address.slice(0, 6)}…${address.slice(-4)}` : "–";
}

/** The form's fields as an object of strings. */
export function formValues(form) {
  return Object.fromEntries(new FormData(form).entries());
}
