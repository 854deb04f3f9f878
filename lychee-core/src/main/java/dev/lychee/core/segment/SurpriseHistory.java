package dev.lychee.core.segment;

/**
 * The last {@code capacity} surprise values of a session, oldest first. It spans segment
 * boundaries on purpose (the robust z compares against the session's recent surprise, not the
 * current segment's) and is dropped on flush.
 */
final class SurpriseHistory {
  private final double[] ring;
  private int start;
  private int size;

  SurpriseHistory(int capacity) {
    ring = new double[capacity];
  }

  void add(double value) {
    if (size < ring.length) {
      ring[(start + size) % ring.length] = value;
      size++;
    } else {
      ring[start] = value;
      start = (start + 1) % ring.length;
    }
  }

  /** A copy of the values, oldest first. */
  double[] values() {
    double[] out = new double[size];
    for (int i = 0; i < size; i++) {
      out[i] = ring[(start + i) % ring.length];
    }
    return out;
  }

  void clear() {
    start = 0;
    size = 0;
  }
}
