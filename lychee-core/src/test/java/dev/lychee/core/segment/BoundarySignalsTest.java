package dev.lychee.core.segment;

import static dev.lychee.core.segment.Fixtures.axis;
import static dev.lychee.core.segment.Fixtures.between;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.lychee.api.spi.EmbeddingProfile;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class BoundarySignalsTest {
  private static final double EPS = 1e-3;
  private static final EmbeddingProfile REF = EmbeddingProfile.TEXT_EMBEDDING_3_SMALL;
  private static final BoundarySignals AUTHORS = new BoundarySignals(SegmentationConfig.authors(), REF);
  /** The paper's threshold with the authors' raw cohesion drop. */
  private static final BoundarySignals PAPER = new BoundarySignals(
      SegmentationConfig.builder().cohesionDropMode(CohesionDropMode.RAW).build(), REF);
  /** The defaults: threshold 0.5, size-normalised drop. */
  private static final BoundarySignals DEFAULTS = new BoundarySignals(SegmentationConfig.defaults(), REF);
  private static final double[] NO_HISTORY = {};
  private static final double[] HISTORY = {.10, .12, .15, .11, .13};

  /** docs/defaults.md §1.5, the five test vectors (cut column computed with threshold 0.55). */
  @ParameterizedTest
  @CsvSource({
    // s,   drop, T,    n, hist, a,       z, C,      L,     H,     score,   p,      cut
    ".35, .03, 1200, 3, false, 1.0714, 0, .5,     1.03,  .15,  1.8934,  .6886, true",
    ".30, .02, 400,  2, false, .7143,  0, .3333, -1.30, -.15, -.6007,  .1544, false",
    ".55, .10, 400,  1, false, 2.5,    0, 1.6667, -1.30, -.85, .9500,   .4626, false",
    ".40, 0,   850,  4, true,  1.4286, 4, 0,     -.40,   .30,  .9000,   .4502, false",
    ".15, 0,   1450, 6, false, -.3571, 0, 0,     1.755,  .60,  1.7595,  .6591, true",
  })
  void specTestVectors(double s, double drop, int tokens, int n, boolean withHistory, double a,
      double z, double c, double l, double h, double score, double p, boolean cut) {
    BoundaryDecision d = AUTHORS.decide(s, drop, tokens, n, withHistory ? HISTORY : NO_HISTORY);
    assertThat(d.absolute()).isCloseTo(a, within(EPS));
    assertThat(d.robust()).isCloseTo(z, within(EPS));
    assertThat(d.cohesion()).isCloseTo(c, within(EPS));
    assertThat(d.length()).isCloseTo(l, within(EPS));
    assertThat(d.turns()).isCloseTo(h, within(EPS));
    assertThat(d.score()).isCloseTo(score, within(EPS));
    assertThat(d.probability()).isCloseTo(p, within(EPS));
    assertThat(d.cut()).isEqualTo(cut);
    // the paper's default threshold 0.5 decides the same for these five
    assertThat(PAPER.decide(s, drop, tokens, n, withHistory ? HISTORY : NO_HISTORY).cut()).isEqualTo(cut);
  }

  @Test
  void thresholdsDifferBetweenHalfAndAuthors() {
    // s=.35 (a=1.0714), Δ=.06 (C=1), T=999 (L=-.0027), n=3 (H=.15): score 1.1890, p 0.5222
    BoundaryDecision paper = PAPER.decide(.35, .06, 999, 3, NO_HISTORY);
    BoundaryDecision authors = AUTHORS.decide(.35, .06, 999, 3, NO_HISTORY);
    assertThat(paper.score()).isCloseTo(1.1890, within(EPS));
    assertThat(paper.probability()).isCloseTo(0.5222, within(EPS));
    assertThat(paper.cut()).isTrue();
    assertThat(authors.cut()).isFalse();
    assertThat(SegmentationConfig.defaults().threshold()).isEqualTo(0.5);
  }

  @Test
  void authorsCutPointIsScore1300671() {
    assertThat(AUTHORS.cut(AUTHORS.probability(1.3007))).isTrue();
    assertThat(AUTHORS.cut(AUTHORS.probability(1.3006))).isFalse();
    assertThat(PAPER.cut(PAPER.probability(1.1001))).isTrue();
    assertThat(PAPER.cut(PAPER.probability(1.0999))).isFalse();
  }

  @ParameterizedTest
  @CsvSource({"0, -1.30", "699, -1.30", "700, -0.80", "999, -0.0027", "1000, 0.45", "1250, 1.175",
      "1499, 1.8971", "1500, 1.90", "1750, 2.35", "1999, 2.7982", "2000, 3.00", "5000, 3.00"})
  void lengthCurve(int tokens, double expected) {
    assertThat(PAPER.length(tokens)).isCloseTo(expected, within(1e-4));
  }

  @ParameterizedTest
  @CsvSource({"0, -0.85", "1, -0.85", "2, -0.15", "3, 0.15", "4, 0.30", "5, 0.45", "6, 0.60",
      "8, 0.90", "9, 1.0", "10, 1.0", "50, 1.0"})
  void turnCurve(int n, double expected) {
    assertThat(PAPER.turns(n)).isCloseTo(expected, within(1e-9));
  }

  @Test
  void absoluteSurpriseIsClippedAndUsesTheProfile() {
    assertThat(PAPER.absoluteSurprise(0.0)).isEqualTo(-1.0);
    assertThat(PAPER.absoluteSurprise(1.0)).isEqualTo(2.5);
    BoundarySignals bge = new BoundarySignals(SegmentationConfig.defaults(), new EmbeddingProfile(0.10, 0.05));
    assertThat(bge.absoluteSurprise(0.15)).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void cohesionUnitFollowsTheProfileScale() {
    assertThat(PAPER.cohesionUnit()).isCloseTo(0.06, within(1e-12));
    BoundarySignals half = new BoundarySignals(SegmentationConfig.defaults(), new EmbeddingProfile(0.10, 0.07));
    assertThat(half.cohesionUnit()).isCloseTo(0.03, within(1e-12));
    assertThat(half.cohesionSignal(0.03)).isCloseTo(1.0, within(1e-9));
    assertThat(half.cohesionSignal(1.0)).isEqualTo(2.5);
    assertThat(half.cohesionSignal(0.0)).isZero();
  }

  @Test
  void aProfileWithItsOwnCohesionUnitUsesIt() {
    BoundarySignals own = new BoundarySignals(SegmentationConfig.defaults(), new EmbeddingProfile(0.08, 0.057, 0.028));
    assertThat(own.cohesionUnit()).isEqualTo(0.028);
    assertThat(REF.cohesionUnit()).isEqualTo(0.06);
    assertThat(new EmbeddingProfile(0.1, 0.07).hasCohesionUnit()).isFalse();
  }

  @Test
  void authorsConfigurationIsRawDropAndThreshold055() {
    SegmentationConfig a = SegmentationConfig.authors();
    assertThat(a.cohesionDropMode()).isEqualTo(CohesionDropMode.RAW);
    assertThat(a.threshold()).isEqualTo(0.55);
    assertThat(SegmentationConfig.defaults().cohesionDropMode()).isEqualTo(CohesionDropMode.SIZE_NORMALISED);
    assertThat(a.toBuilder().build()).isEqualTo(a);
  }

  @Test
  void sizeNormalisedDropIgnoresSingletonsAndUndoesTheDilution() {
    // n = 1: Δ only repeats the surprise, so C = 0 (raw: .10/.06 = 1.6667, test vector 3)
    assertThat(DEFAULTS.decide(.55, .10, 400, 1, NO_HISTORY).cohesion()).isZero();
    assertThat(PAPER.decide(.55, .10, 400, 1, NO_HISTORY).cohesion()).isCloseTo(1.6667, within(EPS));
    // n = 2: Δ·3/2; n = 3: Δ·2 (test vector 1 read: .03·2 = .06 -> C = 1)
    assertThat(DEFAULTS.decide(.30, .02, 400, 2, NO_HISTORY).cohesion()).isCloseTo(0.5, within(1e-9));
    BoundaryDecision d = DEFAULTS.decide(.35, .03, 1200, 3, NO_HISTORY);
    assertThat(d.cohesion()).isCloseTo(1.0, within(1e-9));
    assertThat(d.drop()).isEqualTo(.03);
    assertThat(d.exchanges()).isEqualTo(3);
    assertThat(d.score()).isCloseTo(1.8934 + 0.45 * 0.5, within(EPS));
  }

  @ParameterizedTest
  @CsvSource({"RAW, .04, 0, .04", "RAW, .04, 1, .04", "RAW, .04, 5, .04",
      "SIZE_NORMALISED, .04, 0, 0", "SIZE_NORMALISED, .04, 1, 0", "SIZE_NORMALISED, .04, 2, .06",
      "SIZE_NORMALISED, .04, 5, .12", "SIZE_NORMALISED, 0, 5, 0"})
  void cohesionDropModeReading(CohesionDropMode mode, double drop, int n, double expected) {
    assertThat(mode.read(drop, n)).isCloseTo(expected, within(1e-12));
    assertThat(mode.counts(n)).isEqualTo(mode == CohesionDropMode.RAW || n >= 2);
  }

  @Test
  void robustSurpriseNeedsFiveValuesAndUsesMedianAndMad() {
    assertThat(PAPER.robustSurprise(0.9, new double[] {.1, .2, .3, .4})).isZero();
    // history 1..6: median 3.5, deviations 2.5 1.5 .5 .5 1.5 2.5 -> MAD 1.5
    double[] h = {1, 2, 3, 4, 5, 6};
    assertThat(BoundarySignals.median(h)).isEqualTo(3.5);
    assertThat(BoundarySignals.mad(h, 3.5)).isEqualTo(1.5);
    assertThat(PAPER.robustSurprise(5.0, h)).isCloseTo(1.5 / (1.4826 * 1.5), within(1e-9));
    assertThat(PAPER.robustSurprise(-100, h)).isEqualTo(-2.0);
  }

  @Test
  void zeroMadIsReplacedSoZStaysFinite() {
    double[] flat = {.2, .2, .2, .2, .2};
    assertThat(PAPER.robustSurprise(.2, flat)).isZero();
    assertThat(PAPER.robustSurprise(.2 + 1e-7, flat)).isCloseTo(1e-7 / (1.4826 * 1e-6), within(1e-6));
    assertThat(PAPER.robustSurprise(.3, flat)).isEqualTo(4.0);
  }

  @Test
  void sigmoidSaturates() {
    assertThat(BoundarySignals.sigmoid(0)).isEqualTo(0.5);
    assertThat(BoundarySignals.sigmoid(51)).isEqualTo(1.0);
    assertThat(BoundarySignals.sigmoid(-51)).isEqualTo(0.0);
    assertThat(BoundarySignals.sigmoid(50)).isLessThan(1.0 + 1e-15).isGreaterThan(0.999);
  }

  @Test
  void centroidTailAndSurpriseOnHandMadeVectors() {
    List<float[]> open = List.of(axis(0), axis(1), axis(2));
    double[] c = BoundarySignals.centroid(open);
    double third = 1 / Math.sqrt(3);
    assertThat(c[0]).isCloseTo(third, within(1e-9));
    assertThat(c[2]).isCloseTo(third, within(1e-9));
    double[] t = BoundarySignals.tail(open, 2);
    assertThat(t[0]).isZero();
    assertThat(t[1]).isCloseTo(1 / Math.sqrt(2), within(1e-9));
    // e = axis(2): e·c = 0.577, e·t = 0.707 -> s = 1 - 0.707
    assertThat(BoundarySignals.surprise(open, axis(2), 2)).isCloseTo(1 - 1 / Math.sqrt(2), within(1e-6));
    // an orthogonal newcomer is fully surprising; a repeat of the tail is not
    assertThat(BoundarySignals.surprise(open, axis(5), 2)).isCloseTo(1.0, within(1e-9));
    assertThat(BoundarySignals.surprise(List.of(axis(3)), axis(3), 2)).isZero();
  }

  @Test
  void cohesionAndDrop() {
    assertThat(BoundarySignals.cohesion(List.of())).isEqualTo(1.0);
    assertThat(BoundarySignals.cohesion(List.of(axis(1)))).isEqualTo(1.0);
    // two orthogonal unit vectors: centroid at 45°, each has cosine 0.7071 to it
    assertThat(BoundarySignals.cohesion(List.of(axis(0), axis(1)))).isCloseTo(Math.sqrt(0.5), within(1e-6));
    // singleton + vector at 60°: cohesion sqrt((1+cos)/2) = sqrt(0.75)
    double drop = BoundarySignals.cohesionDrop(List.of(axis(0)), between(0, 1, Math.PI / 3));
    assertThat(drop).isCloseTo(1 - Math.sqrt(0.75), within(1e-6));
    // adding a vector equal to the centroid never lowers cohesion
    assertThat(BoundarySignals.cohesionDrop(List.of(axis(0), axis(0)), axis(0))).isZero();
  }

  @Test
  void decisionFromVectorsCombinesTheSignals() {
    List<float[]> open = List.of(axis(0), axis(0), axis(0), axis(0));
    BoundaryDecision d = PAPER.decide(open, axis(1), 100, NO_HISTORY);
    assertThat(d.surprise()).isCloseTo(1.0, within(1e-9));
    assertThat(d.absolute()).isEqualTo(2.5);
    assertThat(d.drop()).isCloseTo(1 - Math.sqrt(17) / 5, within(1e-6));
    assertThat(d.cohesion()).isEqualTo(2.5);
    assertThat(d.turns()).isCloseTo(0.30, within(1e-9));
    assertThat(d.score()).isCloseTo(0.65 * 2.5 + 0.45 * 2.5 - 0.9 * 1.3 + 0.3 * 0.3, within(1e-9));
    assertThat(d.cut()).isTrue();
    BoundaryDecision same = PAPER.decide(open, axis(0), 100, NO_HISTORY);
    assertThat(same.surprise()).isZero();
    assertThat(same.cut()).isFalse();
  }
}
