package dev.lychee.core.read;

import dev.lychee.api.Checks;
import dev.lychee.core.segment.Exchanges;

/**
 * What a framework adapter (the Spring AI advisor and retriever, the langchain4j retriever) recalls
 * for a user message. A message longer than a question
 * may be ({@link Checks#MAX_QUESTION_CHARS}) is a pasted document, not a question, and Spring AI
 * hands it over on every call; refusing it would fail the host's chat call. Such a message is
 * recalled on its first and last {@value #LONG_MESSAGE_HALF} code points around {@code "\n...\n"}:
 * the request usually opens or closes it, and that is the excerpt Lychee embeds for an exchange
 * that long (docs/defaults.md §8.1).
 */
public final class QuestionText {
  /** Code points kept from each end of a user message too long to be a question. */
  public static final int LONG_MESSAGE_HALF = 2_000;

  private QuestionText() {}

  /** The message itself, or for one over {@link Checks#MAX_QUESTION_CHARS} its bounded excerpt. */
  public static String of(String message) {
    return message.length() <= Checks.MAX_QUESTION_CHARS ? message
        : Exchanges.embeddingText(message, 2 * LONG_MESSAGE_HALF);
  }
}
