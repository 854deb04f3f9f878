package dev.lychee.embed.onnx.calibration;

import java.util.Arrays;

/**
 * Order statistics of a sample. The median of an even count is the mean of the two middle values
 * (as in docs/defaults.md §1.5); percentiles interpolate linearly between order statistics.
 */
record RobustStats(int n, double median, double mad, double p10, double p25, double p75, double p90, double mean) {

  /** 1.4826 * MAD estimates the standard deviation of normal data. */
  static final double MAD_TO_SIGMA = 1.4826;

  static RobustStats of(double[] sample) {
    if (sample.length == 0) {
      throw new IllegalArgumentException("empty sample");
    }
    double[] sorted = sample.clone();
    Arrays.sort(sorted);
    double median = percentile(sorted, 0.5);
    double[] dev = new double[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      dev[i] = Math.abs(sorted[i] - median);
    }
    Arrays.sort(dev);
    double mean = Arrays.stream(sorted).average().orElseThrow();
    return new RobustStats(
        sorted.length,
        median,
        percentile(dev, 0.5),
        percentile(sorted, 0.10),
        percentile(sorted, 0.25),
        percentile(sorted, 0.75),
        percentile(sorted, 0.90),
        mean);
  }

  /** The robust spread 1.4826 * MAD. */
  double robustSigma() {
    return MAD_TO_SIGMA * mad;
  }

  /** Linear interpolation between closest ranks on a sorted sample (q in [0,1]). */
  static double percentile(double[] sorted, double q) {
    double pos = q * (sorted.length - 1);
    int lo = (int) Math.floor(pos);
    int hi = (int) Math.ceil(pos);
    return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
  }

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT,
        "n=%d median=%.4f MAD=%.4f 1.4826*MAD=%.4f p10=%.4f p25=%.4f p75=%.4f p90=%.4f mean=%.4f",
        n, median, mad, robustSigma(), p10, p25, p75, p90, mean);
  }
}
