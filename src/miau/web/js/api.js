// The HTTP JSON calls: worlds, levels and progress; the player's library of
// imported packs; shared levels (decoding a link's code, encoding a level).
// On the static site the same calls are answered in the page
// (engine-port-pyodide.js).

import { siteRequest } from "./engine-port-pyodide.js";
import { isStaticSite } from "./site.js";

/**
 * An API call that failed; `status` is the HTTP status (0 when offline) and
 * `body` the server's JSON answer, if any (`problems`, `code`, ...).
 */
export class ApiError extends Error {
  constructor(status, message, body = null) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

async function siteAnswer(path, method, body) {
  const { status, body: answer } = await siteRequest(method, path, body);
  if (status >= 400) throw new ApiError(status, answer?.error || `The page's engine answered ${status}.`, answer);
  return answer;
}

async function request(path, { method = "GET", body = undefined } = {}) {
  if (isStaticSite) return siteAnswer(path, method, body);
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "The game server cannot be reached.");
  }
  let answer = null;
  try {
    answer = await response.json();
  } catch {
    answer = null;
  }
  if (!response.ok) {
    const message =
      answer?.error ||
      (response.status === 413 ? "That is too big for the server." : `The server answered ${response.status}.`);
    throw new ApiError(response.status, message, answer);
  }
  return answer;
}

const getJson = (path) => request(path);
const segment = encodeURIComponent;

/** Every world, shipped ones first, then library packs (`imported: true`), with the player's progress. */
export async function worlds() {
  return (await getJson("/api/worlds")).worlds;
}

/** One world: palette, glossary and its levels with progress and locks. */
export function world(pack) {
  return getJson(`/api/worlds/${segment(pack)}`);
}

/** One level, for drawing: size, objects, automata, pairs, properties, next. */
export function level(pack, levelId) {
  return getJson(`/api/worlds/${segment(pack)}/levels/${segment(levelId)}`);
}

let vocabulariesAsked = null;

/**
 * The words each vocabulary feature brings (`{"vocabulary-1": {operators,
 * nouns, properties, glossary}}`), asked once per page.
 */
export function vocabularies() {
  vocabulariesAsked ??= getJson("/api/vocabularies").catch((error) => {
    vocabulariesAsked = null;
    throw error;
  });
  return vocabulariesAsked;
}

/** The player's progress on every level played. */
export async function progress() {
  return (await getJson("/api/progress")).levels;
}

/** The player's library: `[{id, name, version, description, levels, author}]`, by id. */
export async function listLibrary() {
  return (await getJson("/api/library")).packs;
}

/**
 * Imports a pack file's text into the library; resolves with `{pack,
 * replaced, warnings}`. Rejects with an ApiError whose `body` says why:
 * 400 `{problems}` (every problem with its place), 409 `{code: "exists",
 * existing, incoming, newer}` (ask, then call again with `replace: true`),
 * 409 `{code: "shipped"}`, 413 (over 1 MiB).
 */
export function importPack(text, { replace = false } = {}) {
  return request("/api/library", { method: "POST", body: { text, replace } });
}

/** Removes a pack from the library: resolves with `{deleted: id}`. */
export function deleteLibraryPack(pack) {
  return request(`/api/library/${segment(pack)}`, { method: "DELETE" });
}

/** The address that downloads a library pack as a JSON file. */
export function exportUrl(pack) {
  return `/api/library/${segment(pack)}/export`;
}

/**
 * Adds or replaces level `levelId` of library pack `pack` with the level of
 * `onePack` (a one-level pack), creating the pack if needed; resolves with
 * `{pack: summary, level: id}`, rejects with 400 `{problems}`.
 */
export function putLevel(pack, levelId, onePack) {
  return request(`/api/library/${segment(pack)}/levels/${segment(levelId)}`, {
    method: "PUT",
    body: { pack: onePack },
  });
}

/**
 * Decodes a share link's code on the server (nothing is stored): resolves
 * with `{world, level, pack}`; rejects with an ApiError whose message is a
 * plain sentence for the player (and `body.problems` when the loader refused it).
 */
export function openShared(code) {
  return request("/api/shared", { method: "POST", body: { code } });
}

/** Encodes a one-level pack as a share code: resolves with `{code, link}`. */
export function encodeShare(onePack) {
  return request("/api/shared/encode", { method: "POST", body: { pack: onePack, base: siteAddress() } });
}

// The page's own address without its route: a site published under a path
// (https://HOST/PATH/) keeps the path.
function siteAddress() {
  return new URL("./", location.href).href;
}

/** The share link of a code, on this page's own address. */
export function shareLink(code) {
  return `${siteAddress()}#/shared/${code}`;
}

/**
 * The one-level pack of level `levelId` of world `pack` (shipped or
 * imported), as the server's loader makes it: the level with its stored
 * solution, the palette nouns and glossary words it uses and the features it
 * needs. A link made from it is the one `miau share` prints.
 */
export async function levelPack(pack, levelId) {
  return (await getJson(`/api/worlds/${segment(pack)}/levels/${segment(levelId)}/pack`)).pack;
}
