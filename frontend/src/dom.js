// Small DOM helpers: build elements without innerHTML, so stored text is never markup.

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/** `h("li#id.row", {dataset: {id}}, "text", child)`: an element with props and children. */
export function h(tag, props = {}, ...children) {
  const [head, ...classes] = tag.split(".");
  const [name, id] = head.split("#");
  const el = document.createElement(name);
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key in el && key !== "list") el[key] = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

let statusTimer;
/** A message in the status line (errors stay until the next message). */
export function say(message, { error = false } = {}) {
  const status = $("#status");
  status.textContent = message;
  status.classList.toggle("error", error);
  clearTimeout(statusTimer);
  if (!error && message) statusTimer = setTimeout(() => (status.textContent = ""), 4000);
}

export function qualityClass(quality) {
  if (quality > 0) return "q-pos";
  if (quality < 0) return "q-neg";
  return "q-neutral";
}

export function short(text, length = 140) {
  const flat = String(text || "").replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}
