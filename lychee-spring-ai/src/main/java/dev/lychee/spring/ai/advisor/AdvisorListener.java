package dev.lychee.spring.ai.advisor;

import dev.lychee.spring.ai.ConversationScope;

/**
 * Hears what a {@link LycheeMemoryAdvisor} did, for metrics and logs. Methods run on the calling
 * thread and must return quickly; the defaults do nothing.
 */
public interface AdvisorListener {

  /** A recall ran before a call. */
  default void recalled(ConversationScope scope, int evidence, long nanos) {}

  /** An exchange was appended after a call; {@code turnsStored} counts turns that were new. */
  default void appended(ConversationScope scope, int turnsStored) {}

  /**
   * Recall or append failed; the call itself went on (without memory, or unremembered).
   *
   * @param stage {@code recall}, {@code append} (nothing was stored) or {@value
   *     LycheeMemoryAdvisor#INGEST_STAGE} (the turns were stored, and {@link #appended} was called,
   *     but a later step failed: embedding them, segmenting, a synchronous encoding)
   */
  default void failed(ConversationScope scope, String stage, RuntimeException error) {}

  /** A listener that does nothing. */
  AdvisorListener NONE = new AdvisorListener() {};
}
