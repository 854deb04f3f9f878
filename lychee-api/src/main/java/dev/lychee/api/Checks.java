package dev.lychee.api;

import java.util.Objects;

/** Argument checks shared by the records of this package; package-private on purpose. */
final class Checks {
  private Checks() {}

  static String nonBlank(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
    return value;
  }

  static String orEmpty(String value) {
    return value == null ? "" : value;
  }
}
