// Which engine port this page has: the static site (built by `miau build-site`)
// flags its page with <meta name="miau-port" content="site">, and then the
// engine, the API and progress all live in the page (engine-port-pyodide.js);
// otherwise the Python server answers. This is the one place that decides.
// Outside a page (the client's unit tests under Node) there is no document:
// that is the server's port.

/** Whether this page is the static site, with the engine running in the page. */
export const isStaticSite =
  typeof document !== "undefined" &&
  document.querySelector('meta[name="miau-port"][content="site"]') !== null;
