package dev.lychee.core.encode;

import dev.lychee.api.MemoryType;
import dev.lychee.core.time.Tense;
import java.util.regex.Pattern;

/**
 * Memory type by rule, for the offline encoder. Checked in this order:
 * <ol>
 *   <li><b>plans</b> (future tense): an {@code event} when a date is attached (an event that lies
 *       ahead), else a {@code fact} (a stated intention); either way tagged {@code plan}. The seven
 *       types have no "plan" of their own;
 *   <li>{@code failure_pattern}: mistakes, regrets, lessons;
 *   <li>{@code constraint}: cannot, allergic, must, not allowed, intolerant, vegetarian...;
 *   <li>{@code procedure}: steps, recipes, "the trick is";
 *   <li>{@code event}: a dated sentence in the past, or a past action verb (went, visited,
 *       attended, adopted...);
 *   <li>{@code preference}: like (as a verb after a subject, not "looks like"), love, enjoy, prefer,
 *       favourite, hate...;
 *   <li>otherwise {@code fact}.
 * </ol>
 */
final class TypeRules {
  private TypeRules() {}

  /** The type and whether the sentence is a plan. */
  record Typed(MemoryType type, boolean plan) {}

  private static final Pattern FAILURE = Pattern.compile(
      "\\b(mistake|mistakes|lesson|lessons|learned the hard way|should have|shouldn't have|should've|went wrong|regret|regrets)\\b");
  private static final Pattern CONSTRAINT = Pattern.compile(
      "\\b(can't(?! (?:wait|believe|stop|imagine|thank|remember|help|get enough))|cannot|can not|unable to"
          + "|allergic|allergy|allergies|must(?! (?:have|be|feel|look|sound|seem))|mustn't|not allowed|intolerant|vegan|vegetarian|gluten"
          + "|lactose|avoid|forbidden|no longer able)\\b");
  private static final Pattern PROCEDURE = Pattern.compile(
      "\\b(step by step|steps|recipe|the trick is|the key is|how to|first,? you|instructions)\\b");
  private static final Pattern EVENT_VERBS = Pattern.compile(
      "\\b(went|visited|attended|joined|started|finished|bought|moved|met|traveled|travelled|ran|won|lost"
          + "|adopted|graduated|married|celebrated|took|painted|signed up|volunteered|saw|watched|tried"
          + "|received|hosted|participated|competed|returned|came back|got back|performed|organized"
          + "|organised|launched|opened|released|published|completed|quit|broke|injured|hurt|visited)\\b");
  private static final Pattern PREFERENCE = Pattern.compile(
      "\\b(?:i|you|we|they|really|also|do|don't|would|'d)\\s+like\\b"
          + "|\\b(likes|liked|love|loves|loved|enjoy|enjoys|enjoyed|prefer|prefers|favorite|favourite"
          + "|hate|hates|dislike|dislikes|fond of|passionate about|keen on|big fan|fan of|obsessed with)\\b");

  static Typed type(String sentence, Tense tense, boolean dated) {
    String s = sentence.toLowerCase(java.util.Locale.ROOT).replace('’', '\'');
    if (tense == Tense.FUTURE) {
      return new Typed(dated ? MemoryType.EVENT : MemoryType.FACT, true);
    }
    if (FAILURE.matcher(s).find()) {
      return new Typed(MemoryType.FAILURE_PATTERN, false);
    }
    if (CONSTRAINT.matcher(s).find()) {
      return new Typed(MemoryType.CONSTRAINT, false);
    }
    if (PROCEDURE.matcher(s).find()) {
      return new Typed(MemoryType.PROCEDURE, false);
    }
    if ((dated && tense == Tense.PAST) || EVENT_VERBS.matcher(s).find()) {
      return new Typed(MemoryType.EVENT, false);
    }
    if (PREFERENCE.matcher(s).find()) {
      return new Typed(MemoryType.PREFERENCE, false);
    }
    return new Typed(MemoryType.FACT, false);
  }
}
