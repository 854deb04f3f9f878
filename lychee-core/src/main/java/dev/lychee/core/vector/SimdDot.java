package dev.lychee.core.vector;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The kernel on the incubating Vector API: the eight sums of {@link DotKernel} as the eight lanes
 * of one 256-bit register. Loaded only when the JVM was started with {@code --add-modules
 * jdk.incubator.vector} (see {@link DotKernels}); its scores equal {@link ScalarDot}'s bit for bit:
 * a lane-wise multiply then a lane-wise add (each rounded to float, as Java's {@code s += a * b}),
 * the tail added to lane 0 in order, the lanes summed one by one in lane order (not with {@code
 * reduceLanes}, whose order is unspecified).
 */
final class SimdDot implements DotKernel {
  private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_256;

  private SimdDot() {}

  /**
   * This kernel, or null when the machine has no native vectors of 256 bits (there the Vector API
   * would emulate them, slower than the scalar kernel).
   */
  static DotKernel createIfNative() {
    if (FloatVector.SPECIES_PREFERRED.vectorBitSize() < SPECIES.vectorBitSize()
        || SPECIES.length() != LANES) {
      return null;
    }
    return new SimdDot();
  }

  @Override
  public double dot(float[] q, float[] data, int offset) {
    FloatVector acc = FloatVector.zero(SPECIES);
    int n = q.length;
    int i = 0;
    for (; i + 7 < n; i += 8) {
      acc = acc.add(FloatVector.fromArray(SPECIES, q, i).mul(FloatVector.fromArray(SPECIES, data, offset + i)));
    }
    float s0 = acc.lane(0);
    for (; i < n; i++) {
      s0 += q[i] * data[offset + i];
    }
    return sum(s0, acc);
  }

  @Override
  public void dot2(float[] a, float[] b, float[] data, int offset, double[] out, int at) {
    FloatVector accA = FloatVector.zero(SPECIES);
    FloatVector accB = FloatVector.zero(SPECIES);
    int n = a.length;
    int i = 0;
    for (; i + 7 < n; i += 8) {
      FloatVector d = FloatVector.fromArray(SPECIES, data, offset + i);
      accA = accA.add(FloatVector.fromArray(SPECIES, a, i).mul(d));
      accB = accB.add(FloatVector.fromArray(SPECIES, b, i).mul(d));
    }
    float a0 = accA.lane(0);
    float b0 = accB.lane(0);
    for (; i < n; i++) {
      float d = data[offset + i];
      a0 += a[i] * d;
      b0 += b[i] * d;
    }
    out[at] = sum(a0, accA);
    out[at + 1] = sum(b0, accB);
  }

  /** Lane 0 (given, with the tail in it) and lanes 1 to 7, widened and added in lane order. */
  private static double sum(float lane0, FloatVector acc) {
    return (double) lane0 + acc.lane(1) + acc.lane(2) + acc.lane(3) + acc.lane(4) + acc.lane(5)
        + acc.lane(6) + acc.lane(7);
  }

  @Override
  public String name() {
    return "simd";
  }
}
