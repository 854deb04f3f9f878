package dev.lychee.core.time;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
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
      "\\b(will|won't|shall|gonna|going to|planning|plan to|plans to|planned for|intend|intends|hoping to|hope to"
          + "|about to|looking forward|can't wait|upcoming|tomorrow|soon|this coming|coming up"
          // a schedule told in the present simple points ahead: "the course starts in June"
          + "|starts|begins|opens|launches|kicks off|arrives|departs|lands|is due|are due|scheduled|booked for|set for)\\b|'ll\\b",
      Pattern.CASE_INSENSITIVE);
  /**
   * Up to two adverbs between the auxiliary and the -ing form: "she is now visiting on July 20th",
   * "we're finally moving in May", "I'm also really looking forward". A changed plan is usually
   * told with "now" or "instead", so without these the new date would be read as past.
   */
  private static final String ADVERBS =
      "(?:(?:\\w+ly|also|still|just|now|already|actually|finally|even|then|soon|again|probably)\\s+){0,2}";
  /**
   * The present progressive of an arrangement: "my sister is visiting on October 12th", "I'm flying
   * to Tokyo on June 20th", "we're starting in January". Tense is only asked about sentences that
   * hold a date expression, and there the progressive names a plan; the -ing words after "is" that
   * are adjectives or nouns ("it's amazing", "the party is Saturday evening") are left out.
   */
  private static final Pattern PROGRESSIVE = Pattern.compile(
      "\\b(?:am|is|are)\\s+" + ADVERBS + "(\\w{3,}ing)\\b|(?:'m|'re|'s)\\s+" + ADVERBS + "(\\w{3,}ing)\\b",
      Pattern.CASE_INSENSITIVE);
  private static final Set<String> NOT_PROGRESSIVE = Set.of(
      "amazing", "interesting", "exciting", "boring", "annoying", "relaxing", "inspiring", "surprising", "charming",
      "stunning", "tiring", "confusing", "embarrassing", "disappointing", "encouraging", "refreshing", "rewarding",
      "challenging", "thrilling", "touching", "fascinating", "frustrating", "terrifying", "satisfying", "worrying",
      "outstanding", "missing", "amusing", "appealing", "astonishing", "calming", "comforting", "demanding",
      "depressing", "devastating", "exhausting", "fulfilling", "heartwarming", "humbling", "intimidating",
      "overwhelming", "pleasing", "promising", "shocking", "soothing", "striking", "tempting", "uplifting",
      "welcoming", "nothing", "something", "anything", "everything", "morning", "evening", "thing", "spring",
      "king", "wedding", "building", "during", "ceiling", "string", "ring", "sibling", "darling", "feeling");
  /**
   * A date told with the present tense of "be" and no past marker anywhere in the clause: "our
   * concert is on December 14th", "the exams are in May", "the party's on Saturday". Said in
   * conversation this is a schedule (a past date takes "was"), so it points ahead. Only a
   * preposition followed by a month, weekday or day number counts, so "the painting is on the wall"
   * and "it's in the box" do not; it is asked after the past markers, so a clause that also says
   * "was" or "went" keeps its past reading.
   */
  private static final Pattern SCHEDULED_COPULA = Pattern.compile(
      "(?:\\b(?:is|are)|'s|'re)\\s+" + ADVERBS + "(?:on|in)\\s+(?:the\\s+)?"
          + "(?:january|february|march|april|may|june|july|august|september|october|november|december"
          + "|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\\d{1,2}(?:st|nd|rd|th)?\\b)",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern PAST_MARKERS = Pattern.compile(
      "\\b(was|were|did|had|went|got|made|took|saw|met|came|ran|began|gave|found|felt|told|ago"
          + "|yesterday|last|earlier|recently|used to|[a-z]{2,}ed)\\b",
      Pattern.CASE_INSENSITIVE);

  /**
   * Future if the sentence has a future marker, else past if it has a past marker, else future if
   * it dates something with a present "is/are on/in" (a schedule), else unknown.
   */
  public static Tense of(String sentence) {
    if (sentence == null || sentence.isBlank()) {
      return UNKNOWN;
    }
    if (FUTURE_MARKERS.matcher(sentence).find() || progressive(sentence)) {
      return FUTURE;
    }
    if (PAST_MARKERS.matcher(sentence).find()) {
      return PAST;
    }
    if (SCHEDULED_COPULA.matcher(sentence).find()) {
      return FUTURE;
    }
    return UNKNOWN;
  }

  private static boolean progressive(String sentence) {
    Matcher m = PROGRESSIVE.matcher(sentence);
    while (m.find()) {
      String verb = (m.group(1) != null ? m.group(1) : m.group(2)).toLowerCase(Locale.ROOT);
      if (!NOT_PROGRESSIVE.contains(verb)) {
        return true;
      }
    }
    return false;
  }
}
