package dev.lychee.core.llm;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.lychee.api.spi.TokenCounter;

/**
 * Counts tokens with OpenAI's {@code o200k_base} byte-pair encoding (the tokenizer of the GPT-4o
 * and GPT-4.1 families), via jtokkit. Used for Lychee's own accounting of prompt sizes, so that
 * numbers are comparable whichever provider actually serves the model.
 *
 * <p>Thread-safe: jtokkit encodings are immutable once loaded. The vocabulary is loaded once per
 * JVM (lazily, on first construction) because it is a few megabytes.
 */
public final class O200kTokenCounter implements TokenCounter {

  /** Holder idiom: the registry and the vocabulary load on first use, exactly once. */
  private static final class Vocabulary {
    static final Encoding O200K =
        Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
  }

  private final Encoding encoding;

  public O200kTokenCounter() {
    this.encoding = Vocabulary.O200K;
  }

  @Override
  public int count(String text) {
    if (text == null || text.isEmpty()) {
      return 0;
    }
    // countTokensOrdinary treats "<|endoftext|>"-like strings as plain text instead of throwing.
    return encoding.countTokensOrdinary(text);
  }
}
