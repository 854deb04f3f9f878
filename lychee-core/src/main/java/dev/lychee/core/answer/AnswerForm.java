package dev.lychee.core.answer;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What kind of answer a question asks for, read from its wording, so that the offline answerer can
 * return that span of a sentence rather than the whole sentence.
 */
enum AnswerForm {
  /** when, what date/day/month/year, which year... */
  DATE,
  /** who, whom, whose */
  PERSON,
  /** how many, how much, how often, how long, how old */
  QUANTITY,
  /** where, what/which city, country, place, town */
  PLACE,
  /** "is it X or Y?": one of the two options */
  CHOICE,
  /** a question opened by an auxiliary verb ("did", "would", "is"...): yes or no */
  YES_NO,
  /** anything else: a short phrase */
  PHRASE;

  private static final Pattern DATE_Q = Pattern.compile(
      "^\\s*when\\b|\\b(?:what|which)\\s+(?:date|day|month|year|week|time of year|season)\\b|\\bhow long ago\\b");
  private static final Pattern PERSON_Q = Pattern.compile("^\\s*(?:who|whom|whose)\\b|\\b(?:with|by|for) whom\\b");
  /**
   * "How many...?" and its kin; also "what is/was the (highest) number, amount or total of X?", which
   * asks for a count in other words (docs/defaults.md §5).
   */
  private static final Pattern QUANTITY_Q = Pattern.compile("\\bhow (?:many|much|often|long|old|far|big)\\b"
      + "|^\\s*what\\s+(?:is|was|are|were)\\s+(?:the\\s+)?(?:[a-z]+\\s+)?(?:number|amount|total)\\s+of\\b");
  private static final Pattern PLACE_Q = Pattern.compile(
      "^\\s*where\\b|\\b(?:what|which)\\s+(?:city|country|place|town|state|restaurant|park|country's)\\b");
  private static final Pattern CHOICE_Q = Pattern.compile("\\s\\w+ or \\w+");
  private static final Pattern YES_NO_Q = Pattern.compile(
      "^\\s*(?:is|are|was|were|do|does|did|would|could|will|can|has|have|had|should|might)\\b");

  /** "Where does X work?": the answer is an employer (an organisation), not the city it is in. */
  private static final Pattern EMPLOYER_Q = Pattern.compile(
      "^\\s*where\\b.*\\b(?:work|works|worked|working|job|employed|intern|interns|interned|interning)\\b");

  /** "Where does X live?": the answer is the place of a home. */
  private static final Pattern HOME_Q = Pattern.compile("^\\s*where\\b.*\\b(?:live|lives|lived|living)\\b");

  /**
   * "before" followed by a clause ("before she moved", "before traveling to X"): the question asks
   * what held before an event, which the clause names.
   */
  private static final Pattern BEFORE_EVENT = Pattern.compile(
      "\\bbefore\\s+((?:(?:she|he|they|i|we|you)\\s+[a-z]+|[a-z]+ing)\\b.*?)\\W*$");

  /**
   * "What was X's rent when she moved to Y?": a past state asked at the time of an event, told as a
   * clause after "when" at the end of a question whose verb is "was"/"were".
   */
  private static final Pattern WHEN_EVENT = Pattern.compile(
      "^(?:what|how\\s+much|how\\s+many|where|who)\\b.*\\b(?:was|were)\\b.*?\\bwhen\\s+"
          + "((?:she|he|they|i|we|you|[a-z]+)\\s+[a-z]+\\b.*?)\\W*$");

  /** Questions about the present, where the latest of several conflicting values is the answer. */
  private static final Pattern PRESENT_WORDS = Pattern.compile(
      "\\b(?:now|currently|current|still|latest|these days|nowadays|at the moment|anymore|any more)\\b");
  private static final Pattern PRESENT_Q = Pattern.compile(PRESENT_WORDS.pattern()
      + "|^\\s*(?:what|where|who|which|how|when)\\s+(?:is|are|does|do)\\b|^\\s*(?:is|are|does|do)\\b");

  /**
   * Questions about how something changed or what it was before: the answer names the latest value
   * and the one before it. A "before" that ends the question or is followed by "that"/"then"/"the
   * change" asks about a former value; "before the concert" asks about an event and does not match.
   */
  private static final Pattern CHANGE_Q = Pattern.compile(
      "\\b(?:used to|previously|formerly|originally|at first|in the past)\\b|\\bbefore\\W*$"
          + "|\\bbefore (?:that|then|the change|it changed)\\b|\\bhow (?:has|have|did) .*\\bchanged?\\b"
          + "|\\b(?:what|which) .*\\bchanged? (?:from|to)\\b");

  /**
   * A question whose head noun is plural ("what activities does...", "which cities has...", with one
   * word before the noun: "what board games has...", "what team sports does..."), or "what
   * are X's hobbies?": the answer is a list, gathered from several sentences.
   */
  private static final Pattern LIST_Q = Pattern.compile(
      "^\\s*(?:what|which)\\s+(?:kinds? of\\s+|types? of\\s+)?(?!(?:does|do|did|was|has|is|are|this)\\b)"
          + "(?:[a-z-]+\\s+)?[a-z]+(?:ies|[^s'u]s)\\s+(?:has|have|does|do|did|are|were|had)\\b"
          + "|^\\s*what\\s+are\\s+(?:[a-z]+'s|his|her|their)\\s+(?:[a-z-]+\\s+)?[a-z]+(?:ies|[^s'u]s)\\b");

  static AnswerForm of(String question) {
    String q = question.toLowerCase(Locale.ROOT);
    if (QUANTITY_Q.matcher(q).find()) {
      return QUANTITY;
    }
    if (DATE_Q.matcher(q).find()) {
      return DATE;
    }
    if (PERSON_Q.matcher(q).find()) {
      return PERSON;
    }
    if (PLACE_Q.matcher(q).find()) {
      return PLACE;
    }
    if (CHOICE_Q.matcher(q).find()) {
      return CHOICE;
    }
    return YES_NO_Q.matcher(q).find() ? YES_NO : PHRASE;
  }

  /** "What book did X read?", "which song...": one work, named by its title. */
  private static final Pattern TITLE_Q = Pattern.compile(
      "^\\s*(?:what|which)\\s+(?:book|song|movie|film|album|novel|game|poem|play|show|series|tv series|board game|video game)\\s+(?!recommendations?\\b)");

  /**
   * "What is one of X's favourite films?": one of several works, so one title too (round fifteen,
   * docs/defaults.md §5).
   */
  private static final Pattern ONE_OF_TITLES_Q = Pattern.compile(
      "^\\s*(?:what|which)\\s+(?:is|was)\\s+one\\s+of\\s+[^?]*?\\b(?:books|songs|movies|films|albums|novels|poems|plays"
          + "|shows|series|board games|video games)\\b");

  /** True when the question asks for the title of one book, song, film, game... */
  static boolean asksForATitle(String question) {
    String q = question.toLowerCase(Locale.ROOT);
    return TITLE_Q.matcher(q).find() || ONE_OF_TITLES_Q.matcher(q).find();
  }

  private static final Pattern KIND_Q = Pattern.compile("^\\s*(?:what|which)\\s+(?:kind|type|sort)s?\\s+of\\s+([a-z-]+)");

  /**
   * The X of "what kind of X...?" (also "type", "sort"), or null: the answer is what the sentence
   * says before X ("oak flooring" for "what kind of flooring...?").
   */
  static String kindOf(String question) {
    Matcher m = KIND_Q.matcher(question.toLowerCase(Locale.ROOT));
    return m.find() ? m.group(1) : null;
  }

  /** "What forum did X join?": the noun right after "what"/"which", followed by an auxiliary verb. */
  private static final Pattern HEAD_Q = Pattern.compile(
      "^\\s*(?:what|which)\\s+(?!kind\\b|type\\b|sort\\b|kinds\\b|types\\b)([a-z-]+)\\s+"
          + "(?:did|does|do|is|was|has|have|are|were|had)\\b");

  /**
   * The head noun of "what X did...?" ("what forum did Emil join?"), or null: the answer is likely X
   * with the words the sentence puts before it ("vintage radio forum").
   */
  static String headNoun(String question) {
    Matcher m = HEAD_Q.matcher(question.toLowerCase(Locale.ROOT));
    return m.find() ? m.group(1) : null;
  }

  /**
   * The head noun of a question about something someone did ("which club did X join?", "what car
   * does X drive?"), or null; a "what X is/was...?" question describes its X in other words
   * ("what event is X getting ready for?" may be answered by "a fundraiser") and gives null.
   */
  static String headNounOfAnAct(String question) {
    Matcher m = HEAD_Q.matcher(question.toLowerCase(Locale.ROOT));
    return m.find() && ACT.matcher(m.group()).find() ? m.group(1) : null;
  }

  private static final Pattern ACT = Pattern.compile("\\b(?:did|does|do|has|have|had)$");

  /**
   * "How did X feel about...?", "how does X describe...?", "how was X's trip?", "what did X think
   * of...?": the answer is what someone felt or judged, the words after "felt", "was", "looks"...
   */
  private static final Pattern FEELING_Q = Pattern.compile(
      "^\\s*how\\s+(?:did|does|do|was|is|were|are|has|have|had)\\b.*\\b(?:feel|feels|felt|feeling|describe|describes"
          + "|described|react|reacts|reacted|think|thinks|thought|find|finds|found)\\b"
          + "|^\\s*how\\s+(?:was|is|were|are)\\s+[^?]*\\b(?:experience|doing|going|time|trip|day|night|weekend)\\b"
          + "|^\\s*what\\s+(?:did|does|do)\\s+.*\\bthink\\s+(?:of|about)\\b");

  /** True when the question asks how someone felt about or described something. */
  static boolean asksForAFeeling(String question) {
    return FEELING_Q.matcher(question.toLowerCase(Locale.ROOT)).find();
  }

  private static final Pattern REASON_Q = Pattern.compile("^\\s*why\\b|\\bwhat\\s+(?:made|makes|led)\\b.*\\bto\\b");

  /**
   * "What does X do to destress?", "what has X done to feel closer to...?": the question asks for
   * the means of a purpose, told as "I joined the street choir to feel closer...". Group 1 is the
   * verb of the purpose.
   */
  private static final Pattern MEANS_Q = Pattern.compile(
      "^\\s*what\\s+(?:did|does|do|has|have|had|is|was|are|were)\\s+.*\\b(?:do|does|did|done|doing)\\s+to\\s+([a-z-]+)");

  /** The verb of the purpose of "what does X do to Y?" ("destress"), or null when the question asks no such thing. */
  static String purposeOfAMeans(String question) {
    Matcher m = MEANS_Q.matcher(question.toLowerCase(Locale.ROOT));
    return m.find() ? m.group(1) : null;
  }

  /** "What did X take a trip for?": a question for a purpose, ending on "for" (round fifteen, docs/defaults.md §5). */
  private static final Pattern WHAT_FOR_Q = Pattern.compile("^\\s*what\\s+(?:did|does|do|has|have|had)\\b[^?]*\\bfor\\s*\\?\\s*$");

  /** True when a question ending on "for" asks what someone did something for. */
  static boolean asksWhatFor(String question) {
    return WHAT_FOR_Q.matcher(question.toLowerCase(Locale.ROOT)).find();
  }

  /** True when the question asks why: the answer is a reason ("because...", "to..."). */
  static boolean asksWhy(String question) {
    return REASON_Q.matcher(question.toLowerCase(Locale.ROOT)).find();
  }

  /** A second question tacked on to the first: "When did X go to Y and why?", "...and with whom?". */
  private static final Pattern SECOND_PART = Pattern.compile(
      "(?i)\\s*,?\\s+and\\s+(why|with whom|who with|with who)\\s*\\?*\\s*$");

  /** "why" or "who" when the question ends on "and why?" or "and with whom?"; else null. */
  static String secondPart(String question) {
    Matcher m = SECOND_PART.matcher(question);
    return !m.find() ? null : m.group(1).equalsIgnoreCase("why") ? "why" : "who";
  }

  /** The question without a second part ({@link #secondPart}), ending on "?". */
  static String mainPart(String question) {
    Matcher m = SECOND_PART.matcher(question);
    return m.find() ? question.substring(0, m.start()) + "?" : question;
  }

  /** True when a "where" question asks for an employer (where someone works), not a place. */
  static boolean asksForAnEmployer(String question) {
    return EMPLOYER_Q.matcher(question.toLowerCase(Locale.ROOT)).find();
  }

  /** True when a "where" question asks where someone lives. */
  static boolean asksForAHome(String question) {
    return HOME_Q.matcher(question.toLowerCase(Locale.ROOT)).find();
  }

  /** The clause naming the event of "what was X before she moved?", or null when the question has none. */
  static String eventBefore(String question) {
    java.util.regex.Matcher m = BEFORE_EVENT.matcher(question.toLowerCase(Locale.ROOT).strip());
    return m.find() ? m.group(1) : null;
  }

  /** The clause naming the event of "what was X when she moved?", or null when the question has none. */
  static String eventAtWhen(String question) {
    Matcher m = WHEN_EVENT.matcher(question.toLowerCase(Locale.ROOT).strip());
    return m.find() ? m.group(1) : null;
  }

  /** True when the question asks for several things (its head noun is plural). */
  static boolean asksForAList(String question) {
    return LIST_Q.matcher(question.toLowerCase(Locale.ROOT)).find();
  }

  /** True when the question asks what something was before, or how it changed. */
  static boolean aboutAChange(String question) {
    return CHANGE_Q.matcher(question.toLowerCase(Locale.ROOT).strip()).find();
  }

  /**
   * True when the question says outright that it asks about the present ("now", "currently",
   * "still"...): the user expects that the value may have changed.
   */
  static boolean saysNow(String question) {
    return PRESENT_WORDS.matcher(question.toLowerCase(Locale.ROOT)).find();
  }

  /** True when the question asks about the present state of something that may have changed. */
  static boolean aboutThePresent(String question) {
    return PRESENT_Q.matcher(question.toLowerCase(Locale.ROOT)).find();
  }

  /** "how" asking for a manner, a feeling or a description, not for a number ("how many", "how long"...). */
  private static final Pattern HOW_IT_WAS = Pattern.compile("^\\W*how\\s+(?!many|much|long|often|old|far|big)");

  /** True when the question asks how something was done, felt or described ("how did X handle...?"). */
  static boolean asksHowItWas(String question) {
    return HOW_IT_WAS.matcher(question.toLowerCase(Locale.ROOT)).find();
  }
}
