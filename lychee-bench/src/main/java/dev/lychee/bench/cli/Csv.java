package dev.lychee.bench.cli;

import java.util.Arrays;
import java.util.List;

/** Parses the comma-separated option values of the eval commands. */
final class Csv {
  private Csv() {}

  static List<String> names(String value) {
    return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  static List<Integer> positiveInts(String value, String option) {
    try {
      List<Integer> out = names(value).stream().map(Integer::parseInt).toList();
      if (out.isEmpty() || out.stream().anyMatch(i -> i < 1)) {
        throw new IllegalArgumentException();
      }
      return out;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + " takes positive integers separated by commas, not '" + value + "'");
    }
  }
}
