// Starting Pyodide with Miau in a worker, shared by the static site's engine
// (site-worker.js) and its studio (studio-worker.js). Everything comes from
// this site: the runtime under pyodide/, Miau's packages in miau.zip and, when
// the build could make one, a memory snapshot of the runtime with Miau already
// imported (miau-snapshot.bin.gz), which starts about four times faster.

import { loadPyodide } from "../pyodide/pyodide.mjs";

const RUNTIME = new URL("../pyodide/", import.meta.url);
const ENGINE_ZIP = new URL("../miau.zip", import.meta.url);
const SNAPSHOT = new URL("../miau-snapshot.bin.gz", import.meta.url);
const DOWNLOADS = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs"];
export const EXTRACT_DIR = "/home/pyodide/miau-site"; // as miau.site.build.EXTRACT_DIR

/** The site's own address (where share links lead). */
export const SITE_ADDRESS = new URL("../", import.meta.url).href;

async function readAll(response, onBytes) {
  const reader = response.body.getReader();
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    onBytes(value.length);
  }
  return new Blob(chunks);
}

// The runtime's big files, the engine zip and the snapshot, fetched once with
// their progress told; Pyodide then finds its files in the browser's cache.
async function download(onFraction) {
  const urls = [...DOWNLOADS.map((name) => new URL(name, RUNTIME)), ENGINE_ZIP, SNAPSHOT];
  const responses = await Promise.all(urls.map((url) => fetch(url)));
  const total = responses.reduce((sum, each) => sum + (each.ok ? Number(each.headers.get("content-length") || 0) : 0), 0);
  let received = 0;
  const bodies = [];
  for (const [index, response] of responses.entries()) {
    if (!response.ok) {
      if (urls[index] === SNAPSHOT) {
        bodies.push(null); // a site built without Node has none: start the long way
        continue;
      }
      throw new Error(`${response.url} answered ${response.status}`);
    }
    bodies.push(
      await readAll(response, (bytes) => {
        received += bytes;
        onFraction(total ? Math.min(received / total, 1) : 0);
      }),
    );
  }
  const [engineZip, snapshot] = bodies.slice(-2);
  return { engineZip: await engineZip.arrayBuffer(), snapshot };
}

// The build's id, as miau.site.build.build_id gives it: the start of the
// engine zip's SHA-256 (null where the page has no crypto.subtle, on a plain
// http address other than localhost).
async function buildId(engineZip) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", engineZip));
  return Array.from(digest.slice(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function unzip(blob) {
  const inflated = blob.stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
}

/**
 * Pyodide with Miau importable; `onProgress(fraction, label)` hears how far
 * it got. Resolves with `{pyodide, timings, build}` (ms since the worker began,
 * by stage; the build's id, see buildId).
 */
export async function startRuntime(onProgress = () => {}) {
  const timings = {};
  const stage = (name) => {
    timings[name] = Math.round(performance.now());
  };
  onProgress(0, "Loading Miau");
  const { engineZip, snapshot } = await download((fraction) => onProgress(fraction * 0.6, "Loading Miau"));
  stage("downloaded");
  const build = buildId(engineZip); // digest() copies the bytes now, before unpacking takes them
  onProgress(0.6, "Starting the engine");
  let pyodide = null;
  if (snapshot) {
    try {
      pyodide = await loadPyodide({ indexURL: RUNTIME.href, packages: [], _loadSnapshot: await unzip(snapshot) });
    } catch {
      pyodide = null; // a snapshot this runtime cannot take: start the long way
    }
  }
  timings.snapshot = pyodide !== null;
  pyodide ??= await loadPyodide({ indexURL: RUNTIME.href, packages: [] });
  stage("runtime");
  pyodide.unpackArchive(engineZip, "zip", { extractDir: EXTRACT_DIR });
  pyodide.runPython(`import sys\nif ${JSON.stringify(EXTRACT_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(EXTRACT_DIR)})\n`);
  stage("imported");
  return { pyodide, timings, build: await build };
}
