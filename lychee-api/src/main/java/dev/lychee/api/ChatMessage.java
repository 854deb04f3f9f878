package dev.lychee.api;

import java.util.Objects;

/** One chat message. */
public record ChatMessage(Role role, String content) {
  public ChatMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
  }

  public static ChatMessage system(String content) {
    return new ChatMessage(Role.SYSTEM, content);
  }

  public static ChatMessage user(String content) {
    return new ChatMessage(Role.USER, content);
  }

  public static ChatMessage assistant(String content) {
    return new ChatMessage(Role.ASSISTANT, content);
  }
}
