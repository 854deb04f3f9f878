package dev.lychee.langchain4j;

/**
 * Where a langchain4j chat memory lives in Lychee.
 *
 * @param namespace the Lychee namespace (one user, tenant or agent); recall never leaves it
 * @param session the session the chat's turns are appended to
 */
public record MemoryScope(String namespace, String session) {
  public MemoryScope {
    require(namespace, "namespace");
    require(session, "session");
  }

  private static void require(String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("the memory scope needs a non-blank " + what);
    }
  }
}
