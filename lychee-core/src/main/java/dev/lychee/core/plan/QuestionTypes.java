package dev.lychee.core.plan;

import dev.lychee.api.QuestionType;
import java.util.Locale;
import java.util.regex.Pattern;

/** Classifies a question by its wording, for the rule-based planner. First match wins. */
final class QuestionTypes {
  private static final Pattern PRIOR_ASSISTANT = Pattern.compile(
      "\\bwhat (did|was it) you\\b|\\byou (said|told|mentioned|recommended|suggested|gave|wrote)\\b"
          + "|\\bremind me (of )?what you\\b|\\byour (previous|earlier|last) (answer|reply|response|suggestion|recommendation)\\b");
  private static final Pattern ADVICE = Pattern.compile(
      "\\b(should (i|we|he|she|they)|recommend\\w*|suggest\\w*|advice|advise|any tips|what would be a good|ideas? for)\\b");
  private static final Pattern TEMPORAL = Pattern.compile(
      "^\\s*when\\b|\\bwhat (date|day|year|month|time|week)\\b|\\bwhich (date|day|year|month|week)\\b"
          + "|\\bhow long\\b|\\bhow (many|much) (days|weeks|months|years|time)\\b|\\bhow often\\b"
          + "|\\b(first|last|earlier|later|before or after)\\b.*\\?\\s*$|\\bin what (year|month)\\b");
  private static final Pattern AGGREGATE = Pattern.compile(
      "\\bhow many\\b|\\bhow much\\b|\\blist\\b|\\bwhat are all\\b|\\ball (the|of)\\b|\\bevery\\b|\\bin total\\b"
          + "|\\bwhat (\\w+ )?(activities|events|books|places|things|items|hobbies|games|pets|instruments)\\b");
  /**
   * A "what/which" question whose head noun is plural ("what desserts has ...", "what are her
   * favourite books", "in what ways ..."): the answer is a list, usually gathered from several turns.
   * The auxiliary may be singular, agreeing with the subject rather than the head ("what causes does
   * she support", "what emotions is he feeling"; docs/defaults.md §4.15, round 11).
   */
  private static final Pattern PLURAL_HEAD = Pattern.compile(
      "^\\s*(what|which) ([\\w+/-]+ ){0,2}?[\\w+/-]{2,}(?<!ss|us|is|ou)s (have|has|are|were|did|do|does|is|was)\\b"
          + "|^\\s*what are (the )?(\\w+'s? )?(\\w+ )?\\w{2,}(?<!ss|us|is)s\\b|\\bin what ways\\b|\\bwhat are the names\\b");
  /**
   * A wh-question in the present perfect ("what has X painted", "where have they camped", "who has
   * written to her"): it asks for everything up to now, which a conversation states in several
   * turns, so it is gathered like a list. The participle is told by its ending; up to four words
   * (the subject) may stand between the auxiliary and it.
   */
  private static final Pattern PRESENT_PERFECT = Pattern.compile(
      "^\\s*(what|where|who|which)\\b.*\\b(has|have) ([\\w'+-]+ ){0,4}?\\w+(ed|en|ne|wn|ght|ung|ade|ad|id|ot|ept|eft|ent|een)\\b");
  private static final Pattern COMPARISON = Pattern.compile(
      "\\bcompar\\w*\\b|\\b(more|less|fewer|better|worse|larger|bigger|smaller|older|younger) than\\b|\\bboth\\b"
          + "|\\b(more|most|less|fewer|older|younger|bigger|larger|better)\\b.*\\bor\\b|\\bin common\\b|\\bdifference between\\b|\\bwhich (one|of the two)\\b|\\bsame\\b");

  private QuestionTypes() {}

  static QuestionType classify(String question) {
    String q = question.toLowerCase(Locale.ROOT);
    if (PRIOR_ASSISTANT.matcher(q).find()) {
      return QuestionType.PRIOR_ASSISTANT_RESPONSE;
    }
    if (ADVICE.matcher(q).find()) {
      return QuestionType.PERSONALIZED_ADVICE;
    }
    if (TEMPORAL.matcher(q).find() && !q.startsWith("how many times")) {
      return QuestionType.TEMPORAL;
    }
    if (COMPARISON.matcher(q).find()) {
      return QuestionType.COMPARISON;
    }
    if (AGGREGATE.matcher(q).find() || PLURAL_HEAD.matcher(q).find() || PRESENT_PERFECT.matcher(q).find()) {
      return QuestionType.AGGREGATE;
    }
    return QuestionType.SINGLE;
  }
}
