package dev.lychee.core.segment;

/**
 * One boundary decision with every signal that went into it (docs/defaults.md §1.5).
 *
 * @param surprise s = max(0, 1 − max(e·centroid, e·tail))
 * @param drop Δ, the raw cohesion drop caused by adding e (before {@link CohesionDropMode#read})
 * @param absolute a, the absolute surprise normalised with the embedder's profile, clipped
 * @param robust z, the robust (median/MAD) surprise over the history, clipped; 0 without history
 * @param cohesion C, the cohesion signal
 * @param length L(T)
 * @param turns H(n)
 * @param score the weighted sum
 * @param probability sigmoid(score − bias)
 * @param cut whether probability ≥ threshold
 * @param exchanges n, the exchanges in the open segment when the decision was made
 */
public record BoundaryDecision(
    double surprise,
    double drop,
    double absolute,
    double robust,
    double cohesion,
    double length,
    double turns,
    double score,
    double probability,
    boolean cut,
    int exchanges) {}
