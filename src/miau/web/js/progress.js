// The player's progress in figures, from `GET /api/worlds`: one world's
// state when its last level is won (the world-complete card), and the
// overall view over the shipped worlds (world select).

/** The number of required levels of `world` won (older servers send `won` alone). */
export function requiredWon(world) {
  return world.requiredWon ?? Math.min(world.won, world.required);
}

/** Whether every required level of `world` is won. */
export function isComplete(world) {
  return requiredWon(world) >= world.required;
}

/**
 * The shipped worlds in figures: `{won, levels, worldsComplete, worlds}`
 * (levels won of all levels, worlds whose required levels are all won).
 */
export function overallProgress(worlds) {
  const shipped = worlds.filter((world) => !world.imported);
  return {
    won: shipped.reduce((sum, world) => sum + world.won, 0),
    levels: shipped.reduce((sum, world) => sum + world.levels, 0),
    worldsComplete: shipped.filter(isComplete).length,
    worlds: shipped.length,
  };
}

/**
 * What the win card says when the level just won is the last of its world
 * (the next level is in another world, or there is none): `null` otherwise.
 * `{world, complete, remaining, overall, nextWorld}`: the world's entry,
 * whether every required level is won, how many required ones are left,
 * the overall figures and the next world's entry (or null).
 */
export function worldCompletion(worlds, packId, next) {
  if (next && next.pack === packId) return null;
  const world = worlds.find((entry) => entry.id === packId);
  if (!world) return null;
  const nextWorld = next ? worlds.find((entry) => entry.id === next.pack) || null : null;
  return {
    world,
    complete: isComplete(world),
    remaining: Math.max(0, world.required - requiredWon(world)),
    overall: overallProgress(worlds),
    nextWorld,
  };
}
