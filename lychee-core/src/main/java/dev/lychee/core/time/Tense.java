package dev.lychee.core.time;

import java.util.regex.Pattern;

/**
 * The grammatical direction of a sentence, used to pick between the past and the future
 * occurrence of an expression that names no year or week ("in May", "on Friday", "June 3").
 */
public enum Tense {
  // "next" and "later" are not future markers: "the next day we left", "two days later we met".
  PAST,
  FUTURE,
  /** No marker either way; resolution then treats the sentence as past (see {@link TemporalNormalizer}). */
  UNKNOWN;

  private static final Pattern FUTURE_MARKERS = Pattern.compile(
      "\\b(will|won't|shall|gonna|going to|planning|plan to|plans to|intend|intends|hoping to|hope to"
          + "|about to|looking forward|can't wait|upcoming|tomorrow|soon"
          // a schedule told in the present simple points ahead: "the course starts in June"
          + "|starts|begins|opens|launches|kicks off|is due|are due|scheduled|coming up)\\b|'ll\\b",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern PAST_MARKERS = Pattern.compile(
      "\\b(was|were|did|had|went|got|made|took|saw|met|came|ran|began|gave|found|felt|told|ago"
          + "|yesterday|last|earlier|recently|used to|[a-z]{2,}ed)\\b",
      Pattern.CASE_INSENSITIVE);

  /** Future if the sentence has a future marker, else past if it has a past marker, else unknown. */
  public static Tense of(String sentence) {
    if (sentence == null || sentence.isBlank()) {
      return UNKNOWN;
    }
    if (FUTURE_MARKERS.matcher(sentence).find()) {
      return FUTURE;
    }
    if (PAST_MARKERS.matcher(sentence).find()) {
      return PAST;
    }
    return UNKNOWN;
  }
}
