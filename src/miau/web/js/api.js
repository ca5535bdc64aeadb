// The HTTP JSON calls: worlds, one world, one level, progress.

/** An API call that failed; `status` is the HTTP status (0 when offline). */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

async function getJson(path) {
  let response;
  try {
    response = await fetch(path, { headers: { Accept: "application/json" } });
  } catch {
    throw new ApiError(0, "The game server cannot be reached.");
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, body?.error || `The server answered ${response.status}.`);
  }
  return body;
}

const segment = encodeURIComponent;

/** Every world, in the shipped order, with the player's progress. */
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

/** The player's progress on every level played. */
export async function progress() {
  return (await getJson("/api/progress")).levels;
}
