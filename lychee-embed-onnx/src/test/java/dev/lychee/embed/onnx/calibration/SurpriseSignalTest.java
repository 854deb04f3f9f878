package dev.lychee.embed.onnx.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Checks the calibration's arithmetic on hand-computed cases. */
class SurpriseSignalTest {

  @Test
  void surpriseIsOneMinusTheBestOfCentroidAndTail() {
    float[] x = {1, 0, 0};
    float[] y = {0, 1, 0};
    float[] z = {0, 0, 1};
    // V = x, y, z: centroid (1,1,1)/sqrt3, tail (y+z)/sqrt2; e = z -> e.t = 0.7071 > e.c = 0.5774
    assertThat(SurpriseSignal.surprise(List.of(x, y, z), z)).isCloseTo(1 - Math.sqrt(0.5), within(1e-9));
    // e = x: e.c = 0.5774, e.t = 0
    assertThat(SurpriseSignal.surprise(List.of(x, y, z), x)).isCloseTo(1 - 1 / Math.sqrt(3), within(1e-9));
    // a single open vector equal to e: no surprise
    assertThat(SurpriseSignal.surprise(List.of(x), x)).isCloseTo(0, within(1e-9));
    // opposite direction: s = max(0, 1 - (-1)) = 2, the upper end of the range
    assertThat(SurpriseSignal.surprise(List.of(x), new float[] {-1, 0, 0})).isCloseTo(2, within(1e-9));
  }

  @Test
  void robustStatsFollowTheDefinitions() {
    RobustStats s = RobustStats.of(new double[] {0.10, 0.12, 0.15, 0.11, 0.13, 0.40});
    // sorted .10 .11 .12 .13 .15 .40 -> median (.12+.13)/2 = .125
    assertThat(s.median()).isCloseTo(0.125, within(1e-12));
    // |dev| sorted .005 .005 .015 .025 .025 .275 -> MAD (.015+.025)/2 = .02
    assertThat(s.mad()).isCloseTo(0.02, within(1e-12));
    assertThat(s.robustSigma()).isCloseTo(0.029652, within(1e-9));
    assertThat(s.p10()).isCloseTo(0.105, within(1e-12));
    assertThat(s.p90()).isCloseTo(0.275, within(1e-12));
  }

  @Test
  void turnsBecomeUserExchanges() {
    assertThat(BgeSurpriseStatistics.asUserExchanges(List.of("Ann: hi", "Bo: yo")))
        .containsExactly("user: Ann: hi", "user: Bo: yo");
  }
}
