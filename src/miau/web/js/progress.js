// The player's progress in figures, from `GET /api/worlds`: one world's
// state when its last level or its last required level still to win is
// won (the world-complete card), and the overall view over the shipped
// worlds (world select).

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
 * What the win card says of the world after a win: `null` unless the level
 * just won is the last of its world (the next level is in another world, or
 * there is none) or `completes` says this win completed the world's
 * required levels. `{world, complete, remaining, overall, nextWorld,
 * opened}`: the world's entry, whether every required level is won, how
 * many required ones are left, the overall figures, the next world's entry
 * (or null) and, once complete, the worlds this one opens (their
 * `opensAfter` is this world).
 */
export function worldCompletion(worlds, packId, next, { completes = false } = {}) {
  if (!completes && next && next.pack === packId) return null;
  const world = worlds.find((entry) => entry.id === packId);
  if (!world) return null;
  const nextWorld = next && next.pack !== packId ? worlds.find((entry) => entry.id === next.pack) || null : null;
  const complete = isComplete(world);
  return {
    world,
    complete,
    remaining: Math.max(0, world.required - requiredWon(world)),
    overall: overallProgress(worlds),
    nextWorld,
    opened: complete ? worlds.filter((entry) => entry.opensAfter === packId) : [],
  };
}

/**
 * Whether winning `levelId` completes its world, judged from the world as
 * it was when the level opened (`GET /api/worlds/{pack}`: each level's
 * tier and whether it is won): the level is required, not won yet, and
 * every other required level of the world is.
 */
export function winCompletesWorld(world, levelId) {
  const levels = world?.levels || [];
  const level = levels.find((entry) => entry.id === levelId);
  if (!level || level.tier !== "required" || level.won) return false;
  return levels.every((entry) => entry.tier !== "required" || entry.id === levelId || entry.won);
}
