package dev.lychee.api.spi;

import java.util.Objects;

/**
 * One string for a tuple of names, for backends that index a single key column or term.
 *
 * <p>Joining parts with a separator character lets crafted names alias each other: with NUL as
 * the separator, ({@code "a\0b"}, {@code "c"}) and ({@code "a"}, {@code "b\0c"}) give the same key.
 * The facade rejects control characters in names, but a store can be called directly, so keys are
 * built to be unambiguous whatever the parts hold: each part is written as its length, a colon and
 * the part itself. Two keys are equal exactly when their tuples are.
 */
public final class CompositeKey {
  private CompositeKey() {}

  /**
   * The key of a tuple of parts.
   *
   * @param parts the parts, in order; none may be null
   * @return a string equal to another result of this method exactly when the tuples are equal
   */
  public static String of(String... parts) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      String p = Objects.requireNonNull(parts[i], "key part is null");
      b.append(p.length()).append(':').append(p);
    }
    return b.toString();
  }
}
