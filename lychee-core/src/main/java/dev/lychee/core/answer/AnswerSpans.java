package dev.lychee.core.answer;

import dev.lychee.api.Candidate;
import dev.lychee.core.answer.EvidenceSentences.Sentence;
import dev.lychee.core.answer.SentenceSupport.Scored;
import dev.lychee.api.DateRange;
import dev.lychee.core.text.Terms;
import dev.lychee.core.time.DateMention;
import dev.lychee.core.time.Tense;
import dev.lychee.core.time.TemporalNormalizer;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cuts the span a question asks for out of the sentence that best supports it: a resolved date for
 * "when", a name for "who", a number with its noun for "how many", a place for "where", yes or no
 * (hedged as "likely" for what someone would do) for a question opened by an auxiliary verb, the
 * better supported option of "X or Y?", a quoted title for "what book/song/movie...?", the words
 * before X for "what kind of X?" and "what X did...?", a colour for "what colour...?", and for
 * anything else the run of the sentence's words that the question does not already hold
 * ({@link #phrase}), without the words that only say when or "now", ended where the next clause
 * begins and started at the object of a past verb. When no span of the asked kind is found,
 * the phrase is the answer.
 *
 * <p>Dates are written as the benchmark writes them ("7 May 2023", "May 2023", "2023"): a relative
 * date in the sentence is resolved against the day the words were said; a record's own temporal
 * scope is used when the sentence names no date; a sentence that tells of an event without a date
 * is answered with the day it was said.
 */
final class AnswerSpans {
  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMMM yyyy", Locale.ENGLISH);
  /** The two options of "...: X or Y?", each at most four words. */
  private static final Pattern OPTIONS = Pattern.compile("((?:[\\w'-]+\\s+){0,3}[\\w'-]+)\\s+or\\s+((?:[\\w'-]+\\s*){1,4})\\??\\s*$");
  private static final Pattern HYPOTHETICAL = Pattern.compile("^\\s*(?:would|could|might)\\b|\\blikely\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern NEGATION = Pattern.compile("\\b(?:not|never|no|none|n't|nor|neither)\\b|n't\\b", Pattern.CASE_INSENSITIVE);
  /** A relative date that counts back from the day it was said by a named unit: "last Friday". */
  private static final Pattern LAST = Pattern.compile(
      "(?:last|this past|past)\\s+(week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern NAME = Pattern.compile("\\b[A-Z][a-z]+(?:\\s+[A-Z][a-z]+)*\\b");
  private static final Pattern NUMBER = Pattern.compile(
      "\\b(\\d+(?:[.,]\\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty"
          + "|forty|fifty|hundred|a couple|a few|several|once|twice|three times|a dozen)\\b"
          // a range of numbers is one quantity ("20-40 minutes")
          + "(?:[-\u2013]\\d+(?:[.,]\\d+)?\\b)?"
          // a rate keeps its period ("1450 euros a month"), else up to two words name what is counted,
          // a hyphened compound ("fifty-two", "dairy-free") one word of them
          + "(?:\\s+[a-z]+\\s+(?:a|an|per|each|every)\\s+(?:day|week|month|year|hour|night)\\b|(?:\\s+[a-z]+(?:-[a-z]+)?){0,2})",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern PLACE = Pattern.compile(
      "\\b(?:[Ii]n|[Aa]t|[Tt]o|[Ff]rom|[Nn]ear|[Vv]isited|[Aa]round)\\s+((?:the\\s+)?[A-Z][\\w'-]*(?:\\s+(?:of\\s+)?[A-Z][\\w'-]*)*)");
  /** An organisation someone works for: a capitalised name after "at", "for", "with" or "joined". */
  private static final Pattern EMPLOYER = Pattern.compile(
      "\\b(?:at|for|with|joined|join|joining)\\s+((?:the\\s+)?[A-Z][\\w'&-]*(?:\\s+(?:of\\s+|&\\s+)?[A-Z][\\w'&-]*)*)");
  private static final Set<String> NOT_NAMES = Set.of("I", "I'm", "I've", "I'll", "I'd", "The", "A", "An", "It", "We",
      "My", "Our", "Your", "This", "That", "There", "They", "He", "She", "Yes", "No", "Oh", "Wow", "Thanks", "Thank",
      "Hey", "Hi", "Hello", "So", "But", "And", "Also", "Well", "Sure", "Great", "Awesome", "Cool", "What", "When",
      "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January", "February", "March",
      "April", "May", "June", "July", "August", "September", "October", "November", "December", "Mentioned", "Date");
  /** Words of chat that praise, hedge or greet; they never answer a question. */
  private static final Set<String> FILLERS = Terms.content("really just always totally super lots lot oh wow yeah yes "
      + "hey thanks thank awesome amazing great cool nice glad love loved lovely good so much many well sure "
      + "finally definitely actually literally pretty quite especially even ever gonna wanna");
  /** A date the encoder wrote into a record after a relative one, "(2023-06-12 to 2023-06-18)": not part of a phrase. */
  private static final Pattern ANNOTATION = Pattern.compile("\\(\\d{4}-\\d{2}-\\d{2}(?:\\s+to\\s+\\d{4}-\\d{2}-\\d{2})?\\)");
  /** At most this many words of a phrase answer. */
  private static final int PHRASE_WORDS = 10;

  private final TemporalNormalizer dates = new TemporalNormalizer();

  /** The answer span of {@code sentence} for a question of {@code form}; {@code all} is every scored sentence. */
  String span(AnswerForm form, String question, Sentence sentence, List<Scored> all) {
    if (form == AnswerForm.CHOICE) {
      String option = choice(question, all);
      if (option != null) {
        return option;
      }
    }
    if (form == AnswerForm.YES_NO) {
      // a question about what someone would do asks for an inference, which the answer hedges
      String answer = NEGATION.matcher(sentence.text()).find() ? "no" : "yes";
      return HYPOTHETICAL.matcher(question).find() ? "Likely " + answer : Character.toUpperCase(answer.charAt(0)) + answer.substring(1);
    }
    String typed = typedSpan(form, question, sentence);
    if (typed == null && form == AnswerForm.PERSON && sentence.speaker() != null
        && !Terms.tokens(question).contains(sentence.speaker().toLowerCase(Locale.ROOT))) {
      return sentence.speaker();
    }
    return typed != null ? typed : phrase(question, sentence.text());
  }

  /**
   * The span of the asked kind, or null when the sentence holds none (for {@link AnswerForm#PHRASE}
   * every sentence has one, unless the question asks for a title and the sentence quotes nothing, or
   * for a kind of X and the sentence names no X with a word before it).
   * Dates count only when the sentence or the record names one.
   */
  String typedSpan(AnswerForm form, String question, Sentence sentence) {
    String body = sentence.text();
    String span = switch (form) {
      case DATE -> date(question, body, sentence.source());
      case PERSON -> person(question, sentence);
      case QUANTITY -> withoutTrailingFunctionWords(quantity(question, body));
      case PLACE -> AnswerForm.asksForAnEmployer(question) && employer(question, body) != null
          ? employer(question, body) : place(question, body);
      case PHRASE -> phraseOfItsKind(question, body);
      case YES_NO, CHOICE -> phrase(question, body);
    };
    return span == null || span.isBlank() ? null : span.strip();
  }

  /**
   * For "X or Y?" the option the evidence supports more: each option's words counted over the
   * sentences that support the question, weighted by that support.
   */
  private static String choice(String question, List<Scored> all) {
    Matcher m = OPTIONS.matcher(question);
    if (!m.find()) {
      return null;
    }
    // "X or Y" is parallel: the first option is as many words long as the second
    String second = withoutLeadingFunctionWords(m.group(2));
    String[] before = m.group(1).strip().split("\\s+");
    int n = Math.min(before.length, second.split("\\s+").length);
    String first = String.join(" ", java.util.Arrays.copyOfRange(before, before.length - n, before.length));
    String[] options = {first, second};
    double[] votes = new double[2];
    for (Scored s : all) {
      Set<String> words = SentenceSupport.roots(s.sentence().text());
      for (int i = 0; i < 2; i++) {
        for (String t : SentenceSupport.roots(options[i])) {
          if (words.contains(t)) {
            votes[i] += s.support();
          }
        }
      }
    }
    return votes[1] > votes[0] ? options[1] : options[0];
  }

  private static String withoutTrailingFunctionWords(String span) {
    if (span == null) {
      return null;
    }
    String[] words = span.strip().split("\\s+");
    int to = words.length;
    while (to > 1 && Terms.STOP.contains(words[to - 1].toLowerCase(Locale.ROOT))) {
      to--;
    }
    return String.join(" ", java.util.Arrays.copyOfRange(words, 0, to));
  }

  private static String withoutLeadingFunctionWords(String option) {
    String[] words = option.strip().split("\\s+");
    int from = 0;
    while (from < words.length - 1 && Terms.STOP.contains(words[from].toLowerCase(Locale.ROOT))) {
      from++;
    }
    return String.join(" ", java.util.Arrays.copyOfRange(words, from, words.length));
  }

  private String date(String question, String body, Candidate source) {
    LocalDate said = source.mentionedAt() == null ? null : source.mentionedAt().toLocalDate();
    List<DateMention> found = dates.find(body, said, Tense.of(body)).stream().filter(DateMention::dated).toList();
    for (DateMention m : nearestFirst(question, body, found)) {
      if (m.dated()) {
        Matcher last = LAST.matcher(m.text());
        // "last week" said on 9 June names no day of its own: the benchmark writes it as said,
        // anchored to the absolute day it was said on ("the week before 9 June 2023")
        return !m.absolute() && said != null && last.matches()
            ? "the " + last.group(1).toLowerCase(Locale.ROOT) + " before " + said.format(DAY) : write(m.range());
      }
    }
    if (source.temporal() != null && source.temporal().span() != null) {
      DateRange span = source.temporal().span();
      String before = said == null ? null : weekBefore(span, said);
      return before != null ? before : write(span);
    }
    return said == null ? null : write(DateRange.day(said));
  }

  /** What may stand between a date and its resolved form or the end of its range: " (", " to ". */
  private static final Pattern JOIN = Pattern.compile("[\\s(),–-]*(?:to|until|till)?[\\s(),–-]*");
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}'-]+");

  /**
   * The dates of a sentence, the one nearest to a word of the question first: "she had to cancel in
   * March, so she is now visiting on July 20th" answers "when is she visiting?" with July 20th. Names
   * (capitalised words of the question) are no anchor, as they tell who, not which event; without
   * an anchor the order of the sentence stays.
   */
  static List<DateMention> nearestFirst(String question, String body, List<DateMention> found) {
    if (found.size() < 2) {
      return found;
    }
    Set<String> anchors = new java.util.HashSet<>();
    Matcher q = WORD.matcher(question);
    boolean first = true;
    while (q.find()) {
      String w = q.group();
      if (first || !Character.isUpperCase(w.charAt(0))) {
        anchors.addAll(SentenceSupport.roots(w));
      }
      first = false;
    }
    List<int[]> at = new ArrayList<>();
    Matcher b = WORD.matcher(body);
    while (b.find()) {
      if (SentenceSupport.roots(b.group()).stream().anyMatch(anchors::contains)) {
        at.add(new int[] {b.start(), b.end()});
      }
    }
    if (at.isEmpty()) {
      return found;
    }
    java.util.function.ToIntFunction<DateMention> distance = m -> at.stream()
        .mapToInt(p -> p[1] <= m.start() ? m.start() - p[1] : p[0] >= m.end() ? p[0] - m.end() : 0).min().orElse(Integer.MAX_VALUE);
    // a date and the resolved form written right after it ("last Friday (2023-07-14)") are one
    // mention: they keep their order and take the distance of the nearer
    int[] group = new int[found.size()];
    int[] groupDistance = new int[found.size()];
    for (int i = 0; i < found.size(); i++) {
      boolean joined = i > 0 && found.get(i).start() >= found.get(i - 1).end()
          && JOIN.matcher(body.substring(found.get(i - 1).end(), found.get(i).start())).matches();
      group[i] = joined ? group[i - 1] : i;
      groupDistance[group[i]] = joined ? Math.min(groupDistance[group[i]], distance.applyAsInt(found.get(i)))
          : distance.applyAsInt(found.get(i));
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < found.size(); i++) {
      order.add(i);
    }
    order.sort(java.util.Comparator.comparingInt((Integer i) -> groupDistance[group[i]]).thenComparingInt(i -> i));
    return order.stream().map(found::get).toList();
  }

  /**
   * A record's week or weekend that ended in the seven days before the day it was told, written as
   * the benchmark writes "last week" ("the week before 9 June 2023"); null for any other range.
   */
  private static String weekBefore(DateRange r, LocalDate said) {
    if (r.start() == null || r.end() == null || !r.end().isBefore(said) || r.end().isBefore(said.minusDays(7))) {
      return null;
    }
    long days = java.time.temporal.ChronoUnit.DAYS.between(r.start(), r.end()) + 1;
    if (days == 7) {
      return "the week before " + said.format(DAY);
    }
    boolean weekend = days == 2 && r.start().getDayOfWeek() == java.time.DayOfWeek.SATURDAY;
    return weekend ? "the weekend before " + said.format(DAY) : null;
  }

  /**
   * The date a question names ("in January 2024", "on 7 May"), resolved against the day it is
   * asked (today when unknown, read as the past); null when it names none.
   */
  DateRange questionDate(String question, java.time.LocalDateTime askedAt) {
    LocalDate anchor = askedAt == null ? LocalDate.now() : askedAt.toLocalDate();
    for (DateMention m : dates.find(question, anchor, Tense.PAST)) {
      if (m.dated() && m.range().end() != null) {
        return m.range();
      }
    }
    return null;
  }

  /** A range as the benchmark writes dates. */
  static String write(DateRange r) {
    String label = TemporalNormalizer.label(r);
    if (r.start() == null || r.end() == null) {
      return label;
    }
    if (r.start().equals(r.end())) {
      return r.start().format(DAY);
    }
    long days = java.time.temporal.ChronoUnit.DAYS.between(r.start(), r.end()) + 1;
    if (days == 2 && r.start().getDayOfWeek() == java.time.DayOfWeek.SATURDAY) {
      return "the weekend of " + r.start().format(DAY);
    }
    String season = season(r);
    if (season != null) {
      return season;
    }
    if (label.length() == 7 && label.charAt(4) == '-') {
      YearMonth ym = YearMonth.parse(label);
      return ym.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + ym.getYear();
    }
    return label;
  }

  /** "summer 2022" for 1 June to 31 August 2022, and so on for the other seasons; else null. */
  private static String season(DateRange r) {
    int m = r.start().getMonthValue();
    boolean threeMonths = r.start().getDayOfMonth() == 1 && r.end().equals(YearMonth.from(r.start().plusMonths(2)).atEndOfMonth());
    if (!threeMonths) {
      return null;
    }
    return switch (m) {
      case 3 -> "spring " + r.start().getYear();
      case 6 -> "summer " + r.start().getYear();
      case 9 -> "autumn " + r.start().getYear();
      case 12 -> "winter " + r.start().getYear();
      default -> null;
    };
  }

  /**
   * The person a "who" question asks for: the first capitalised name of the sentence that the
   * question does not hold, else a relative or companion after a possessive ("my aunt" gives
   * "aunt"); null when the sentence names no one, so that such a sentence holds no answer to "who".
   * A capitalised word that opens the sentence is a name only when its item names it so elsewhere
   * (an entity, a speaker, or capitalised within a sentence): "Come to the studio" names no one.
   */
  private static String person(String question, Sentence sentence) {
    String body = sentence.text();
    Set<String> asked = Terms.tokens(question);
    Set<String> known = null;
    Matcher m = NAME.matcher(body);
    while (m.find()) {
      String name = m.group();
      String first = name.split(" ")[0];
      if (NOT_NAMES.contains(first) || asked.containsAll(Terms.tokens(name.replaceAll("['’]s\\b", "")))) {
        continue;
      }
      if (body.substring(0, m.start()).chars().noneMatch(Character::isLetterOrDigit)) {
        known = known == null ? knownNames(sentence.source()) : known;
        if (!known.contains(first) && !(TITLES.contains(first) && name.contains(" "))) {
          // "Ask Marta about it": the name is what follows the opening word ("Grandpa Elias" keeps
          // its title)
          name = name.substring(first.length()).strip();
          if (name.isEmpty() || NOT_NAMES.contains(name.split(" ")[0])
              || asked.containsAll(Terms.tokens(name.replaceAll("['’]s\\b", "")))) {
            continue;
          }
        }
      }
      return name;
    }
    Matcher kin = KIN.matcher(body);
    while (kin.find()) {
      if (!asked.contains(kin.group(1).toLowerCase(Locale.ROOT))) {
        return kin.group(1);
      }
    }
    return null;
  }

  /** Words that open a name as its title: "Grandpa Elias", "Dr Okafor". */
  private static final Set<String> TITLES = Set.of("Grandpa", "Grandma", "Granny", "Grandad", "Aunt", "Auntie", "Uncle",
      "Cousin", "Dr", "Mr", "Mrs", "Ms", "Miss", "Professor", "Prof", "Coach", "Sir", "Lady", "Lord", "Saint", "St",
      "Captain", "Father", "Mother", "Sister", "Brother");

  /** A relative or companion after a possessive: "my aunt", "her mom", "his teammates". */
  private static final Pattern KIN = Pattern.compile("\\b(?:[Mm]y|[Hh]is|[Hh]er|[Tt]heir|[Oo]ur|[Yy]our)\\s+"
      + "((?:mother|father|mom|dad|mum|parents|sister|brother|siblings|aunt|uncle|cousin|grandma|grandpa|grandmother"
      + "|grandfather|daughter|son|kids|children|wife|husband|partner|girlfriend|boyfriend|fiance|fiancee|friend|friends"
      + "|best friend|mentor|mentors|teacher|coach|boss|colleague|colleagues|coworker|coworkers|teammates|team"
      + "|neighbor|neighbour|roommate|family)s?)\\b");
  private static final Pattern INNER_NAME = Pattern.compile("(?<=[\\p{Ll},;]\\s)[A-Z][a-z]+");
  private static final Pattern LINE_SPEAKER = Pattern.compile("(?m)^\\s*([A-Z][a-z]+)(?: [A-Z][a-z]+)?:");

  /** The names an evidence item gives as names: its entities, its speakers, capitalised words within a sentence. */
  private static Set<String> knownNames(Candidate source) {
    Set<String> out = new java.util.HashSet<>();
    for (String e : source.entities()) {
      out.addAll(Arrays.asList(e.split("\\s+")));
    }
    for (Pattern p : new Pattern[] {INNER_NAME, LINE_SPEAKER}) {
      Matcher m = p.matcher(source.text());
      while (m.find()) {
        out.add(m.group(m.groupCount() == 1 ? 1 : 0));
      }
    }
    return out;
  }

  /**
   * A title, a kind of X, a feeling or judgement ("how did X feel...?"), a reason ("why...?"), or
   * else the plain phrase: what a phrase question asks for.
   */
  private static String phraseOfItsKind(String question, String body) {
    if (AnswerForm.asksForATitle(question)) {
      return title(body);
    }
    if (AnswerForm.asksForAFeeling(question)) {
      // how someone felt or judged: the words after "felt" or "was" (docs/defaults.md §5)
      return feeling(question, body);
    }
    if (AnswerForm.asksWhy(question)) {
      // a reason: the clause after "because", or the purpose after "to" (docs/defaults.md §5)
      return reason(question, body);
    }
    if (AnswerForm.asksWhatFor(question) && objectOfStrandedPreposition(question, body) == null) {
      // "what did X take a trip to Y for?" asks why; without "for ..." the purpose after "to" tells it
      String purpose = reason(question, body, List.of(PURPOSE));
      if (purpose != null) {
        return purpose;
      }
    }
    String purpose = AnswerForm.purposeOfAMeans(question);
    if (purpose != null) {
      // what was done for a purpose: the words before "to" + the purpose's verb (docs/defaults.md §5)
      String means = means(purpose, body);
      if (means != null) {
        return means;
      }
    }
    String kindOf = AnswerForm.kindOf(question);
    if (kindOf != null) {
      return kind(question, kindOf, body);
    }
    String head = AnswerForm.asksForAList(question) ? null : AnswerForm.headNoun(question);
    if (head != null && COLOUR_NOUNS.contains(head)) {
      return colour(body);
    }
    String named = head == null ? null : kind(question, head, body);
    if (named != null) {
      return named;
    }
    // the object of the question's own verb, before the run of most new words (docs/defaults.md §5)
    String object = AnswerForm.asksForAList(question) ? objectOfAListsVerb(question, body)
        : objectOfTheQuestionsVerb(question, body);
    return object != null ? object : phrase(question, body);
  }

  /**
   * The end of {@link #VERB_Q} and {@link #LIST_VERB_Q}: perhaps an adverb ("just finish"), then the
   * question's verb as group 1.
   */
  private static final String AN_ADVERB_AND_THE_VERB =
      "(?:\\s+(?:just|recently|finally|also|first|ever|usually|often|really|once))?\\s+([a-z]+)\\b";
  /**
   * "What did Ola share...?", "what does Ines write...?": a question about what someone did to
   * something, its subject one or two names (perhaps with a possessive noun: "Rafael's family"),
   * then its verb, perhaps after an adverb ("just finish"). Group 1 is the verb.
   */
  private static final Pattern VERB_Q = Pattern.compile(
      "^\\s*[Ww]hat\\s+(?:did|does|do|has|have|had)\\s+[A-Z][a-z]+(?:\\s+and\\s+[A-Z][a-z]+)?(?:['’]s\\s+[a-z]+)?"
          + AN_ADVERB_AND_THE_VERB);
  /** Words that open what follows an object rather than continue it: prepositions, relatives, "to". */
  private static final Set<String> OBJECT_ENDS = Set.of("with", "for", "to", "at", "in", "on", "from", "about", "by",
      "into", "onto", "that", "which", "who", "because", "when", "while", "since", "so", "but", "as", "after", "before",
      "during", "last", "yesterday", "today", "recently");
  /** Pronouns that stand for a person as a verb's object ("gave me", "reminds her of"). */
  private static final Set<String> PERSONS_AS_OBJECTS = Set.of("me", "him", "her", "them", "us", "you");
  /** Object pronouns and particles between a verb and its object ("gave me", "wrote down"). */
  private static final Set<String> BEFORE_OBJECT = union(PERSONS_AS_OBJECTS, Set.of("down", "up", "out", "off", "back",
      "over"));

  /**
   * The object of the question's own verb ({@link #VERB_Q}) where the sentence uses that verb: "I
   * wrote down some recipes and tips to help me stay organised" answers "what does Ines write on
   * the fridge...?" with "recipes and tips", not with the longer
   * run after "help me stay". The object starts after particles, object pronouns and determiners
   * and ends before a preposition, a relative or subordinating word, a time word, the next clause or
   * punctuation. Null when the question has no such verb, the sentence does not use it, or the
   * object holds no word the question lacks.
   */
  static String objectOfTheQuestionsVerb(String question, String body) {
    return objectOfTheQuestionsVerb(VERB_Q, question, body);
  }

  /**
   * "What instruments does Emil play?": a list question's verb after its plural head noun (and a
   * word before it: "what board games has...").
   */
  private static final Pattern LIST_VERB_Q = Pattern.compile(
      "^\\s*(?:[Ww]hat|[Ww]hich)\\s+(?:[a-z-]+\\s+){1,2}?(?:did|does|do|has|have|had)\\s+[A-Z][a-z]+(?:\\s+and\\s+[A-Z][a-z]+)?"
          + AN_ADVERB_AND_THE_VERB);

  /** {@link #objectOfTheQuestionsVerb} for a list question ({@link #LIST_VERB_Q}): one item of the list. */
  static String objectOfAListsVerb(String question, String body) {
    return objectOfTheQuestionsVerb(LIST_VERB_Q, question, body);
  }

  private static String objectOfTheQuestionsVerb(Pattern verbQuestion, String question, String body) {
    Matcher m = verbQuestion.matcher(question.strip());
    if (!m.find() || LIGHT_VERBS.contains(m.group(1))) {
      return null;
    }
    Set<String> verb = SentenceSupport.roots(m.group(1));
    if (verb.isEmpty()) {
      return null;
    }
    Set<String> asked = SentenceSupport.roots(question);
    Set<String> names = askedNames(question);
    String[] words = words(body);
    for (int i = 0; i + 1 < words.length; i++) {
      // a gerund that opens the sentence is its subject ("Playing keeps me calm"), not a verb with an object
      if (endsWithPunctuation(words[i]) || SentenceSupport.roots(words[i]).stream().noneMatch(verb::contains)
          || i == 0 && bare(words[i]).endsWith("ing")) {
        continue;
      }
      int from = i + 1;
      while (from < words.length && !endsWithPunctuation(words[from - 1])
          && (BEFORE_OBJECT.contains(bare(words[from])) || DETERMINERS.contains(bare(words[from])))) {
        from++;
      }
      while (from < words.length && !endsWithPunctuation(words[from - 1]) && !OBJECT_ENDS.contains(bare(words[from]))
          && (!telling(words[from]) || askedName(names, words[from]))) {
        from++;
      }
      // two or more of the question's words in a row restate its own object ("call the weekly hiking
      // club trips Wanderday"): the answer follows them; one echoed word may describe the answer
      int echoes = from;
      while (echoes < words.length && !endsWithPunctuation(words[echoes])
          && SentenceSupport.roots(words[echoes]).stream().anyMatch(asked::contains)) {
        echoes++;
      }
      if (echoes - from >= 2) {
        from = echoes;
        while (from < words.length && !endsWithPunctuation(words[from - 1]) && !telling(words[from])
            && !OBJECT_ENDS.contains(bare(words[from]))) {
          from++;
        }
      }
      if (from >= words.length || endsWithPunctuation(words[from - 1]) || OBJECT_ENDS.contains(bare(words[from]))) {
        // the verb has no object of its own here ("sitting on a bench")
        return null;
      }
      int to = from;
      while (to < words.length && to - from < PHRASE_WORDS) {
        String b = bare(words[to]);
        if (to > from && (OBJECT_ENDS.contains(b) || FINITE.contains(b) || SUBJECTS.contains(b)
            || b.equals("and") && to + 1 < words.length && pastVerb(bare(words[to + 1])))) {
          break;
        }
        to++;
        if (endsWithPunctuation(words[to - 1])) {
          break;
        }
      }
      while (to > from && !telling(words[to - 1])) {
        to--;
      }
      boolean fresh = false;
      for (int j = from; j < to; j++) {
        fresh |= telling(words[j]) && SentenceSupport.roots(words[j]).stream().noneMatch(asked::contains);
      }
      return fresh ? trimmed(words, from, to) : null;
    }
    return null;
  }

  /** Verbs that say little of their own ("what did X do / get / have?"): their object is no answer of its own. */
  private static final Set<String> LIGHT_VERBS = Set.of("do", "get", "have", "make", "go", "think", "feel", "say",
      "like", "want", "need", "use", "take", "be", "start", "begin", "try", "keep", "stop", "continue", "love", "enjoy");

  /** A past form: in -ed or irregular ("printed", "made"). */
  private static boolean pastVerb(String word) {
    return word.endsWith("ed") || SentenceSupport.irregularPast(word);
  }

  /**
   * The kind a "what kind of X?" question asks for: the words right before X in the sentence that
   * the question does not hold (up to three, "and" between them allowed), with X; else X with the
   * "of" after it and up to six words to the end of their clause ("painting of a man at the sea");
   * null when the sentence does not name X with words that describe it.
   */
  static String kind(String question, String head, String body) {
    Set<String> asked = SentenceSupport.roots(question);
    Set<String> h = SentenceSupport.roots(head);
    String[] words = words(body);
    for (int i = 1; i < words.length; i++) {
      String bare = words[i].replaceAll("^\\W+|\\W+$", "");
      Set<String> bareRoots = SentenceSupport.roots(bare);
      if (bareRoots.isEmpty() || !h.containsAll(bareRoots)) {
        continue;
      }
      int from = i;
      int mods = 0;
      while (from > 0 && mods < 3) {
        String w = words[from - 1];
        if (endsWithPunctuation(w)) {
          break;
        }
        String b = w.replaceAll("^\\W+|\\W+$", "").toLowerCase(Locale.ROOT);
        boolean and = b.equals("and") && mods > 0;
        if (!and && (!answering(w) || SentenceSupport.roots(w).stream().anyMatch(asked::contains))) {
          break;
        }
        from--;
        if (!and) {
          mods++;
        }
      }
      if (mods > 0) {
        while (words[from].equalsIgnoreCase("and")) {
          from++;
        }
        return String.join(" ", Arrays.copyOfRange(words, from, i)) + " " + bare;
      }
      // no word before X describes it, but an "of" after it may: "a painting of a man at the sea"
      // (a photo's caption mostly says so) answers "what painting...?" (docs/defaults.md §5)
      if (i + 2 < words.length && words[i + 1].equalsIgnoreCase("of") && !endsWithPunctuation(words[i])) {
        int to = i + 2;
        while (to < words.length && to - i - 2 < 6) {
          to++;
          if (endsWithPunctuation(words[to - 1])) {
            break;
          }
        }
        to = clauseEnd(words, i + 2, to);
        while (to > i + 2 && !telling(words[to - 1])) {
          to--;
        }
        if (to > i + 2) {
          return trimmed(words, i, to);
        }
      }
    }
    return null;
  }

  /**
   * The name a sentence gives something, with the words right before it that describe it (up to
   * two): "Yes, the blue Tern." gives "blue Tern". The name is the first capitalised word within the
   * sentence (not its first word, which any sentence capitalises) that is no function word, month or
   * day, and none of the question's names; the capitalised words after it belong to it ("Tern
   * Classic"). Null when the sentence names nothing.
   */
  static String nameWithin(String question, String body) {
    Set<String> asked = askedNames(question);
    String[] words = words(body);
    for (int i = 1; i < words.length; i++) {
      String b = words[i].replaceAll("^\\W+|\\W+$", "");
      if (b.length() < 2 || !Character.isUpperCase(b.charAt(0)) || NOT_NAMES.contains(b) || askedName(asked, words[i])
          || endsWithPunctuation(words[i - 1]) && !words[i - 1].endsWith(",")) {
        continue;
      }
      int to = i + 1;
      while (to < words.length && !endsWithPunctuation(words[to - 1]) && !words[to].isEmpty()
          && Character.isUpperCase(words[to].charAt(0)) && !NOT_NAMES.contains(bare(words[to]))) {
        to++;
      }
      int from = i;
      while (from > 0 && i - from < 2 && !endsWithPunctuation(words[from - 1]) && telling(words[from - 1])
          && Character.isLowerCase(words[from - 1].charAt(0))) {
        from--;
      }
      return trimmed(words, from, to);
    }
    return null;
  }

  /** Verbs after which a sentence says how something felt or seemed: "I felt calm", "it looks amazing". */
  private static final Set<String> FEEL_VERBS = Set.of("feel", "feels", "felt", "feeling", "look", "looks", "looked",
      "sound", "sounds", "sounded", "seem", "seems", "seemed");
  /** Copulas, with the contracted forms a chat writes ("I'm excited", "it's lovely"). */
  private static final Set<String> COPULAS = Set.of("is", "was", "were", "are", "am", "been", "be", "i'm", "it's",
      "that's", "he's", "she's", "they're", "we're", "you're");
  /** Words that only make a judgement stronger or weaker ("so amazing", "really peaceful"): not part of it. */
  private static final Set<String> INTENSIFIERS = Set.of("so", "really", "very", "super", "totally", "just", "quite",
      "pretty", "truly", "absolutely", "such", "a", "an", "the", "kinda", "bit", "little", "extremely", "incredibly",
      "all", "still", "also", "always", "definitely", "honestly", "like", "been", "being", "getting", "become");
  /** Words that end a judgement: the next clause or what it is about ("great to have", "awesome and it keeps"). */
  private static final Set<String> JUDGEMENT_ENDS = Set.of("to", "when", "where", "which", "who", "that", "because",
      "since", "if", "while", "after", "before", "as", "for", "with", "about", "at", "in", "on", "like");
  /** At most this many words of a judgement. */
  private static final int JUDGEMENT_WORDS = 6;

  /**
   * What a "how did X feel / describe...?" question asks for: the words after "felt", "looks",
   * "seems" (first) or a copula ("was", "I'm"), without intensifiers, up to the end of the clause
   * ("They were proud and a bit tired." gives "proud and a bit tired", "It feels great to have
   * finished" gives "great"). Praise words ("amazing", "awesome") are the answer here, not chat filler.
   * Null when the sentence judges nothing the question has not said.
   */
  static String feeling(String question, String body) {
    String[] words = words(body);
    Set<String> asked = SentenceSupport.roots(question);
    for (Set<String> verbs : List.of(FEEL_VERBS, COPULAS)) {
      for (int i = 0; i < words.length - 1; i++) {
        String w = bare(words[i]);
        if (!verbs.contains(w) || endsWithPunctuation(words[i])) {
          continue;
        }
        int from = i + 1;
        while (from < words.length && INTENSIFIERS.contains(bare(words[from])) && !endsWithPunctuation(words[from])) {
          from++;
        }
        int to = from;
        boolean fresh = false;
        while (to < words.length && to - from < JUDGEMENT_WORDS) {
          String b = bare(words[to]);
          if (to > from && (JUDGEMENT_ENDS.contains(b) || SUBJECTS.contains(b) || FINITE.contains(b)
              || (b.equals("and") || b.equals("but")) && to + 1 < words.length && !adjectiveLike(words[to + 1]))) {
            break;
          }
          if (Terms.content(words[to]).size() > 0 && SentenceSupport.roots(words[to]).stream().noneMatch(asked::contains)) {
            fresh = true;
          }
          to++;
          if (endsWithPunctuation(words[to - 1])) {
            break;
          }
        }
        while (to > from && (Terms.content(words[to - 1]).isEmpty() || bare(words[to - 1]).equals("and"))) {
          to--;
        }
        if (fresh && to > from && !SUBJECTS.contains(bare(words[from]))) {
          return trimmed(words, from, to);
        }
      }
    }
    return null;
  }

  /** A word that may join a judgement after "and"/"but": a content word, not a pronoun, not a verb in -ing. */
  private static boolean adjectiveLike(String word) {
    String b = bare(word);
    return !Terms.content(word).isEmpty() && !b.endsWith("ing") && !SUBJECTS.contains(b) && !DETERMINERS.contains(b);
  }

  /**
   * The means of a purpose: in "And, I joined the street choir to feel closer to my neighbours", the
   * words before "to" and the purpose's verb ("feel"), back to the start of their clause (a
   * punctuation mark), without a subject, an auxiliary or other words that tell nothing at their
   * start: "joined the street choir". Null when the sentence does not say "to" and the verb.
   */
  static String means(String purpose, String body) {
    String[] words = words(body);
    Set<String> verb = SentenceSupport.roots(purpose);
    if (verb.isEmpty()) {
      return null;
    }
    for (int i = 1; i + 1 < words.length; i++) {
      if (!bare(words[i]).equals("to") || endsWithPunctuation(words[i - 1])
          || SentenceSupport.roots(words[i + 1]).stream().noneMatch(verb::contains)) {
        continue;
      }
      int from = i;
      while (from > 0 && !endsWithPunctuation(words[from - 1]) && i - from < PHRASE_WORDS) {
        from--;
      }
      while (from < i && (!telling(words[from]) || SUBJECTS.contains(bare(words[from])) || FINITE.contains(bare(words[from]))
          || bare(words[from]).equals("been"))) {
        from++;
      }
      if (from < i) {
        return trimmed(words, from, i);
      }
    }
    return null;
  }

  /** A companion: a name, or a relative after a possessive, right after "with". */
  private static final Pattern COMPANION = Pattern.compile("\\bwith\\s+((?:[A-Z][a-z]+(?:\\s+and\\s+[A-Z][a-z]+)?)"
      + "|(?:my|his|her|their|our)\\s+[a-z]+)");

  /** Who someone did something with: "with Lena", "with my sister"; null when the sentence names no companion. */
  static String companion(String question, String body) {
    Set<String> asked = Terms.tokens(question);
    Matcher m = COMPANION.matcher(body);
    while (m.find()) {
      String who = m.group(1);
      if (!NOT_NAMES.contains(who.split(" ")[0]) && !asked.containsAll(Terms.tokens(who))) {
        return who;
      }
    }
    return null;
  }

  /** What opens a reason: "because", "'cause", "so that", "in order to". */
  private static final Pattern BECAUSE = Pattern.compile(
      "(?i)(?:\\b(?:because(?:\\s+of)?|cause|cuz|since|so\\s+that|in\\s+order\\s+to)|['\u2019]cause)\\s+");
  /** "to" before a verb: the purpose ("to show our thanks"), not a place ("to the park"). */
  private static final Pattern PURPOSE = Pattern.compile("\\bto\\s+(?!(?:the|a|an|my|his|her|their|our|your|its|this|that|me|him|us|them|you|be)\\b)[a-z]");
  /** "for a conference": what an errand was for, after the reasons above. */
  private static final Pattern FOR_PURPOSE = Pattern.compile("\\bfor\\s+(?=(?:a|an|the|my|his|her|their|our|some)\\s+[a-z])");
  /** At most this many words of a reason. */
  private static final int REASON_WORDS = 10;

  /**
   * What a "why" question asks for: the clause after "because" ("'cause", "since", "so that"), else
   * the purpose after "to" before a verb ("They signed it to show our thanks"), up to the first
   * punctuation, at most {@link #REASON_WORDS} words. Null when the sentence gives no reason, or
   * only one made of the question's own words ("I decided to run the marathon again").
   */
  static String reason(String question, String body) {
    return reason(question, body, List.of(BECAUSE, PURPOSE));
  }

  /**
   * The reason of "...and why?" added to another answer: as {@link #reason(String, String)}, and
   * else what an errand was for ("going to Lisbon for a conference"). Left out of "why...?" itself,
   * where it lowered F1 on the LoCoMo dev half (docs/defaults.md §5).
   */
  static String reasonOrErrand(String question, String body) {
    return reason(question, body, List.of(BECAUSE, PURPOSE, FOR_PURPOSE));
  }

  private static String reason(String question, String body, List<Pattern> openings) {
    String text = ANNOTATION.matcher(body).replaceAll(" ");
    Set<String> asked = SentenceSupport.roots(question);
    for (Pattern p : openings) {
      Matcher m = p.matcher(text);
      while (m.find()) {
        int start = p == BECAUSE ? m.end() : m.start();
        String[] words = text.substring(start).strip().split("\\s+");
        int to = 0;
        while (to < words.length && to < REASON_WORDS) {
          to++;
          if (endsWithPunctuation(words[to - 1])) {
            break;
          }
        }
        while (to > 0 && !telling(words[to - 1])) {
          to--;
        }
        Set<String> said = SentenceSupport.roots(String.join(" ", Arrays.copyOfRange(words, 0, to)));
        said.removeAll(asked);
        if (to > 0 && !said.isEmpty()) {
          return trimmed(words, 0, to);
        }
      }
    }
    return null;
  }

  private static final Set<String> COLOUR_NOUNS = Set.of("colour", "color", "colours", "colors");
  /** A colour word with up to two words before it that describe it ("pale sea green", "bright red"). */
  private static final Pattern COLOUR = Pattern.compile("(?i)\\b(?:[a-z-]+\\s+){0,2}?(?:red|orange|yellow|green|blue|purple|violet"
      + "|pink|brown|black|white|grey|gray|beige|turquoise|teal|navy|gold|golden|silver|cream|ivory|maroon|lavender"
      + "|lilac|indigo|crimson|scarlet|magenta|cyan|olive)\\b");

  /**
   * The colour a "what colour...?" question asks for: the first colour word of the sentence with
   * the words right before it that describe it (after the last function word); null when the
   * sentence names no colour, so a sentence naming one wins among the near ties.
   */
  static String colour(String body) {
    Matcher m = COLOUR.matcher(body);
    if (!m.find()) {
      return null;
    }
    String[] words = m.group().strip().split("\\s+");
    // the words that describe the colour follow the last function word before it: "a man with purple
    // hair" is "purple", "a pale sea green" "pale sea green"
    int from = words.length - 1;
    while (from > 0 && answering(words[from - 1])) {
      from--;
    }
    return String.join(" ", Arrays.copyOfRange(words, from, words.length));
  }

  /** A quoted run of words ("I loved "Becoming X""), with straight or curly quotes. */
  private static final Pattern QUOTED = Pattern.compile("[\"\u201c]([^\"\u201c\u201d]{2,60})[\"\u201d]");

  /**
   * The title a "what book/song/movie...?" question asks for: the first quoted run of words in the
   * sentence, without trailing punctuation; null when the sentence quotes nothing. Only quotes are
   * taken: a capitalised name may as well be a person or a place.
   */
  static String title(String body) {
    Matcher q = QUOTED.matcher(body);
    return q.find() ? q.group(1).replaceAll("[.,!?]+$", "").strip() : null;
  }

  /** The organisation of "works at X", "joined X": the answer to where someone works; null when none. */
  static String employer(String question, String body) {
    return firstNewName(EMPLOYER, question, body);
  }

  /** A route: "from Lyon to Avignon". */
  private static final Pattern ROUTE = Pattern.compile(
      "\\b[Ff]rom\\s+([A-Z][\\w'-]*(?:\\s+[A-Z][\\w'-]*)*)\\s+to\\s+([A-Z][\\w'-]*(?:\\s+[A-Z][\\w'-]*)*)");

  /**
   * The place of a "where" question: the first new name after a preposition; a route ("cycling from
   * Lyon to Avignon") is answered whole, as both ends tell where (docs/defaults.md §5).
   */
  private static String place(String question, String body) {
    String first = firstNewName(PLACE, question, body);
    Matcher r = ROUTE.matcher(body);
    if (first != null && r.find() && r.group(1).equals(first) && !NOT_NAMES.contains(r.group(2).split(" ")[0])) {
      return "from " + first + " to " + r.group(2);
    }
    return first;
  }

  /**
   * The first name that {@code p}'s group 1 finds in {@code body} which is not a function word
   * and not already in the question (an answer repeats nothing the question said); null when none.
   */
  private static String firstNewName(Pattern p, String question, String body) {
    Set<String> asked = Terms.tokens(question);
    Matcher m = p.matcher(body);
    while (m.find()) {
      String name = m.group(1);
      if (!NOT_NAMES.contains(name.split(" ")[0]) && !asked.containsAll(Terms.tokens(name.replaceAll("['’]s\\b", "")))) {
        return name;
      }
    }
    return null;
  }

  private static final Pattern YEAR = Pattern.compile("(?:19|20)\\d\\d");
  /**
   * A word in -ing that ends a quantity's words after what is counted: a participle ("three turtles
   * sitting"), not what is counted ("one morning", "three mornings").
   */
  private static final Pattern PARTICIPLE_END = Pattern.compile("\\s+[a-z]+ing$");
  private static final Pattern YEAR_Q = Pattern.compile("(?i)\\byears?\\b");

  /**
   * The first number of the sentence with what it counts; a year ("in 2022") or an ISO date the
   * encoder wrote into a record counts nothing, unless the question asks about years: "how many
   * turtles...?" was answered "2022" from "In 2022 I got three turtles" (docs/defaults.md §5).
   */
  static String quantity(String question, String body) {
    String text = ANNOTATION.matcher(body).replaceAll(" ");
    boolean years = YEAR_Q.matcher(question).find();
    Matcher m = NUMBER.matcher(text);
    while (m.find()) {
      if (years || !YEAR.matcher(m.group(1)).matches()) {
        // a participle after what is counted opens what they do ("two herons fishing by the pier")
        String q = m.group();
        return q.split("\\s+").length >= 3 ? PARTICIPLE_END.matcher(q).replaceFirst("") : q;
      }
    }
    return null;
  }

  /**
   * The run of the sentence between the words it shares with the question that holds most words the
   * question lacks (the later run on a tie: the object follows the verb the question asks about),
   * without function words and chat fillers at its edges and at most {@link #PHRASE_WORDS} words:
   * the part that answers, without the part that repeats the question. It ends where the next
   * clause begins ({@link #clauseEnd}) and starts at the object of a past verb the question did not
   * use ({@link #objectStart}), after a phrase put in front of its clause ({@link #afterFrontedPhrase}).
   */
  static String phrase(String question, String body) {
    Set<String> asked = SentenceSupport.askedWithVerbs(question);
    String[] words = words(body);
    String object = objectOfStrandedPreposition(question, words);
    if (object != null) {
      return object;
    }
    int bestFrom = -1;
    int bestTo = -1;
    int bestNovel = 0;
    int from = 0;
    int novel = 0;
    boolean seenEcho = false;
    boolean bestAfterEcho = false;
    boolean bestAfterName = false;
    boolean afterName = false;
    Set<String> names = askedNames(question);
    for (int i = 0; i <= words.length; i++) {
      Set<String> roots = i < words.length ? SentenceSupport.roots(words[i]) : Set.of();
      boolean echo = i == words.length || roots.stream().anyMatch(asked::contains);
      if (echo) {
        boolean afterEcho = from > 0 && seenEcho;
        // a run after an echoed word is what the question's verb or object leads to, so it beats an
        // earlier run before any echo unless that one holds more than twice as many words
        boolean better = afterEcho && !bestAfterEcho ? novel * 2 >= bestNovel : novel >= bestNovel;
        // a run after the asked person's name starts a clause of its own ("Priya plays the cello,
        // and Priya wants to find an orchestra"): what follows the question's own verb answers it
        if (afterEcho && bestAfterEcho && afterName && !bestAfterName) {
          better = false;
        }
        if (novel > 0 && better) {
          bestFrom = from;
          bestTo = i;
          bestNovel = novel;
          bestAfterEcho = afterEcho;
          bestAfterName = afterName;
        }
        if (i < words.length) {
          seenEcho = true;
          afterName = askedName(names, words[i]);
        }
        from = i + 1;
        novel = 0;
      } else if (telling(words[i])) {
        novel++;
      }
    }
    if (bestFrom < 0) {
      return body.strip();
    }
    int runStart = bestFrom;
    while (bestFrom < bestTo && !telling(words[bestFrom])) {
      bestFrom++;
    }
    bestFrom = afterFrontedPhrase(words, runStart, bestFrom, bestTo);
    if (!asksWhatWasDone(question)) {
      bestFrom = objectStart(words, bestFrom, bestTo);
    }
    bestTo = clauseEnd(words, bestFrom, bestTo);
    bestTo = Math.min(bestTo, bestFrom + PHRASE_WORDS);
    // "this cute little birdhouse", "my own garden": an answer names the thing, not whose it
    // is or how the speaker liked it
    while (bestFrom + 1 < bestTo && (PRAISING.contains(bare(words[bestFrom])) || DETERMINERS.contains(bare(words[bestFrom])))
        && !endsWithPunctuation(words[bestFrom])) {
      bestFrom++;
    }
    // a time word after "every" tells how often ("every evening", "every single morning"), which a
    // phrase may answer; a year at the end only dates it ("last month (October 2024)")
    while (bestTo > bestFrom && (!telling(words[bestTo - 1]) || TRAILING_YEAR.matcher(words[bestTo - 1]).matches())
        && !(answering(words[bestTo - 1]) && afterEvery(words, bestFrom, bestTo - 1))) {
      bestTo--;
    }
    return trimmed(words, bestFrom, bestTo);
  }

  /**
   * Adjectives by which a speaker judges or fondles what they name ("a cute little birdhouse", "a
   * nasty flood"): at the start of a phrase answer they are left out, as are the determiners
   * between them, as the question asks for the thing (docs/defaults.md §5, round thirteen).
   */
  private static final Set<String> PRAISING = Set.of("cute", "little", "nasty", "beautiful", "wonderful", "fantastic",
      "incredible", "adorable", "gorgeous", "stunning", "terrible", "horrible", "fabulous");

  /** A year as the last word of a phrase, with the punctuation around it ("2024)", "(2023),"). */
  private static final Pattern TRAILING_YEAR = Pattern.compile("\\W*(?:19|20)\\d\\d\\W*");

  /** Whether the word at {@code at} follows "every" or "every single", not before {@code from}. */
  private static boolean afterEvery(String[] words, int from, int at) {
    int i = at - 1;
    if (i >= from && words[i].equalsIgnoreCase("single")) {
      i--;
    }
    return i >= from && words[i].equalsIgnoreCase("every");
  }

  private static final Pattern WORD_EDGES = Pattern.compile("^\\W+|(?:'s)?\\W*$");
  private static final Pattern NAME_PIECES = Pattern.compile("[^\\w']+");

  /** The capitalised words of a question, possessive "'s" dropped: the names it asks about. */
  private static Set<String> askedNames(String question) {
    Set<String> names = new HashSet<>();
    for (String w : NAME_PIECES.split(question)) {
      String bare = WORD_EDGES.matcher(w).replaceAll("");
      if (bare.length() > 1 && Character.isUpperCase(bare.charAt(0)) && !NOT_NAMES.contains(bare)) {
        names.add(bare);
      }
    }
    return names;
  }

  /** Whether a sentence's word is one of the question's names ("Priya", "Priya's"). */
  private static boolean askedName(Set<String> names, String word) {
    return !names.isEmpty() && names.contains(WORD_EDGES.matcher(word).replaceAll(""));
  }

  /** A sentence's words, without the dates the encoder wrote in brackets after its own. */
  private static String[] words(String body) {
    return ANNOTATION.matcher(body).replaceAll(" ").strip().split("\\s+");
  }

  /** Words {@code from} to {@code to} joined, without punctuation at their edges (a closing quote stays). */
  private static String trimmed(String[] words, int from, int to) {
    return String.join(" ", Arrays.copyOfRange(words, from, to)).replaceAll("^\\W+|[^\\w\"')]+$", "");
  }

  private static final Pattern PUNCTUATED = Pattern.compile(".*[,.;:!?]$");

  /** Whether a word ends on punctuation, where a phrase or a clause ends. */
  private static boolean endsWithPunctuation(String word) {
    return PUNCTUATED.matcher(word).matches();
  }

  /** A question that ends on a preposition after a content word: "what is she allergic to?", "what is he into?". */
  private static final Pattern STRANDED = Pattern.compile(
      "(?i)\\b([\\p{L}'-]+)\\s+(?:(?:me|him|her|them|us|you|it)\\s+)?(to|in|into|of|with|about|for|from|on|at)\\s*\\?*\\s*$");

  /**
   * The answer of a question that ends on a preposition ("what is Theo allergic to?") where the
   * sentence holds the same word and preposition ("allergic to cats, so..."): the words after the
   * preposition, up to the end of their clause or the first punctuation. The object of the asked
   * word is the answer even when a longer run of new words stands elsewhere in the sentence.
   * Returns null when the question has no such ending or the sentence no such pair.
   */
  static String objectOfStrandedPreposition(String question, String body) {
    return objectOfStrandedPreposition(question, words(body));
  }

  /** {@link #objectOfStrandedPreposition(String, String)} on a sentence already split into words. */
  static String objectOfStrandedPreposition(String question, String[] words) {
    Matcher m = STRANDED.matcher(question.strip());
    if (!m.find()) {
      return null;
    }
    Set<String> head = SentenceSupport.roots(m.group(1));
    String prep = m.group(2).toLowerCase(Locale.ROOT);
    if (head.isEmpty()) {
      return null;
    }
    for (int i = 0; i + 2 < words.length; i++) {
      // an object pronoun may stand between the verb and its preposition: "reminds me of", "told her about"
      int p = OBJECT_PRONOUNS.contains(bare(words[i + 1])) && !endsWithPunctuation(words[i + 1])
          && i + 3 < words.length ? i + 2 : i + 1;
      if (!bare(words[p]).equals(prep) || endsWithPunctuation(words[i])
          || SentenceSupport.roots(words[i]).stream().noneMatch(head::contains)) {
        continue;
      }
      int from = p + 1;
      while (from < words.length && DETERMINERS.contains(bare(words[from]))) {
        from++;
      }
      int to = from;
      while (to < words.length && to - from < PHRASE_WORDS) {
        to++;
        if (endsWithPunctuation(words[to - 1])) {
          break;
        }
      }
      to = clauseEnd(words, from, to);
      while (to > from && !telling(words[to - 1])) {
        to--;
      }
      if (to > from) {
        return trimmed(words, from, to);
      }
    }
    return null;
  }

  /** Pronouns that stand as a verb's object before a preposition ("reminds me of", "think of it as"). */
  private static final Set<String> OBJECT_PRONOUNS = union(PERSONS_AS_OBJECTS, Set.of("it"));

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> u = new HashSet<>(a);
    u.addAll(b);
    return Set.copyOf(u);
  }

  /** Words that open a noun phrase: an article, a demonstrative, a possessive, a quantifier. */
  private static final Set<String> DETERMINERS = Set.of("a", "an", "the", "this", "these", "those", "some", "my", "his",
      "her", "our", "their", "your", "its", "own");
  /** Finite auxiliaries and copulas: after a noun they open its predicate ("woodwork is super relaxing"). */
  private static final Set<String> FINITE = Set.of("is", "are", "was", "were", "am", "isn't", "aren't", "wasn't",
      "weren't", "has", "have", "had", "will", "would", "can", "could", "should", "might", "must", "won't", "can't");
  /** Pronouns that are only subjects: after the answer they open the next clause ("Pip and she's adorable"). */
  private static final Set<String> SUBJECTS = Set.of("i", "he", "she", "they", "we", "i'm", "i've", "i'd", "i'll",
      "he's", "she's", "it's", "they're", "we're", "you're", "that's", "there's", "they've", "we've", "you've");

  /**
   * Where the answer of a phrase ends: before the first word, after one that tells, that opens the
   * next clause: a finite auxiliary or copula ("woodwork is super relaxing" gives
   * "woodwork") or a pronoun that is only a subject ("Pip and she's adorable" gives "Pip"). "to"
   * before a verb, relative and subordinating words, "and" before a clause, commas and "that" were
   * tried as ends too and cost F1 (docs/defaults.md §5): answers often hold such a clause.
   */
  static int clauseEnd(String[] words, int from, int to) {
    boolean told = false;
    for (int i = from; i < to; i++) {
      String w = bare(words[i]);
      if (told && (FINITE.contains(w) || SUBJECTS.contains(w))) {
        return i;
      }
      told |= telling(words[i]);
    }
    return to;
  }

  /**
   * A run that opens with a phrase put in front of its clause ("On Sundays I go bouldering", "In
   * winter we ski"): a preposition, at most three words, then a subject pronoun. The answer is the
   * clause after the pronoun, not the phrase in front (which the pronoun would otherwise end).
   * Returns where the clause's first telling word is, or {@code from} when the run has no such opening.
   */
  static int afterFrontedPhrase(String[] words, int runStart, int from, int to) {
    boolean fronted = false;
    for (int i = runStart; i < from; i++) {
      fronted |= PARTICLES.contains(bare(words[i])) || bare(words[i]).equals("during");
    }
    if (!fronted) {
      return from;
    }
    for (int i = from + 1; i < Math.min(to, from + 4); i++) {
      if (CONJUNCTIONS.contains(bare(words[i]))) {
        // "allergic to cats, so I might skip...": the pronoun opens a clause joined to the one
        // before, so the words before it are no phrase put in front of it
        return from;
      }
      if (SUBJECTS.contains(bare(words[i]))) {
        int j = i + 1;
        while (j < to && !telling(words[j])) {
          j++;
        }
        return j < to ? j : from;
      }
    }
    return from;
  }

  /**
   * Where the answer of a phrase starts: the noun phrase after a past verb the question did not use
   * ("found this cool brass compass" gives "cool brass compass", "added some thyme" gives
   * "thyme"), when the run opens with a past verb (in -ed, or an irregular past form), perhaps a
   * particle, then a determiner followed by a word that tells. A present verb or a noun before the
   * determiner stays ("make a difference", "completion of a degree"): taking the noun phrase after
   * any first word cost F1.
   */
  static int objectStart(String[] words, int from, int to) {
    if (from >= to || Character.isUpperCase(words[from].charAt(0)) || endsWithPunctuation(words[from])) {
      return from;
    }
    String verb = bare(words[from]);
    if (!(verb.endsWith("ed") || SentenceSupport.irregularPast(verb))) {
      return from;
    }
    int d = from + 1;
    if (d < to && PARTICLES.contains(bare(words[d]))) {
      d++;
    }
    if (d >= to - 1 || endsWithPunctuation(words[d - 1]) || !DETERMINERS.contains(bare(words[d]))) {
      return from;
    }
    for (int j = d + 1; j < to; j++) {
      if (telling(words[j])) {
        return j;
      }
      if (!DETERMINERS.contains(bare(words[j]))) {
        break;
      }
    }
    return from;
  }

  /** Words that join two clauses: a pronoun after one opens the second clause, not the main clause of a fronted phrase. */
  private static final Set<String> CONJUNCTIONS = Set.of("so", "and", "but", "or", "because", "since", "while");

  /** Prepositions and particles that may stand between a verb and its object ("came across a", "hit by a"). */
  private static final Set<String> PARTICLES = Set.of("across", "by", "up", "out", "on", "in", "at", "to", "into",
      "onto", "for", "with", "upon", "off", "down", "over", "through", "around", "about");

  private static final Pattern DO_Q = Pattern.compile("(?i)^\\W*(?:what|which|how)\\s+(?:\\w+\\s+){0,2}?(?:did|does|do|is|are|was|were)\\s+.*\\b(?:do|doing)\\b");

  /** "What did X do...?": the answer is what was done, a verb with its object, so the verb stays. */
  static boolean asksWhatWasDone(String question) {
    return DO_Q.matcher(question).find();
  }

  private static String bare(String word) {
    return word.replaceAll("^\\W+|\\W+$", "").toLowerCase(Locale.ROOT).replace('\u2019', '\'');
  }

  /**
   * Words that say when something happened ("yesterday", "last week", "on Friday"): a phrase answers
   * what, not when, so they neither count as its words nor stand at its edges.
   */
  private static final Set<String> TIME_WORDS = Set.of("yesterday", "today", "tonight", "tomorrow", "last", "next",
      "ago", "recently", "lately", "week", "weeks", "weekend", "weekends", "night", "morning", "afternoon", "evening",
      "day", "days", "month", "months", "year", "years", "earlier", "soon", "monday", "tuesday", "wednesday",
      "thursday", "friday", "saturday", "sunday", "january", "february", "march", "april", "may", "june", "july",
      "august", "september", "october", "november", "december", "now", "currently", "nowadays", "later", "anymore");

  /** Whether a word tells what a phrase answer says: it can carry an answer and does not only tell when. */
  static boolean telling(String word) {
    String bare = word.replaceAll("^\\W+|\\W+$", "").toLowerCase(Locale.ROOT);
    return answering(word) && !TIME_WORDS.contains(bare);
  }

  /** Whether a word can carry an answer: a content word that is not a chat filler. */
  static boolean answering(String word) {
    Set<String> t = Terms.content(word);
    return !t.isEmpty() && t.stream().noneMatch(FILLERS::contains);
  }
}
