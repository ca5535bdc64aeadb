// A small element builder, so scenes read like the markup they make.

/**
 * Creates an element: `h("button", {class: "primary", onclick}, "Play")`.
 * Attributes starting with "on" become listeners, `dataset` an object of
 * data attributes, `class` the class name; `false`/null attributes are left
 * out; children may be strings, nodes, arrays or null.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      element.className = value;
    } else if (name === "dataset") {
      Object.assign(element.dataset, value);
    } else if (name === "style" && typeof value === "object") {
      for (const [property, setting] of Object.entries(value)) element.style.setProperty(property, setting);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** A button label with its key shown beside it: `Undo [Z]`. */
export function keyLabel(label, key) {
  return [h("span", { class: "label" }, label), h("kbd", {}, key)];
}

/**
 * Lets the arrow keys move focus between the `selector` items of
 * `container` by their place on screen (a grid of cards), until `signal`
 * aborts.
 */
export function arrowFocus(container, selector, signal) {
  const deltas = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  container.addEventListener(
    "keydown",
    (event) => {
      const delta = deltas[event.key];
      if (!delta || event.ctrlKey || event.metaKey || event.altKey) return;
      const items = [...container.querySelectorAll(selector)];
      const from = event.target instanceof Element ? event.target.closest(selector) : null;
      if (!from || !items.includes(from)) return;
      event.preventDefault();
      const origin = centre(from.getBoundingClientRect());
      let best = null;
      let bestScore = Infinity;
      for (const item of items) {
        if (item === from) continue;
        const point = centre(item.getBoundingClientRect());
        const along = (point.x - origin.x) * delta[0] + (point.y - origin.y) * delta[1];
        if (along <= 4) continue;
        const across = Math.abs((point.x - origin.x) * delta[1]) + Math.abs((point.y - origin.y) * delta[0]);
        const score = along + across * 2;
        if (score < bestScore) {
          bestScore = score;
          best = item;
        }
      }
      best?.focus();
    },
    { signal },
  );
}

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}
