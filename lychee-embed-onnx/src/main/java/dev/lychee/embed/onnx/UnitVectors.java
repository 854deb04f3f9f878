package dev.lychee.embed.onnx;

import dev.lychee.api.ProviderException;

/** L2 normalisation of model output, with the checks the {@code Embedder} contract needs. */
final class UnitVectors {
  private UnitVectors() {}

  /**
   * Returns a unit-length copy of {@code v}. The norm is accumulated in double precision so that
   * the float result is within float rounding of length 1.
   *
   * @throws ProviderException when the vector has the wrong dimension, a non-finite component or
   *     zero length (the model misbehaved; there is no meaningful direction to return)
   */
  static float[] normalise(float[] v, int dimension, String provider) {
    if (v == null || v.length != dimension) {
      throw new ProviderException(
          provider,
          -1,
          "expected a " + dimension + "-dimensional vector, got " + (v == null ? "null" : v.length),
          null);
    }
    double sum = 0;
    for (float x : v) {
      sum += (double) x * x;
    }
    if (!(sum > 0) || Double.isInfinite(sum)) {
      throw new ProviderException(provider, -1, "model returned a zero or non-finite vector", null);
    }
    double inv = 1.0 / Math.sqrt(sum);
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (float) (v[i] * inv);
    }
    return out;
  }
}
