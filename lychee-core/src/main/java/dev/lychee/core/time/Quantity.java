package dev.lychee.core.time;

import java.util.Locale;
import java.util.Map;

/**
 * A count written in digits or words. Vague words give a range: "a couple" is 2, "a few" is 2 to 5
 * and "several" 3 to 7 (our reading; the reference leaves relative dates to the LLM).
 */
record Quantity(int low, int high) {

  /** The regex alternatives that {@link #parse} understands (longest first). */
  static final String REGEX = "(\\d{1,3}|a\\s+couple\\s+of|a\\s+couple|couple\\s+of|a\\s+few|few|several"
      + "|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
      + "|sixteen|seventeen|eighteen|nineteen|twenty|thirty)";

  private static final Map<String, Integer> WORDS = Map.ofEntries(
      Map.entry("a", 1), Map.entry("an", 1), Map.entry("one", 1), Map.entry("two", 2),
      Map.entry("three", 3), Map.entry("four", 4), Map.entry("five", 5), Map.entry("six", 6),
      Map.entry("seven", 7), Map.entry("eight", 8), Map.entry("nine", 9), Map.entry("ten", 10),
      Map.entry("eleven", 11), Map.entry("twelve", 12), Map.entry("thirteen", 13),
      Map.entry("fourteen", 14), Map.entry("fifteen", 15), Map.entry("sixteen", 16),
      Map.entry("seventeen", 17), Map.entry("eighteen", 18), Map.entry("nineteen", 19),
      Map.entry("twenty", 20), Map.entry("thirty", 30));

  boolean exact() {
    return low == high;
  }

  static Quantity parse(String text) {
    String t = text.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").strip();
    if (t.chars().allMatch(Character::isDigit)) {
      int n = Integer.parseInt(t);
      return new Quantity(n, n);
    }
    if (t.contains("couple")) {
      return new Quantity(2, 2);
    }
    if (t.contains("few")) {
      return new Quantity(2, 5);
    }
    if (t.equals("several")) {
      return new Quantity(3, 7);
    }
    Integer n = WORDS.get(t);
    if (n == null) {
      throw new IllegalArgumentException("not a quantity: " + text);
    }
    return new Quantity(n, n);
  }
}
