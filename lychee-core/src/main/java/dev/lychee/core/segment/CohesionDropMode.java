package dev.lychee.core.segment;

/**
 * How the cohesion drop Δ (docs/defaults.md §1.5) is read before it is divided by the
 * embedder's cohesion unit.
 *
 * <p><b>Why a reading other than the authors'.</b> Two properties of Δ make the raw value a poor
 * boundary signal on conversations of short turns, where the length pressure stays at its floor
 * and a cut needs the surprise and cohesion terms together:
 *
 * <ul>
 *   <li><i>Singletons.</i> The cohesion of one vector is 1 by definition, so for a one-exchange
 *       open segment Δ = 1 − sqrt((1 + cos)/2) is a function of the same cosine as the surprise
 *       s = 1 − cos. The drop then adds nothing but counts the surprise a second time, and every
 *       exchange that is merely not a paraphrase of its predecessor looks like a boundary (with
 *       BGE-small a neighbour cosine of 0.75 gives Δ ≈ 0.065).
 *   <li><i>Size.</i> Adding one vector to n moves their mean by about 1/(n + 1): to first order
 *       Δ ≈ (cohesion(V) − e·centroid(V))/(n + 1). The same misfit of the new exchange thus gives
 *       a drop three times smaller at n = 5 than at n = 1, and one unit cannot fit both.
 * </ul>
 *
 * {@link #SIZE_NORMALISED} removes both effects; {@link #RAW} is the authors' reading, which the
 * spec's test vectors use.
 */
public enum CohesionDropMode {

  /** The authors' reading: C is computed from Δ as it is, for every open-segment size. */
  RAW,

  /**
   * The default: no cohesion signal while the open segment holds one exchange (its cohesion is
   * not yet defined beyond the convention "1", so Δ would repeat the surprise), and from two
   * exchanges on the pair-equivalent drop {@code Δ·(n + 1)/2}, which undoes the 1/(n + 1)
   * dilution and equals Δ for a pair.
   */
  SIZE_NORMALISED;

  /** Whether this mode gives the drop any weight for an open segment of {@code exchanges}. */
  public boolean counts(int exchanges) {
    return this == RAW || exchanges >= 2;
  }

  /**
   * The drop as this mode reads it.
   *
   * @param drop Δ ≥ 0
   * @param exchanges n, the exchanges already in the open segment
   */
  public double read(double drop, int exchanges) {
    return switch (this) {
      case RAW -> drop;
      case SIZE_NORMALISED -> exchanges <= 1 ? 0.0 : drop * (exchanges + 1) / 2.0;
    };
  }
}
