package dev.lychee.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class SegmentationConfigTest {

  @Test
  void defaultsAreTheDocumentedOnes() {
    SegmentationConfig c = SegmentationConfig.defaults();
    assertThat(c.minTokens()).isEqualTo(1000);
    assertThat(c.targetTokens()).isEqualTo(1500);
    assertThat(c.maxTokens()).isEqualTo(2000);
    assertThat(c.threshold()).isEqualTo(0.5);
    assertThat(c.maxEmbeddingChars()).isEqualTo(4000);
    assertThat(c.historySize()).isEqualTo(64);
    assertThat(c.minHistory()).isEqualTo(5);
    assertThat(c.windowTokens()).isEqualTo(600);
    assertThat(c.windowExchanges()).isEqualTo(10);
    assertThat(c.cohesionDropMode()).isEqualTo(CohesionDropMode.SIZE_NORMALISED);
    BoundaryWeights w = c.weights();
    assertThat(new double[] {w.surprise(), w.cohesion(), w.length(), w.turns(), w.robustFactor(), w.bias(),
        w.cohesionScale(), w.cohesionMax(), w.absoluteMin(), w.absoluteMax(), w.robustMin(), w.robustMax(),
        w.madScale(), w.madFloor(), w.referenceSurpriseScale()})
        .containsExactly(0.65, 0.45, 0.90, 0.30, 0.45, 1.10, 0.06, 2.5, -1.0, 2.5, -2.0, 4.0, 1.4826, 1e-6, 0.14);
    assertThat(w.tailSize()).isEqualTo(2);
    assertThat(c.lengthCurve()).isEqualTo(new LengthCurve(700, 1000, 1500, 2000, -1.30, -0.80, 0.0, 0.45, 1.90, 1.90, 2.80, 3.00));
    assertThat(c.turnCurve()).isEqualTo(new TurnCurve(-0.85, -0.15, 0.15, 0.30, 0.15, 1.0));
    assertThat(SegmentationConfig.defaults()).isEqualTo(SegmentationConfig.builder().build());
  }

  @Test
  void theAuthorsConfigurationDiffersOnlyInThresholdAndDropReading() {
    SegmentationConfig a = SegmentationConfig.authors();
    assertThat(a).isEqualTo(SegmentationConfig.defaults().toBuilder()
        .threshold(SegmentationConfig.AUTHORS_THRESHOLD).cohesionDropMode(CohesionDropMode.RAW).build());
    assertThatThrownBy(() -> SegmentationConfig.builder().cohesionDropMode(null).build())
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void theAuthorsThresholdIsOneCallAway() {
    SegmentationConfig c = SegmentationConfig.builder().threshold(SegmentationConfig.AUTHORS_THRESHOLD).build();
    assertThat(c.threshold()).isEqualTo(0.55);
    assertThat(c.toBuilder().build()).isEqualTo(c);
  }

  @Test
  void invalidValuesAreRejectedWithTheirName() {
    rejects(b -> b.maxTokens(511), "maxTokens");
    rejects(b -> b.minTokens(127), "minTokens");
    rejects(b -> b.minTokens(2001), "minTokens");
    rejects(b -> b.targetTokens(999), "targetTokens");
    rejects(b -> b.targetTokens(2001), "targetTokens");
    rejects(b -> b.threshold(0.04), "threshold");
    rejects(b -> b.threshold(0.96), "threshold");
    rejects(b -> b.threshold(Double.NaN), "threshold");
    rejects(b -> b.maxEmbeddingChars(255), "maxEmbeddingChars");
    rejects(b -> b.historySize(0), "historySize");
    rejects(b -> b.minHistory(65), "minHistory");
    rejects(b -> b.minHistory(0), "minHistory");
    rejects(b -> b.windowTokens(0), "windowTokens");
    rejects(b -> b.windowExchanges(0), "windowExchanges");
  }

  @Test
  void boundsAreInclusive() {
    SegmentationConfig c = SegmentationConfig.builder().maxTokens(512).minTokens(128).targetTokens(512)
        .threshold(0.05).maxEmbeddingChars(256).historySize(5).minHistory(5).build();
    assertThat(c.maxTokens()).isEqualTo(512);
    assertThat(SegmentationConfig.builder().threshold(0.95).build().threshold()).isEqualTo(0.95);
  }

  @Test
  void weightsAndCurvesValidateThemselves() {
    BoundaryWeights d = BoundaryWeights.DEFAULTS;
    assertThatThrownBy(() -> d.withCohesionScale(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cohesionScale");
    assertThatThrownBy(() -> new LengthCurve(700, 700, 1500, 2000, -1.3, -.8, 0, .45, 1.9, 1.9, 2.8, 3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("knots");
    assertThatThrownBy(() -> new TurnCurve(Double.NaN, 0, 0, 0, 0, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThat(d.cohesionUnit(0.07)).isCloseTo(0.03, org.assertj.core.api.Assertions.within(1e-12));
  }

  private static void rejects(UnaryOperator<SegmentationConfig.Builder> change, String name) {
    assertThatThrownBy(() -> change.apply(SegmentationConfig.builder()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(name);
  }
}
