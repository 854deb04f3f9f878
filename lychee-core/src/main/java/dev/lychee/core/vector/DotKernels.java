package dev.lychee.core.vector;

import java.util.Locale;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the dot-product kernel once per JVM (docs/defaults.md §3.5): the SIMD one when the JVM
 * has the {@code jdk.incubator.vector} module, the machine has 256-bit vectors, and the system
 * property {@value #PROPERTY} is not {@code scalar}; the scalar one otherwise. Scores do not depend
 * on the choice, only the time does, so no failure to get the faster kernel is an error.
 */
final class DotKernels {
  /** The system property that picks the kernel: {@code auto} (the default) or {@code scalar}. */
  static final String PROPERTY = "lychee.vector.kernel";

  static final String MODULE = "jdk.incubator.vector";

  private static final Logger LOG = LoggerFactory.getLogger(DotKernels.class);

  private DotKernels() {}

  /** The kernel for this JVM, as {@link #choose} picks it from the system property and the boot layer. */
  static DotKernel forThisJvm() {
    boolean present = ModuleLayer.boot().findModule(MODULE).isPresent();
    DotKernel kernel = choose(System.getProperty(PROPERTY), present);
    LOG.debug("vector kernel: {} ({} {}; {}={})", kernel.name(), MODULE,
        present ? "present" : "absent, add --add-modules " + MODULE + " for the SIMD kernel",
        PROPERTY, System.getProperty(PROPERTY, "auto"));
    return kernel;
  }

  /**
   * The kernel for a setting ({@code null}, {@code auto} or {@code scalar}; anything else is
   * reported and read as {@code auto}) and whether the vector module is in the boot layer. The
   * SIMD class is touched only when the module is present, so this runs on any JVM.
   */
  static DotKernel choose(String setting, boolean modulePresent) {
    String mode = setting == null ? "auto" : setting.trim().toLowerCase(Locale.ROOT);
    if (mode.equals("scalar")) {
      return ScalarDot.INSTANCE;
    }
    if (!mode.equals("auto")) {
      LOG.warn("{}={} is not auto or scalar; using auto", PROPERTY, setting);
    }
    if (!modulePresent) {
      return ScalarDot.INSTANCE;
    }
    try {
      DotKernel simd = SimdDot.createIfNative();
      if (simd == null) {
        LOG.debug("vector kernel: no native 256-bit vectors on this machine, the scalar kernel is faster");
        return ScalarDot.INSTANCE;
      }
      return agreesWithScalar(simd) ? simd : ScalarDot.INSTANCE;
    } catch (LinkageError e) {
      // a module in the boot layer that the class still cannot link against: slower, not wrong
      LOG.debug("vector kernel: {} could not be used ({}); scalar", MODULE, e.toString());
      return ScalarDot.INSTANCE;
    }
  }

  /**
   * Whether {@code kernel} gives the scalar kernel's bits on a few random vectors (lengths with and
   * without a tail): the guarantee that scores do not depend on the kernel is checked on this
   * machine before the kernel is used, not only in the build's tests.
   */
  static boolean agreesWithScalar(DotKernel kernel) {
    Random random = new Random(21);
    for (int n : new int[] {1, 7, 8, 19, 384}) {
      float[] a = new float[n];
      float[] b = new float[n];
      float[] data = new float[n + 3];
      for (int i = 0; i < n; i++) {
        a[i] = (float) random.nextGaussian();
        b[i] = (float) random.nextGaussian();
        data[i + 3] = (float) random.nextGaussian();
      }
      double[] got = new double[2];
      double[] want = new double[2];
      kernel.dot2(a, b, data, 3, got, 0);
      ScalarDot.INSTANCE.dot2(a, b, data, 3, want, 0);
      if (Double.doubleToRawLongBits(kernel.dot(a, data, 3)) != Double.doubleToRawLongBits(want[0])
          || Double.doubleToRawLongBits(got[0]) != Double.doubleToRawLongBits(want[0])
          || Double.doubleToRawLongBits(got[1]) != Double.doubleToRawLongBits(want[1])) {
        LOG.warn("vector kernel: {} scored differently from the scalar kernel on this JVM; using scalar",
            kernel.name());
        return false;
      }
    }
    return true;
  }
}
