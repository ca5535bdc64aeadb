// Wires the scenes to the address: `#/` title, `#/worlds`, `#/world/PACK`,
// `#/play/PACK/LEVEL`, `#/library`, `#/shared/CODE`, `#/edit` and
// `#/edit/PACK/LEVEL`. A reload keeps the scene because the scene is the hash.

import { h } from "./dom.js";
import * as title from "./scenes/title.js";
import * as worlds from "./scenes/worlds.js";
import * as levels from "./scenes/levels.js";
import * as play from "./scenes/play.js";
import * as library from "./scenes/library.js";
import { clearToasts } from "./toast.js";

// The editor is big and only authors open it: loaded when its route is shown.
const editor = () => import("./scenes/editor.js");

const ROUTES = [
  { pattern: /^\/?$/, scene: title, names: [] },
  { pattern: /^\/worlds\/?$/, scene: worlds, names: [] },
  { pattern: /^\/world\/([^/]+)\/?$/, scene: levels, names: ["pack"] },
  { pattern: /^\/play\/([^/]+)\/([^/]+)\/?$/, scene: play, names: ["pack", "level"] },
  { pattern: /^\/library\/?$/, scene: library, names: [] },
  // Any text after /shared/: a damaged code gets the server's plain sentence, not the title.
  { pattern: /^\/shared\/(.*)$/, scene: play, names: ["share"] },
  { pattern: /^\/edit\/?$/, load: editor, names: [] },
  { pattern: /^\/edit\/([^/]+)\/([^/]+)\/?$/, load: editor, names: ["pack", "level"] },
];

const app = document.getElementById("app");
let leaving = null; // AbortController of the scene on screen

function navigate(path, { replace = false } = {}) {
  const hash = `#${path}`;
  if (location.hash === hash) {
    show();
    return;
  }
  // The new scene is mounted now, not on the hashchange event a task later: a key
  // pressed in between would reach the scene being left (a won level drops it), so
  // the first moves pressed after "Next level" were lost. pushState fires no
  // hashchange; Back and Forward still do.
  if (replace) history.replaceState(null, "", hash);
  else history.pushState(null, "", hash);
  show();
}

function decodeSegment(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a stray "%": keep the text as typed
  }
}

function match(path) {
  for (const route of ROUTES) {
    const found = route.pattern.exec(path);
    if (!found) continue;
    const params = {};
    route.names.forEach((name, index) => {
      params[name] = decodeSegment(found[index + 1]);
    });
    return { route, params };
  }
  return null;
}

function show() {
  leaving?.abort();
  leaving = new AbortController();
  clearToasts();
  const path = location.hash.replace(/^#/, "") || "/";
  const found = match(path);
  if (!found) {
    navigate("/", { replace: true });
    return;
  }
  const root = document.createElement("div");
  app.replaceChildren(root);
  window.scrollTo(0, 0);
  const { signal } = leaving;
  if (found.route.scene) {
    found.route.scene.mount(root, found.params, { navigate, signal });
    return;
  }
  found.route
    .load()
    .then((scene) => {
      if (!signal.aborted) scene.mount(root, found.params, { navigate, signal });
    })
    .catch(() => {
      if (signal.aborted) return;
      root.className = "scene menu-scene";
      root.replaceChildren(
        h(
          "div",
          { class: "card error-card message-panel", role: "alert" },
          h("h1", {}, "This part of the game could not be loaded"),
          h("p", {}, "Reload the page to try again."),
          h(
            "button",
            { class: "button", type: "button", onclick: () => navigate("/worlds") },
            "Back to worlds",
          ),
        ),
      );
    });
}

window.addEventListener("hashchange", show);
show();
