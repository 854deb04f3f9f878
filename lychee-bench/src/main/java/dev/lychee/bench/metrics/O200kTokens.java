package dev.lychee.bench.metrics;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.lychee.api.spi.TokenCounter;

/**
 * The o200k tokenizer through jtokkit.
 *
 * <p>TODO(bench): replace with {@code dev.lychee.core.llm.O200kTokenCounter} once the encode
 * helper's class is on main; both count with the same encoding, so numbers do not move.
 */
public final class O200kTokens implements TokenCounter {
  private static final Encoding ENCODING =
      Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

  @Override
  public int count(String text) {
    return text == null || text.isEmpty() ? 0 : ENCODING.countTokens(text);
  }
}
