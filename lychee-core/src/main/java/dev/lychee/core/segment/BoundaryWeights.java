package dev.lychee.core.segment;

/**
 * How the boundary signals combine into one score, and the clip range of each signal
 * (docs/defaults.md §1.5):
 *
 * <pre>
 * score = surprise·max(a, robustFactor·z) + cohesion·C + length·L(T) + turns·H(n)
 * p     = sigmoid(score − bias)
 * </pre>
 *
 * @param surprise weight of the surprise term (default 0.65)
 * @param cohesion weight of the cohesion-drop signal C (default 0.45)
 * @param length weight of the length pressure L(T) (default 0.90)
 * @param turns weight of the turn-count signal H(n) (default 0.30)
 * @param robustFactor factor on the robust z inside the surprise term (default 0.45)
 * @param bias subtracted from the score before the sigmoid (default 1.10)
 * @param cohesionScale cohesion drop that counts as one unit of C, in the units of the reference
 *     embedder (default 0.06, fitted with text-embedding-3-small). Only a fallback: a profile
 *     that states its own {@link dev.lychee.api.spi.EmbeddingProfile#cohesionUnit()} (measured on
 *     the drop's own distribution, see {@link SurpriseCalibrator#fit}) is used as it is. For a
 *     profile without one the unit is {@code cohesionScale · profile.surpriseScale /
 *     referenceSurpriseScale}: a cohesion drop is a difference of cosines like the surprise, so
 *     as a first guess it is compressed by the same ratio
 * @param cohesionMax upper clip of C (default 2.5)
 * @param absoluteMin lower clip of the absolute surprise a (default −1)
 * @param absoluteMax upper clip of a (default 2.5)
 * @param robustMin lower clip of the robust z (default −2)
 * @param robustMax upper clip of z (default 4)
 * @param madScale consistency factor that turns a MAD into a standard deviation (default 1.4826)
 * @param madFloor replaces a MAD of 0 so that z stays finite (default 1e-6)
 * @param tailSize how many of the newest vectors form the tail (default 2)
 * @param referenceSurpriseScale the surprise scale of the embedder {@code cohesionScale} was fitted
 *     with (default 0.14, text-embedding-3-small's)
 */
public record BoundaryWeights(
    double surprise,
    double cohesion,
    double length,
    double turns,
    double robustFactor,
    double bias,
    double cohesionScale,
    double cohesionMax,
    double absoluteMin,
    double absoluteMax,
    double robustMin,
    double robustMax,
    double madScale,
    double madFloor,
    int tailSize,
    double referenceSurpriseScale) {

  /** The authors' values (docs/defaults.md §1.5). */
  public static final BoundaryWeights DEFAULTS =
      new BoundaryWeights(0.65, 0.45, 0.90, 0.30, 0.45, 1.10, 0.06, 2.5, -1.0, 2.5, -2.0, 4.0,
          1.4826, 1e-6, 2, 0.14);

  public BoundaryWeights {
    finite(surprise, "surprise weight");
    finite(cohesion, "cohesion weight");
    finite(length, "length weight");
    finite(turns, "turns weight");
    finite(robustFactor, "robustFactor");
    finite(bias, "bias");
    positive(cohesionScale, "cohesionScale");
    positive(cohesionMax, "cohesionMax");
    positive(madScale, "madScale");
    positive(madFloor, "madFloor");
    positive(referenceSurpriseScale, "referenceSurpriseScale");
    range(absoluteMin, absoluteMax, "absolute surprise clip");
    range(robustMin, robustMax, "robust z clip");
    if (tailSize < 1) {
      throw new IllegalArgumentException("tailSize must be >= 1: " + tailSize);
    }
  }

  /** Copy with another cohesion scale (in reference-embedder units). */
  public BoundaryWeights withCohesionScale(double scale) {
    return new BoundaryWeights(surprise, cohesion, length, turns, robustFactor, bias, scale,
        cohesionMax, absoluteMin, absoluteMax, robustMin, robustMax, madScale, madFloor, tailSize,
        referenceSurpriseScale);
  }

  /** The cohesion unit for an embedder whose profile has surprise scale {@code surpriseScale}. */
  public double cohesionUnit(double surpriseScale) {
    return cohesionScale * surpriseScale / referenceSurpriseScale;
  }

  static void finite(double v, String name) {
    if (!Double.isFinite(v)) {
      throw new IllegalArgumentException(name + " must be a finite number: " + v);
    }
  }

  static void positive(double v, String name) {
    if (!(v > 0) || !Double.isFinite(v)) {
      throw new IllegalArgumentException(name + " must be > 0: " + v);
    }
  }

  private static void range(double lo, double hi, String name) {
    finite(lo, name + " lower bound");
    finite(hi, name + " upper bound");
    if (lo >= hi) {
      throw new IllegalArgumentException(name + ": lower bound " + lo + " must be below " + hi);
    }
  }
}
