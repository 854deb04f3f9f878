package dev.lychee.bench.longmemeval;

import dev.lychee.api.Role;
import java.util.Objects;

/**
 * One turn of a LongMemEval haystack session.
 *
 * @param role {@code user} or {@code assistant}
 * @param content the text
 * @param hasAnswer whether the turn holds (part of) the answer ({@code has_answer}, absent = false)
 */
public record LmeTurn(Role role, String content, boolean hasAnswer) {
  public LmeTurn {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
  }
}
