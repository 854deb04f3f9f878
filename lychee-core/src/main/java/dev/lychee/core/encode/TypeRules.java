package dev.lychee.core.encode;

import dev.lychee.api.MemoryType;
import dev.lychee.core.time.Tense;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Memory type by rule, for the offline encoder. Checked in this order, first match wins:
 * <ol>
 *   <li><b>plans</b>: future tense ("will", "going to", "planning", "can't wait to", "next
 *       month"...) or a wish to act ("want to", "hope to", "thinking about"), always tagged
 *       {@code plan}: a constraint or a lasting preference ("I'll always love jazz") keeps its type;
 *       otherwise an {@code event} when a date is attached (an event that lies ahead), else a
 *       {@code fact} (a stated intention). The seven types have no "plan" of their own;
 *   <li>{@code failure_pattern}: mistakes, regrets, lessons, things that went wrong;
 *   <li>{@code constraint}: cannot, allergic, must, not allowed, intolerant, vegetarian...;
 *   <li>{@code procedure}: steps, recipes, "the trick is";
 *   <li>{@code event}: a dated sentence in the past; a past action verb (went, visited, bought,
 *       "got a", "made a"...); or a regular past verb right after a personal subject ("I painted",
 *       "my son started"), unless it is a participle that describes a state ("I excited" never
 *       occurs, but "we were excited" has "were" in between and "I felt inspired" is no action);
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

  /** Intentions that {@link Tense} does not count as future: wishes and deliberation. */
  private static final Pattern PLAN = Pattern.compile(
      "\\b(?:want to|wanna|wants to|hope to|hoping to|thinking about (?:\\w+ing)|thinking of (?:\\w+ing)"
          + "|considering|next (?:week|weekend|month|year|time|summer|spring|fall|winter)|later this"
          + "|in the coming)\\b");
  private static final Pattern FAILURE = Pattern.compile(
      "\\b(mistake|mistakes|lesson|lessons|learned the hard way|should have|shouldn't have|should've|went wrong"
          + "|regret|regrets|regretted|messed up|screwed up|failed|blew it|backfired)\\b");
  private static final Pattern CONSTRAINT = Pattern.compile(
      "\\b(can't(?! (?:wait|believe|stop|imagine|thank|remember|help|get enough))|cannot|can not|unable to"
          + "|allergic|allergy|allergies|must(?! (?:have|be|feel|look|sound|seem))|mustn't|not allowed|intolerant|vegan|vegetarian|gluten"
          + "|lactose|avoid|forbidden|no longer able|can't afford|diabetic|sober)\\b");
  private static final Pattern PROCEDURE = Pattern.compile(
      "\\b(step by step|steps|recipe|the trick is|the key is|how to|first,? you|instructions)\\b");
  private static final Pattern EVENT_VERBS = Pattern.compile(
      "\\b(went|visited|attended|joined|started|finished|bought|moved|met|traveled|travelled|ran|won|lost"
          + "|adopted|graduated|married|celebrated|took|painted|signed up|volunteered|saw|watched|tried"
          + "|received|hosted|participated|competed|returned|came back|got back|performed|organized"
          + "|organised|launched|opened|released|published|completed|quit|broke|injured|hurt|gave|found"
          + "|built|created|wrote|drove|flew|ate|cooked|baked|hiked|camped|played|learned|learnt|taught"
          + "|spent|sold|donated|booked|applied|passed away|passed|decided|picked up|threw|hosted|ran into"
          + "|got (?:a|an|my|the|some|into|to|back|married|engaged|promoted|hired|accepted|certified|selected"
          + "|tickets?|home|involved)|made (?:a|an|my|some|the|it|this|these)|did (?:a|an|the|some|my))\\b");
  /** A regular past verb right after a personal subject. */
  private static final Pattern SUBJECT_PAST = Pattern.compile(
      "\\b(?:i|we|he|she|they|my \\w+|our \\w+)\\s+(?:(?:just|finally|recently|also|actually|even|already"
          + "|then|once|really|first|all)\\s+)*([a-z]{3,}ed)\\b");
  /** Past participles that describe a state or a feeling rather than an action. */
  private static final java.util.Set<String> STATIVE = java.util.Set.of("excited", "interested", "amazed",
      "surprised", "tired", "scared", "worried", "stressed", "bored", "pleased", "thrilled", "blessed",
      "inspired", "motivated", "touched", "impressed", "overwhelmed", "relieved", "obsessed", "attached",
      "devoted", "dedicated", "determined", "committed", "involved", "based", "located", "named", "called",
      "used", "supposed", "related", "connected", "focused", "prepared", "concerned", "confused",
      "disappointed", "frustrated", "exhausted", "satisfied", "grounded", "needed", "wanted", "loved",
      "liked", "hoped", "wished", "seemed", "appeared", "believed", "cared", "mattered", "owned", "lived",
      "worked", "struggled", "remembered", "noticed", "realized", "realised", "missed", "hated", "enjoyed",
      "preferred", "felt", "expected", "agreed", "learned");
  private static final Pattern PREFERENCE = Pattern.compile(
      "\\b(?:i|you|we|they|really|also|do|don't|would|'d)\\s+like\\b"
          + "|\\b(likes|liked|love|loves|loved|enjoy|enjoys|enjoyed|prefer|prefers|preferred|favorite|favourite"
          + "|fave|hate|hates|dislike|dislikes|fond of|passionate about|keen on|big fan|huge fan|fan of"
          + "|obsessed with|adore|adores|can't get enough|crazy about|(?:i'm|really|so|totally|big|super) into"
          + "|usually|always|every (?:day|night|week|weekend|month|year|morning|evening|summer|time"
          + "|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|often|regularly|tend to|habit)\\b");

  static Typed type(String sentence, Tense tense, boolean dated) {
    String s = sentence.toLowerCase(java.util.Locale.ROOT).replace('’', '\'');
    if (tense == Tense.FUTURE || PLAN.matcher(s).find()) {
      if (CONSTRAINT.matcher(s).find()) {
        return new Typed(MemoryType.CONSTRAINT, true);
      }
      boolean lasting = s.matches(".*\\b(?:always|forever|never)\\b.*") && PREFERENCE.matcher(s).find();
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
    if ((dated && tense == Tense.PAST) || EVENT_VERBS.matcher(s).find() || actionInPast(s)) {
      return new Typed(MemoryType.EVENT, false);
    }
    if (PREFERENCE.matcher(s).find()) {
      return new Typed(MemoryType.PREFERENCE, false);
    }
    return new Typed(MemoryType.FACT, false);
  }

  private static boolean actionInPast(String s) {
    Matcher m = SUBJECT_PAST.matcher(s);
    while (m.find()) {
      if (!STATIVE.contains(m.group(1))) {
        return true;
      }
    }
    return false;
  }
}
