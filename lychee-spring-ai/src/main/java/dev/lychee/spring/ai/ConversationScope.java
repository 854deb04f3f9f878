package dev.lychee.spring.ai;

/**
 * Where a Spring AI conversation lives in Lychee.
 *
 * @param namespace the Lychee namespace (a user or tenant); recall never leaves it
 * @param session the session the conversation's exchanges are appended to
 */
public record ConversationScope(String namespace, String session) {
  public ConversationScope {
    require(namespace, "namespace");
    require(session, "session");
  }

  private static void require(String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("the conversation scope needs a non-blank " + what);
    }
  }
}
