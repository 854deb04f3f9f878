package dev.lychee.core.segment;

import static dev.lychee.core.segment.Fixtures.axis;
import static dev.lychee.core.segment.Fixtures.between;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.lychee.api.Exchange;
import dev.lychee.api.spi.EmbeddingProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SurpriseCalibratorTest {
  private static final EmbeddingProfile REF = EmbeddingProfile.TEXT_EMBEDDING_3_SMALL;

  @Test
  void measuresSurpriseAgainstThePrecedingWindow() {
    // window 1: s = 1 − cos between neighbours; angles chosen so s = 0, .1, .2, .3, .4
    List<float[]> session = new ArrayList<>();
    session.add(axis(0));
    double angle = 0;
    for (double s : new double[] {0, .1, .2, .3, .4}) {
      angle += Math.acos(1 - s);
      session.add(between(0, 1, angle));
    }
    SurpriseCalibrator.Calibration c = new SurpriseCalibrator(1, 2).measure(List.of(session, List.of(axis(3))));
    SurpriseCalibrator.Stats st = c.surprise();
    assertThat(st.count()).isEqualTo(5);
    assertThat(st.median()).isCloseTo(0.2, within(1e-6));
    assertThat(st.mad()).isCloseTo(0.1, within(1e-6));
    assertThat(st.p10()).isCloseTo(0.04, within(1e-6));
    assertThat(st.p90()).isCloseTo(0.36, within(1e-6));
    assertThat(st.mean()).isCloseTo(0.2, within(1e-6));
    assertThat(st.robustSigma()).isCloseTo(0.14826, within(1e-6));
    assertThat(c.beta(REF)).isCloseTo(0.14826 / 0.14, within(1e-5));
    // window 1 drop for a singleton: 1 − sqrt((1+cos)/2)
    assertThat(c.drop().median()).isCloseTo(1 - Math.sqrt((2 - 0.2) / 2), within(1e-6));
  }

  @Test
  void needsTwoExchangesSomewhere() {
    assertThatThrownBy(() -> new SurpriseCalibrator().measure(List.of(List.of(axis(0)))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void scaledProfileMultipliesCentreAndScale() {
    EmbeddingProfile p = SurpriseCalibrator.scaled(REF, 0.5);
    assertThat(p.surpriseCenter()).isCloseTo(0.10, within(1e-12));
    assertThat(p.surpriseScale()).isCloseTo(0.07, within(1e-12));
  }

  @Test
  void fitFindsTheSelfConsistentScale() {
    List<List<Exchange>> sessions = new ArrayList<>();
    for (int k = 0; k < 6; k++) {
      sessions.add(topicSession(k, 30));
    }
    SurpriseCalibrator.Fit fit = SurpriseCalibrator.fit(sessions, SegmentationConfig.defaults(), REF);
    assertThat(fit.converged()).isTrue();
    // the defining property: the spread the segmenter meets is one (scaled) unit; g may jump at
    // the crossing, so allow a few per cent
    assertThat(fit.surprise().robustSigma() / REF.surpriseScale()).isCloseTo(fit.beta(), within(0.05 * fit.beta()));
    assertThat(fit.profile().surpriseScale()).isCloseTo(0.14 * fit.beta(), within(1e-12));
    assertThat(fit.profile().surpriseCenter()).isCloseTo(0.20 * fit.beta(), within(1e-12));
    assertThat(fit.beta()).isPositive();
    // the cohesion unit is measured on the drop: its robust spread about 0 (1.4826·median)
    assertThat(fit.profile().hasCohesionUnit()).isTrue();
    assertThat(fit.drop().count()).isPositive();
    assertThat(1.4826 * fit.drop().median()).isCloseTo(fit.profile().cohesionUnit(), within(1e-3));
  }

  @Test
  void fitRejectsSurpriseWithoutSpread() {
    // every exchange identical: s = 0 always, nothing to calibrate against
    List<Exchange> same = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      same.add(Fixtures.exchange(i, 30, axis(0)));
    }
    assertThatThrownBy(() -> SurpriseCalibrator.fit(List.of(same), SegmentationConfig.defaults(), REF))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spread");
  }

  /** Exchanges in one session drifting around a few topics, in dimension 8. */
  private static List<Exchange> topicSession(int seed, int n) {
    Random random = new Random(seed);
    List<Exchange> out = new ArrayList<>();
    int topic = random.nextInt(Fixtures.DIM);
    for (int i = 0; i < n; i++) {
      if (random.nextInt(6) == 0) {
        topic = random.nextInt(Fixtures.DIM);
      }
      int other = (topic + 1 + random.nextInt(Fixtures.DIM - 1)) % Fixtures.DIM;
      float[] v = between(topic, other, 0.6 * random.nextDouble());
      out.add(new Exchange("ns", "s" + seed, List.of(new dev.lychee.api.RawTurn("ns",
          dev.lychee.api.TurnRef.of("s" + seed, i), dev.lychee.api.Role.USER, null, "t", null)),
          "user: t", 30, v, false));
    }
    return out;
  }
}
