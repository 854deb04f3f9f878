package dev.lychee.core.vector;

/**
 * One way to compute the dot products behind {@link Vectors#dot} and {@link Vectors#dot2}. Every
 * kernel gives the same bits: {@link #LANES} float sums, element {@code i} of the full blocks added
 * to sum {@code i % LANES} as a float product then a float sum (no fused multiply-add), the elements
 * after the last full block added to sum 0 in order, and the sums widened to double and added from
 * sum 0 to sum {@code LANES - 1} (docs/defaults.md §3.5).
 */
interface DotKernel {
  /**
   * The lane count of every kernel. Eight floats are one 256-bit register, which every x86 machine
   * with AVX2 has; sixteen (AVX-512) measured no clearly faster on the 13,500-row scan, which reads
   * faster than it computes (docs/measurements.md §6, round sixteen).
   */
  int LANES = 8;

  /** Dot product of {@code q} with the {@code q.length} floats stored from {@code offset} in {@code data}. */
  double dot(float[] q, float[] data, int offset);

  /**
   * The dot products of {@code a} and {@code b} (of one length) with the vector stored at {@code
   * offset} in {@code data}, into {@code out[at]} and {@code out[at + 1]}, each bit for bit what
   * {@link #dot} gives.
   */
  void dot2(float[] a, float[] b, float[] data, int offset, double[] out, int at);

  /** A short name for logs and reports: {@code scalar} or {@code simd}. */
  String name();
}
