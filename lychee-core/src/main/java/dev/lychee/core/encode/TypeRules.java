package dev.lychee.core.encode;

import dev.lychee.api.MemoryType;
import dev.lychee.core.time.Tense;
import java.util.regex.Pattern;

/**
 * Memory type by rule, for the offline encoder. Checked in this order, first match wins:
 * <ol>
 *   <li><b>plans</b> (future tense: "will", "going to", "planning", "can't wait to"...), always
 *       tagged {@code plan}: a constraint or a lasting preference ("I'll always love jazz") keeps its
 *       type; otherwise an {@code event} when a date is attached (an event that lies ahead), else a
 *       {@code fact} (a stated intention). The seven types have no "plan" of their own;
 *   <li>{@code failure_pattern}: mistakes, regrets, lessons, things that went wrong;
 *   <li>{@code constraint}: cannot, allergic, must, not allowed, intolerant, vegetarian...;
 *   <li>{@code procedure}: steps, recipes, "the trick is";
 *   <li>{@code event}: a dated sentence in the past, or an explicit one-off action verb (went,
 *       visited, bought, adopted, "got a", "made a", "got married"...). Regular past verbs in general
 *       ("I painted") are not enough: many describe states ("I felt inspired"), and every record
 *       typed {@code event} is boosted for aggregate questions and grouped under an entity's
 *       {@code event} node; a broader rule tried first lowered recall on the LoCoMo dev file;
 *   <li>{@code preference}: like (as a verb after a subject, not "looks like"), love, enjoy, prefer,
 *       favourite, hate, "into"... and habits (usually, always, every week, tend to), which the type's
 *       definition covers as recurring choices;
 *   <li>otherwise {@code fact}.
 * </ol>
 * Rules look at the sentence as written (before "I" becomes the speaker's name).
 */
final class TypeRules {
  private TypeRules() {}

  /** The type and whether the sentence is a plan. */
  record Typed(MemoryType type, boolean plan) {}

  private static final Pattern FAILURE = Pattern.compile(
      // "lesson" only as a lesson learned: "Dutch lessons" and "piano lessons" are classes
      "\\b(mistake|mistakes|(?:learned|learnt|taught me|teaches you) (?:a|my|the|that|this|an important|a valuable"
          + "|a hard|an expensive) lesson|lessons? (?:learned|learnt)|hard lesson|valuable lesson|costly lesson"
          + "|learned the hard way|should have|shouldn't have|should've|went wrong"
          + "|regret|regrets|regretted|messed up|screwed up|failed|blew it|backfired)\\b");
  private static final Pattern CONSTRAINT = Pattern.compile(
      "\\b(can't(?! (?:wait|believe|stop|imagine|thank|remember|help|get enough))|cannot|can not|unable to"
          + "|allergic|allergy|allergies|must(?! (?:have|be|feel|look|sound|seem))|mustn't|not allowed|intolerant|vegan|vegetarian|gluten"
          + "|lactose|avoid|forbidden|no longer able|can't afford|diabetic|sober)\\b");
  private static final Pattern LASTING = Pattern.compile("\\b(?:always|forever|never)\\b");
  private static final Pattern PROCEDURE = Pattern.compile(
      "\\b(step by step|steps|recipe|the trick is|the key is|how to|first,? you|instructions)\\b");
  private static final Pattern EVENT_VERBS = Pattern.compile(
      "\\b(went|visited|attended|joined|started|finished|bought|moved|met|traveled|travelled|ran|won|lost"
          + "|adopted|graduated|married|celebrated|took|painted|signed up|volunteered|saw|watched|tried"
          + "|received|hosted|participated|competed|returned|came back|performed|organized"
          + "|organised|launched|opened|released|published|completed|quit|broke|injured|hurt|gave|found"
          + "|built|created|wrote|drove|flew|ate|cooked|baked|hiked|camped|played|learned|learnt|taught"
          + "|spent|sold|donated|booked|applied|passed|decided|picked up|threw"
          + "|got (?:a|an|my|the|some|into|to|back|married|engaged|promoted|hired|accepted|certified|selected"
          + "|tickets?|home|involved)|made (?:a|an|my|some|the|it|this|these)|did (?:a|an|the|some|my))\\b");
  private static final Pattern PREFERENCE = Pattern.compile(
      "\\b(?:i|you|we|they|really|also|do|don't|would|'d)\\s+like\\b"
          + "|\\b(likes|liked|love|loves|loved|enjoy|enjoys|enjoyed|prefer|prefers|preferred|favorite|favourite"
          + "|fave|hate|hates|dislike|dislikes|fond of|passionate about|keen on|big fan|huge fan|fan of"
          + "|obsessed with|adore|adores|can't get enough|crazy about|(?:i'm|really|so|totally|big|super) into"
          + "|usually|always|every (?:day|night|week|weekend|month|year|morning|evening|summer|time"
          + "|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|often|regularly|tend to|habit)\\b");

  static Typed type(String sentence, Tense tense, boolean dated) {
    String s = sentence.toLowerCase(java.util.Locale.ROOT).replace('’', '\'');
    if (tense == Tense.FUTURE) {
      if (CONSTRAINT.matcher(s).find()) {
        return new Typed(MemoryType.CONSTRAINT, true);
      }
      boolean lasting = LASTING.matcher(s).find() && PREFERENCE.matcher(s).find();
      // an event is dated (MemoryType.EVENT); an undated intention is a fact about the person, and
      // recall boosts events for aggregate questions ("what has she done"), where plans do not belong
      return new Typed(lasting ? MemoryType.PREFERENCE : dated ? MemoryType.EVENT : MemoryType.FACT, true);
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
