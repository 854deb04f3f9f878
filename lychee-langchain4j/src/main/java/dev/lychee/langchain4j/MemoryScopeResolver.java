package dev.lychee.langchain4j;

import java.util.Objects;

/**
 * Maps a langchain4j chat memory id (the value of {@code @MemoryId}, or {@code "default"} for a
 * single shared memory) to a Lychee namespace and session. Implementations must be
 * deterministic: the same id always lands in the same scope, so that two ids never share memory
 * by accident.
 */
@FunctionalInterface
public interface MemoryScopeResolver {

  /**
   * The scope of a chat memory id.
   *
   * @throws IllegalArgumentException when the id cannot be mapped (for example {@code null})
   */
  MemoryScope resolve(Object memoryId);

  /**
   * One namespace per memory id (its {@code toString()}), every chat in the given session. Fits
   * the common {@code @MemoryId String user} assistant.
   */
  static MemoryScopeResolver perMemoryId(String session) {
    if (session == null || session.isBlank()) {
      throw new IllegalArgumentException("the session name must not be blank");
    }
    return id -> new MemoryScope(requireId(id).toString(), session);
  }

  /** {@link #perMemoryId(String)} with the session {@code "chat"}. */
  static MemoryScopeResolver perMemoryId() {
    return perMemoryId("chat");
  }

  private static Object requireId(Object id) {
    if (id == null) {
      throw new IllegalArgumentException(
          "the query carries no chat memory id: give the AI service a @MemoryId parameter or a chat memory");
    }
    return Objects.requireNonNull(id);
  }
}
