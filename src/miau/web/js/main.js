// Wires the scenes to the address: `#/` title, `#/worlds`, `#/world/PACK`,
// `#/play/PACK/LEVEL`. A reload keeps the scene because the scene is the hash.

import * as title from "./scenes/title.js";
import * as worlds from "./scenes/worlds.js";
import * as levels from "./scenes/levels.js";
import * as play from "./scenes/play.js";
import { clearToasts } from "./toast.js";

const ROUTES = [
  { pattern: /^\/?$/, scene: title, names: [] },
  { pattern: /^\/worlds\/?$/, scene: worlds, names: [] },
  { pattern: /^\/world\/([^/]+)\/?$/, scene: levels, names: ["pack"] },
  { pattern: /^\/play\/([^/]+)\/([^/]+)\/?$/, scene: play, names: ["pack", "level"] },
];

const app = document.getElementById("app");
let leaving = null; // AbortController of the scene on screen

function navigate(path, { replace = false } = {}) {
  const hash = `#${path}`;
  if (location.hash === hash) {
    show();
  } else if (replace) {
    history.replaceState(null, "", hash);
    show();
  } else {
    location.hash = hash;
  }
}

function match(path) {
  for (const route of ROUTES) {
    const found = route.pattern.exec(path);
    if (!found) continue;
    const params = {};
    route.names.forEach((name, index) => {
      params[name] = decodeURIComponent(found[index + 1]);
    });
    return { scene: route.scene, params };
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
  found.scene.mount(root, found.params, { navigate, signal: leaving.signal });
}

window.addEventListener("hashchange", show);
show();
