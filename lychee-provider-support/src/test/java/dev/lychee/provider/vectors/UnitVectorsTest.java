package dev.lychee.provider.vectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.ProviderException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnitVectorsTest {

  @Test
  void resultHasUnitLengthAndTheSameDirection() {
    float[] v = UnitVectors.normalise(new float[] {3, 4}, 2, "m", "the model");
    assertThat(v).containsExactly(0.6f, 0.8f);
    float[] w = UnitVectors.normalise(List.of(1e-20, 2e-20, 2e-20), 0, "m", "the model");
    double norm = Math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    assertThat(norm).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(w[1]).isEqualTo(w[2]).isGreaterThan(w[0]);
  }

  @Test
  void hugeComponentsDoNotOverflowTheNorm() {
    float[] v = UnitVectors.normalise(new float[] {Float.MAX_VALUE, Float.MAX_VALUE}, 2, "m", "the model");
    assertThat(v[0]).isEqualTo(v[1]).isCloseTo((float) Math.sqrt(0.5), org.assertj.core.data.Offset.offset(1e-6f));
  }

  @Test
  void theInputIsNotChanged() {
    float[] in = {1, 1};
    UnitVectors.normalise(in, 2, "m", "the model");
    assertThat(in).containsExactly(1f, 1f);
  }

  @Test
  void brokenVectorsAreProviderErrors() {
    assertThatThrownBy(() -> UnitVectors.normalise(new float[0], 0, "u", "POST u"))
        .isInstanceOf(ProviderException.class).hasMessage("POST u returned an empty embedding");
    assertThatThrownBy(() -> UnitVectors.normalise(new float[3], 3, "u", "POST u"))
        .hasMessage("POST u returned a zero or non-finite embedding");
    assertThatThrownBy(() -> UnitVectors.normalise(new float[] {1, Float.NaN}, 2, "u", "POST u"))
        .hasMessage("POST u returned a zero or non-finite embedding");
    assertThatThrownBy(() -> UnitVectors.normalise(new float[] {1, Float.POSITIVE_INFINITY}, 2, "u", "POST u"))
        .hasMessage("POST u returned a zero or non-finite embedding");
    assertThatThrownBy(() -> UnitVectors.normalise(new float[] {1, 2, 3}, 2, "u", "POST u"))
        .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.endpoint()).isEqualTo("u"))
        .hasMessage("POST u returned a 3-dimensional embedding, expected 2");
    assertThatThrownBy(() -> UnitVectors.normalise(Arrays.asList(1.0, null), 2, "u", "POST u"))
        .hasMessage("POST u returned a zero or non-finite embedding");
  }
}
