// Where the play scene's ways out lead, by the kind of level it plays.

/** The kind of level `params` asks for: "draft" (the editor's test-play), "shared" (a link) or "level". */
export function playKind(params) {
  if (params.draft) return "draft";
  if (params.share !== undefined) return "shared";
  return "level";
}

/**
 * The ways out of a play scene of `kind`: `backToMap()` (Back, Escape, the
 * win card's way back), `playAgain()`, `nextLevel(next)`, and the words
 * that name the way back (`backWord` on the Back button, `mapLabel` on
 * cards). A draft goes back through `onBack` when the editor gave one.
 */
export function playRoutes(kind, { pack, level, share }, { navigate, onBack = null }) {
  const backToMap = () => {
    if (kind === "draft") {
      if (onBack) onBack();
      else navigate("/edit");
    } else if (kind === "shared") navigate("/worlds");
    else navigate(`/world/${encodeURIComponent(pack)}`);
  };
  const playAgain = () => {
    if (kind === "shared") navigate(`/shared/${share}`);
    else navigate(`/play/${encodeURIComponent(pack)}/${encodeURIComponent(level)}`);
  };
  const nextLevel = (next) =>
    navigate(`/play/${encodeURIComponent(next.pack)}/${encodeURIComponent(next.level)}`);
  return {
    backToMap,
    playAgain,
    nextLevel,
    backWord: { level: " Levels", shared: " Worlds", draft: " Editor" }[kind],
    mapLabel: { level: "Back to the map", shared: "Back to worlds", draft: "Back to the editor" }[kind],
  };
}
