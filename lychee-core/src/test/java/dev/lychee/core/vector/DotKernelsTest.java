package dev.lychee.core.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Scores do not depend on the kernel: the SIMD kernel gives the scalar kernel's bits on random
 * vectors of lengths with and without a tail, and a JVM without the vector module gets the scalar
 * kernel and no failure.
 */
class DotKernelsTest {
  private static final int[] LENGTHS = {1, 3, 7, 8, 9, 15, 16, 17, 23, 64, 127, 384, 385, 1024};

  private final Random random = new Random(16);

  private float[] gaussian(int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) random.nextGaussian();
    }
    return v;
  }

  private static boolean moduleInBootLayer() {
    return ModuleLayer.boot().findModule(DotKernels.MODULE).isPresent();
  }

  /** The build runs these tests with the module (lychee-core's surefire argLine) so the SIMD side is tested. */
  @Test
  void theBuildRunsTheTestsWithTheVectorModule() {
    assumeThat(System.getProperty("lychee.test.simd")).isEqualTo("expected");
    assertThat(moduleInBootLayer()).isTrue();
    assertThat(Vectors.kernel()).isEqualTo(SimdDot.createIfNative() == null ? "scalar" : "simd");
  }

  @Test
  void theSimdKernelGivesTheScalarKernelsBitsForEveryLength() {
    assumeThat(moduleInBootLayer()).isTrue();
    DotKernel simd = SimdDot.createIfNative();
    assumeThat(simd).isNotNull();
    DotKernel scalar = ScalarDot.INSTANCE;
    for (int n : LENGTHS) {
      for (int trial = 0; trial < 12; trial++) {
        float[] a = gaussian(n);
        float[] b = trial % 2 == 0 ? gaussian(n) : Vectors.unit(gaussian(n));
        // the stored vector at an offset that is not a multiple of the lane count
        int offset = 5 + trial;
        float[] data = new float[offset + 2 * n];
        System.arraycopy(gaussian(n), 0, data, offset, n);
        assertThat(bits(simd.dot(a, data, offset))).as("dot, length %d", n)
            .isEqualTo(bits(scalar.dot(a, data, offset)));
        double[] got = new double[3];
        double[] want = new double[3];
        simd.dot2(a, b, data, offset, got, 1);
        scalar.dot2(a, b, data, offset, want, 1);
        assertThat(bits(got[1])).as("dot2 a, length %d", n).isEqualTo(bits(want[1]));
        assertThat(bits(got[2])).as("dot2 b, length %d", n).isEqualTo(bits(want[2]));
        assertThat(bits(got[1])).isEqualTo(bits(scalar.dot(a, data, offset)));
      }
    }
  }

  /** The scalar kernel's lane layout, written out in the plainest way: sum i % 8, tail to sum 0. */
  @Test
  void theScalarKernelSumsEightLanesInTheDocumentedOrder() {
    for (int n : LENGTHS) {
      float[] q = gaussian(n);
      float[] d = gaussian(n);
      float[] lanes = new float[DotKernel.LANES];
      int full = n - n % DotKernel.LANES;
      for (int i = 0; i < full; i++) {
        lanes[i % DotKernel.LANES] += q[i] * d[i];
      }
      for (int i = full; i < n; i++) {
        lanes[0] += q[i] * d[i];
      }
      double want = lanes[0];
      for (int l = 1; l < DotKernel.LANES; l++) {
        want += lanes[l];
      }
      assertThat(bits(ScalarDot.INSTANCE.dot(q, d, 0))).as("length %d", n).isEqualTo(bits(want));
    }
  }

  @Test
  void withoutTheModuleTheScalarKernelIsChosen() {
    assertThat(DotKernels.choose(null, false)).isSameAs(ScalarDot.INSTANCE);
    assertThat(DotKernels.choose("auto", false)).isSameAs(ScalarDot.INSTANCE);
  }

  @Test
  void theSettingScalarOptsOutOfSimd() {
    assertThat(DotKernels.choose("scalar", true)).isSameAs(ScalarDot.INSTANCE);
    assertThat(DotKernels.choose(" SCALAR ", true)).isSameAs(ScalarDot.INSTANCE);
  }

  @Test
  void withTheModuleAutoChoosesSimdAndAnUnknownSettingReadsAsAuto() {
    assumeThat(moduleInBootLayer()).isTrue();
    assumeThat(SimdDot.createIfNative()).isNotNull();
    assertThat(DotKernels.choose(null, true).name()).isEqualTo("simd");
    assertThat(DotKernels.choose("auto", true).name()).isEqualTo("simd");
    assertThat(DotKernels.choose("fast", true).name()).isEqualTo("simd");
  }

  @Test
  void aKernelThatScoresDifferentlyIsNotUsed() {
    DotKernel fused = new DotKernel() {
      @Override
      public double dot(float[] q, float[] data, int offset) {
        double s = 0;
        for (int i = 0; i < q.length; i++) {
          s = Math.fma(q[i], data[offset + i], s);
        }
        return s;
      }

      @Override
      public void dot2(float[] a, float[] b, float[] data, int offset, double[] out, int at) {
        out[at] = dot(a, data, offset);
        out[at + 1] = dot(b, data, offset);
      }

      @Override
      public String name() {
        return "fused";
      }
    };
    assertThat(DotKernels.agreesWithScalar(fused)).isFalse();
    assertThat(DotKernels.agreesWithScalar(ScalarDot.INSTANCE)).isTrue();
  }

  private static long bits(double v) {
    return Double.doubleToRawLongBits(v);
  }
}
