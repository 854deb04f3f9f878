package dev.lychee.api;

import java.util.List;

/**
 * A chat completion request.
 *
 * @param messages the messages, at least one
 * @param temperature sampling temperature, {@code >= 0} (Lychee uses 0 by default)
 * @param maxTokens completion cap; 0 means the provider's default
 * @param jsonMode ask the server for a JSON object where it supports it
 */
public record ChatRequest(List<ChatMessage> messages, double temperature, int maxTokens, boolean jsonMode) {
  public ChatRequest {
    messages = List.copyOf(messages);
    if (messages.isEmpty()) {
      throw new IllegalArgumentException("a chat request needs at least one message");
    }
    if (temperature < 0 || Double.isNaN(temperature)) {
      throw new IllegalArgumentException("temperature must be >= 0: " + temperature);
    }
    if (maxTokens < 0) {
      throw new IllegalArgumentException("maxTokens must be >= 0: " + maxTokens);
    }
  }

  /** A deterministic (temperature 0) request. */
  public static ChatRequest of(List<ChatMessage> messages, boolean jsonMode) {
    return new ChatRequest(messages, 0.0, 0, jsonMode);
  }
}
