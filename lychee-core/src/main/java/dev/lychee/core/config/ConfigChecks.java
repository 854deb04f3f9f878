package dev.lychee.core.config;

/**
 * Range checks for configuration builders. Every failure names the owner and the setting, so a
 * wrong value in a large configuration points at the line to fix.
 */
public final class ConfigChecks {
  private ConfigChecks() {}

  /** {@code value} in [0, 1] (NaN rejected). */
  public static double unit(String owner, String name, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw new IllegalArgumentException(owner + "." + name + " must lie in [0, 1]: " + value);
    }
    return value;
  }

  /** {@code value} >= 0 (NaN rejected). */
  public static double nonNegative(String owner, String name, double value) {
    if (!(value >= 0)) {
      throw new IllegalArgumentException(owner + "." + name + " must be >= 0: " + value);
    }
    return value;
  }

  /** {@code value} > 0 (NaN rejected). */
  public static double positive(String owner, String name, double value) {
    if (!(value > 0)) {
      throw new IllegalArgumentException(owner + "." + name + " must be > 0: " + value);
    }
    return value;
  }

  /** {@code value} >= {@code min}. */
  public static int atLeast(String owner, String name, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(owner + "." + name + " must be >= " + min + ": " + value);
    }
    return value;
  }
}
