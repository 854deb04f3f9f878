package dev.lychee.api;

import java.util.Objects;

/**
 * A chat completion.
 *
 * @param text the completion text
 * @param usage tokens as the provider reported them
 * @param model the model that answered ("" if unknown)
 */
public record ChatResult(String text, TokenUsage usage, String model) {
  public ChatResult {
    Objects.requireNonNull(text, "text");
    usage = usage == null ? TokenUsage.ZERO : usage;
    model = Checks.orEmpty(model);
  }
}
