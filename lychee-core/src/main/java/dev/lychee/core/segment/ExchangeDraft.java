package dev.lychee.core.segment;

import dev.lychee.api.Exchange;
import dev.lychee.api.RawTurn;
import java.util.List;
import java.util.Objects;

/**
 * An exchange before embedding, as {@link Exchanges#form} builds it.
 *
 * @param turns the turns, at least one; for a fragment, one turn whose text is the fragment
 * @param text one {@code "<role>: <content>"} line per non-empty turn, joined with {@code \n}
 * @param tokens the {@link TokenEstimator} count (for a split piece: the sum over its turns)
 * @param forceFinalize true for a character-level fragment of one oversized turn, which must
 *     become a segment of its own
 */
public record ExchangeDraft(List<RawTurn> turns, String text, int tokens, boolean forceFinalize) {

  public ExchangeDraft {
    turns = List.copyOf(turns);
    if (turns.isEmpty()) {
      throw new IllegalArgumentException("an exchange needs at least one turn");
    }
    Objects.requireNonNull(text, "text");
    if (tokens < 1) {
      throw new IllegalArgumentException("tokens must be >= 1: " + tokens);
    }
  }

  /** Absolute index of the first turn. */
  public int firstIndex() {
    return turns.get(0).index();
  }

  /** Absolute index of the last turn. */
  public int lastIndex() {
    return turns.get(turns.size() - 1).index();
  }

  /**
   * The text to embed: {@link #text()} shortened by {@link Exchanges#embeddingText(String, int)}
   * to the configured maximum. With {@link SegmentationConfig#exchangeVectorsFromTurns()} an
   * exchange of one whole turn (not a fragment) is embedded as that turn's own text, {@link
   * RawTurn#content()} shortened the same way: the very text the write path embeds for the turn's
   * vector, so one embedding serves both.
   */
  public String embeddingText(SegmentationConfig config) {
    if (config.exchangeVectorsFromTurns() && isWholeTurn()) {
      return Exchanges.embeddingText(turns.get(0).content(), config.maxEmbeddingChars());
    }
    return Exchanges.embeddingText(text, config.maxEmbeddingChars());
  }

  /** True for an exchange of exactly one turn that is not a fragment of it. */
  public boolean isWholeTurn() {
    return turns.size() == 1 && !forceFinalize;
  }

  /** The embedded exchange the segmenter takes; namespace and session come from the turns. */
  public Exchange toExchange(float[] vector) {
    RawTurn first = turns.get(0);
    return new Exchange(first.namespace(), first.session(), turns, text, tokens, vector, forceFinalize);
  }
}
