package dev.lychee.provider.vectors;

import dev.lychee.api.ProviderException;
import java.util.List;

/** L2 normalisation of model output, with the checks the {@code Embedder} contract needs. */
public final class UnitVectors {
  private UnitVectors() {}

  /**
   * Returns a unit-length copy of {@code v}. The norm is accumulated in double precision so that
   * the float result is within float rounding of length 1.
   *
   * @param dimension the expected dimension, or 0 to accept any (a provider that learns it)
   * @param endpoint where the vector came from (a URL, an in-process model id), for the exception
   * @param source how messages name the producer ({@code "POST <url>"}, {@code "the ONNX model"})
   * @throws ProviderException when the vector is missing or empty, has the wrong dimension, a
   *     non-finite component or zero length (the model misbehaved; there is no direction to return)
   */
  public static float[] normalise(float[] v, int dimension, String endpoint, String source) {
    if (v == null || v.length == 0) {
      throw new ProviderException(endpoint, -1, source + " returned an empty embedding", null);
    }
    if (dimension > 0 && v.length != dimension) {
      throw new ProviderException(endpoint, -1,
          source + " returned a " + v.length + "-dimensional embedding, expected " + dimension, null);
    }
    double sum = 0;
    for (float x : v) {
      sum += (double) x * x;
    }
    if (!(sum > 0) || Double.isInfinite(sum) || Double.isNaN(sum)) {
      throw new ProviderException(endpoint, -1, source + " returned a zero or non-finite embedding", null);
    }
    double inv = 1.0 / Math.sqrt(sum);
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (float) (v[i] * inv);
    }
    return out;
  }

  /** {@link #normalise(float[], int, String, String)} of numbers as a JSON client reads them. */
  public static float[] normalise(List<? extends Number> values, int dimension, String endpoint, String source) {
    if (values == null) {
      return normalise((float[]) null, dimension, endpoint, source);
    }
    float[] v = new float[values.size()];
    for (int i = 0; i < v.length; i++) {
      Number n = values.get(i);
      v[i] = n == null ? Float.NaN : n.floatValue();
    }
    return normalise(v, dimension, endpoint, source);
  }
}
