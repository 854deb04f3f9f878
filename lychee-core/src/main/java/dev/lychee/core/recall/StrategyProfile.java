package dev.lychee.core.recall;

/**
 * Retrieval strategy of one question type (reference parameters §4.3): candidate budget
 * multipliers, raw-turn scoring, episode budget and source-window shape.
 *
 * @param nodeMultiplier λ_node, scales the per-kind evidence-node budget
 * @param recordMultiplier λ_rec, scales the record budget
 * @param turnMultiplier λ_turn, scales the raw-turn budget
 * @param rawScoreMultiplier μ_raw, multiplies the raw-turn score
 * @param assistantBonus β_a, added to assistant turns
 * @param userBonus β_u, added to user turns
 * @param episodeRatio ρ_ep, share of k the episode limiter grants raw items
 * @param minEpisodeRatio ρ_min, episode score floor relative to the best record
 * @param sourceWindow sw, neighbouring turns on each side of a window anchor
 * @param sourceAnchors sa, the most anchors that get a window
 * @param sourceMergeGap sg, windows of one session closer than this many turns merge
 * @param sourceMaxChars sc, the most characters a window's text may hold
 */
public record StrategyProfile(
    double nodeMultiplier,
    double recordMultiplier,
    double turnMultiplier,
    double rawScoreMultiplier,
    double assistantBonus,
    double userBonus,
    double episodeRatio,
    double minEpisodeRatio,
    int sourceWindow,
    int sourceAnchors,
    int sourceMergeGap,
    int sourceMaxChars) {

  public StrategyProfile {
    positive(nodeMultiplier, "nodeMultiplier");
    positive(recordMultiplier, "recordMultiplier");
    positive(turnMultiplier, "turnMultiplier");
    positive(rawScoreMultiplier, "rawScoreMultiplier");
    if (assistantBonus < 0 || userBonus < 0 || episodeRatio < 0 || minEpisodeRatio < 0) {
      throw new IllegalArgumentException("bonuses and ratios must be >= 0");
    }
    if (sourceWindow < 0 || sourceAnchors < 0 || sourceMergeGap < 0 || sourceMaxChars < 64) {
      throw new IllegalArgumentException("window sizes must be >= 0 and sourceMaxChars >= 64");
    }
  }

  private static void positive(double v, String name) {
    if (!(v > 0)) {
      throw new IllegalArgumentException(name + " must be > 0: " + v);
    }
  }

  /** This profile with another source-window half width. */
  public StrategyProfile withSourceWindow(int sw) {
    return new StrategyProfile(nodeMultiplier, recordMultiplier, turnMultiplier, rawScoreMultiplier,
        assistantBonus, userBonus, episodeRatio, minEpisodeRatio, sw, sourceAnchors, sourceMergeGap,
        sourceMaxChars);
  }

  /** This profile with another anchor limit. */
  public StrategyProfile withSourceAnchors(int sa) {
    return new StrategyProfile(nodeMultiplier, recordMultiplier, turnMultiplier, rawScoreMultiplier,
        assistantBonus, userBonus, episodeRatio, minEpisodeRatio, sourceWindow, sa, sourceMergeGap,
        sourceMaxChars);
  }
}
