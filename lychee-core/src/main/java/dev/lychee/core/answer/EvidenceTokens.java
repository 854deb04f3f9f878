package dev.lychee.core.answer;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.spi.TokenCounter;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The token size of evidence as the answer prompt shows it: the {@link EvidenceFormatter}'s
 * serialisation counted with the {@link TokenCounter}. Selection sizes evidence to a token budget
 * with it and the LLM answerer serialises evidence through it, so the count a budget is checked
 * against is the count of the text the model receives. Thread-safe.
 */
public final class EvidenceTokens {
  private final TokenCounter counter;
  private final EvidenceFormatter formatter;

  @Inject
  public EvidenceTokens(TokenCounter counter) {
    this(counter, new EvidenceFormatter());
  }

  public EvidenceTokens(TokenCounter counter, EvidenceFormatter formatter) {
    this.counter = Objects.requireNonNull(counter, "counter");
    this.formatter = Objects.requireNonNull(formatter, "formatter");
  }

  /** The evidence as the answer prompt shows it. */
  public String serialise(List<Evidence> evidence) {
    return formatter.format(evidence);
  }

  /**
   * Tokens of the serialised evidence; 0 for no evidence, because then no prompt shows any (the
   * answerer says at once that nothing is known).
   */
  public int count(List<Evidence> evidence) {
    return evidence.isEmpty() ? 0 : counter.count(serialise(evidence));
  }

  /** Tokens of the serialisation's frame (block headings), which any non-empty evidence pays once. */
  public int frame() {
    return counter.count(formatter.format(List.of()));
  }

  /**
   * Tokens one candidate adds at position {@code rank}: its item text plus the blank line that
   * separates items. An estimate for choosing; {@link #count(List)} is the exact figure.
   */
  public int item(Candidate c, int rank) {
    return counter.count(formatter.item(c, rank)) + 1;
  }

  /**
   * The longest prefix of {@code evidence} whose serialisation fits in {@code budget} tokens (the
   * guard for selectors that do not size their output themselves).
   */
  public List<Evidence> fit(List<Evidence> evidence, int budget) {
    List<Evidence> kept = new ArrayList<>(evidence);
    while (!kept.isEmpty() && count(kept) > budget) {
      kept.remove(kept.size() - 1);
    }
    return kept;
  }
}
