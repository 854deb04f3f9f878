package dev.lychee.bench.systems;

import dev.lychee.api.TurnRef;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * One recalled evidence item as the metrics see it.
 *
 * @param turns the raw turns the item cites (a turn cites itself, a record its evidence turns, a
 *     window the turns it shows)
 * @param text the item serialised as the answer prompt would show it
 * @param overheadTokens tokens to add to the count of {@code text} for what the serialisation
 *     leaves out (baselines: 12 for the date line and numbering, per evaluation.md; 0 when
 *     {@code text} is already the full serialised block)
 * @param shown what a reader of the prompt sees of the item: {@code text} plus what the overhead
 *     allowance stands for (a baseline turn's date line), which answer containment reads
 */
public record EvidenceItem(List<TurnRef> turns, String text, int overheadTokens, String shown) {
  /** The allowance evaluation.md gives a baseline turn for its date line and numbering. */
  public static final int BASELINE_OVERHEAD_TOKENS = 12;

  public EvidenceItem {
    turns = List.copyOf(turns);
    Objects.requireNonNull(text, "text");
    if (overheadTokens < 0) {
      throw new IllegalArgumentException("overheadTokens must be >= 0");
    }
    shown = shown == null ? text : shown;
  }

  /** An item shown exactly as its text. */
  public EvidenceItem(List<TurnRef> turns, String text, int overheadTokens) {
    this(turns, text, overheadTokens, text);
  }

  /** A baseline item: one raw turn shown as its text plus the date line and numbering allowance. */
  public static EvidenceItem ofTurn(TurnRef turn, String text) {
    return new EvidenceItem(List.of(turn), text, BASELINE_OVERHEAD_TOKENS);
  }

  /** A baseline item whose date line (covered by the allowance) shows the day it was said. */
  public static EvidenceItem ofTurn(TurnRef turn, String text, LocalDateTime said) {
    return new EvidenceItem(List.of(turn), text, BASELINE_OVERHEAD_TOKENS,
        said == null ? text : text + "\nMentioned: " + said.toLocalDate());
  }
}
