package dev.lychee.core.segment;

/**
 * The segmenter's cheap token estimate (docs/defaults.md §1.2), counted in code points:
 *
 * <pre>
 * max(1, n_cjk + n_words + ⌊n_other / 4⌋)
 * </pre>
 *
 * where {@code n_cjk} counts code points in U+4E00–U+9FFF, {@code n_words} counts maximal runs of
 * {@code [A-Za-z0-9_]}, and {@code n_other} counts every remaining code point (spaces,
 * punctuation, other scripts). It is deliberately not a real tokenizer: the length thresholds of
 * the segmenter were set against this estimate.
 */
public final class TokenEstimator {

  private TokenEstimator() {}

  /** The estimate for {@code text}; at least 1 (also for the empty string). */
  public static int estimate(String text) {
    Counter c = new Counter();
    text.codePoints().forEach(c::add);
    return c.estimate();
  }

  /** True for the code points the estimate counts one token each. */
  static boolean isCjk(int cp) {
    return cp >= 0x4E00 && cp <= 0x9FFF;
  }

  static boolean isWordChar(int cp) {
    return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9') || cp == '_';
  }

  /**
   * Incremental form of the estimate: feeding code points one by one gives, at every step, the
   * estimate of the prefix fed so far. Used to cut oversized turns without re-counting.
   */
  static final class Counter {
    private long cjk;
    private long words;
    private long other;
    private boolean inWord;

    void add(int cp) {
      if (isWordChar(cp)) {
        if (!inWord) {
          words++;
          inWord = true;
        }
        return;
      }
      inWord = false;
      if (isCjk(cp)) {
        cjk++;
      } else {
        other++;
      }
    }

    void addAll(String s) {
      s.codePoints().forEach(this::add);
    }

    /** Estimate of the prefix if {@code cp} were added next, without adding it. */
    int estimateWith(int cp) {
      long c = cjk;
      long w = words;
      long o = other;
      if (isWordChar(cp)) {
        if (!inWord) {
          w++;
        }
      } else if (isCjk(cp)) {
        c++;
      } else {
        o++;
      }
      return clamp(c + w + o / 4);
    }

    int estimate() {
      return clamp(cjk + words + other / 4);
    }

    private static int clamp(long v) {
      return (int) Math.max(1, Math.min(Integer.MAX_VALUE, v));
    }
  }
}
