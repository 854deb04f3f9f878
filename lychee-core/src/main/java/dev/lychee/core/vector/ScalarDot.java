package dev.lychee.core.vector;

/**
 * The plain-Java kernel: the lane layout of {@link DotKernel} in eight float locals. C2 does not
 * vectorise these sums (a float reduction may not be reordered), so this runs at scalar speed; it is
 * what every JVM without {@code jdk.incubator.vector} uses, and the reference the SIMD kernel must
 * match bit for bit.
 */
final class ScalarDot implements DotKernel {
  static final ScalarDot INSTANCE = new ScalarDot();

  private ScalarDot() {}

  @Override
  public double dot(float[] q, float[] data, int offset) {
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    int n = q.length;
    int i = 0;
    for (; i + 7 < n; i += 8) {
      int o = offset + i;
      s0 += q[i] * data[o];
      s1 += q[i + 1] * data[o + 1];
      s2 += q[i + 2] * data[o + 2];
      s3 += q[i + 3] * data[o + 3];
      s4 += q[i + 4] * data[o + 4];
      s5 += q[i + 5] * data[o + 5];
      s6 += q[i + 6] * data[o + 6];
      s7 += q[i + 7] * data[o + 7];
    }
    for (; i < n; i++) {
      s0 += q[i] * data[offset + i];
    }
    return (double) s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
  }

  @Override
  public void dot2(float[] a, float[] b, float[] data, int offset, double[] out, int at) {
    // the stored vector is read once for both queries; sixteen independent sums
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
    float b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0, b7 = 0;
    int n = a.length;
    int i = 0;
    for (; i + 7 < n; i += 8) {
      int o = offset + i;
      float d0 = data[o];
      float d1 = data[o + 1];
      float d2 = data[o + 2];
      float d3 = data[o + 3];
      float d4 = data[o + 4];
      float d5 = data[o + 5];
      float d6 = data[o + 6];
      float d7 = data[o + 7];
      a0 += a[i] * d0;
      a1 += a[i + 1] * d1;
      a2 += a[i + 2] * d2;
      a3 += a[i + 3] * d3;
      a4 += a[i + 4] * d4;
      a5 += a[i + 5] * d5;
      a6 += a[i + 6] * d6;
      a7 += a[i + 7] * d7;
      b0 += b[i] * d0;
      b1 += b[i + 1] * d1;
      b2 += b[i + 2] * d2;
      b3 += b[i + 3] * d3;
      b4 += b[i + 4] * d4;
      b5 += b[i + 5] * d5;
      b6 += b[i + 6] * d6;
      b7 += b[i + 7] * d7;
    }
    for (; i < n; i++) {
      float d = data[offset + i];
      a0 += a[i] * d;
      b0 += b[i] * d;
    }
    out[at] = (double) a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
    out[at + 1] = (double) b0 + b1 + b2 + b3 + b4 + b5 + b6 + b7;
  }

  @Override
  public String name() {
    return "scalar";
  }
}
