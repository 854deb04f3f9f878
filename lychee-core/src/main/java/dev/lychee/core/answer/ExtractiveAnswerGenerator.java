package dev.lychee.core.answer;

import dev.lychee.api.Answer;
import dev.lychee.api.DateRange;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.AnswerGenerator;
import dev.lychee.core.answer.SentenceSupport.Scored;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The offline answerer. It cuts the evidence into sentences ({@link EvidenceSentences}), scores
 * each by its support for the question ({@link SentenceSupport}: the question's words it holds,
 * weighted by rarity; a reply inherits the support of the question it answers, and a line is read
 * with the few lines before it, where dialogue names the topic), and returns, from
 * the best sentence, the span the question asks for ({@link AnswerForm}, {@link AnswerSpans}): a
 * resolved date, a name, a quantity, a place, yes or no, one of the options of an "X or Y"
 * question, or a short phrase. Among sentences about as good as the best, one holding the asked
 * kind of span wins (when none does, the best sentence further down that holds one), and for a
 * question about the present ("now", "current", "still", "what
 * is...") the one said last, so a changed fact is answered with its latest value; a question about
 * the former value ("before?", "previously", "how has X changed") gets the latest value and the one
 * it replaced; an answer about what held before drops the "now" it was told with. The best
 * sentences vote on each other's answer: one whose span other evidence items give too gains
 * (agreement). A sentence by another speaker than the one the question names (for a
 * record, the first speaker it names) counts a little less,
 * as does one whose phrase answer would be a single lower-case word (mostly what is left of an echo of
 * the question), and a question for several things (a plural head noun) gets up to three phrases. When no sentence
 * holds {@code minSupport} of the question's weighted words, it says that memory holds no answer.
 * The item the answer comes from is moved to the front of the returned evidence.
 */
public final class ExtractiveAnswerGenerator implements AnswerGenerator {
  /** How much a rank step lowers a sentence's score, so ties go to the more relevant item. */
  private static final double RANK_DECAY = 0.01;
  /** How much a sentence's share of words the question lacks adds to its score. */
  private static final double NOVELTY = 0.1;
  /** Sentences scoring within this much of the best count as "about as well" supported. */
  private static final double NEAR_TIE = 0.1;
  /** ... and holding at least this share of the best one's support. */
  private static final double NEAR_SUPPORT = 0.75;
  /** The near-tie window of a question that says it asks about the present ("now", "still"...). */
  private static final double NOW_TIE = 0.4;
  /** ... and the share of the best support a sentence must hold to be in it. */
  private static final double NOW_SUPPORT = 0.5;
  /**
   * The share of the best support a sentence holding the asked kind of span needs to answer when no
   * near tie holds one (on a plateau from 0.1 to 0.25 on the LoCoMo dev half; docs/defaults.md §5).
   */
  private static final double KIND_SUPPORT = 0.2;
  /**
   * The share of new words under which the sentence chosen for a "how" question of manner counts as
   * an echo of it, answered by its speaker's next sentence ({@link #elaboration}; at 0.3 no answer
   * changes on the LoCoMo dev half, at 1 more get worse; docs/defaults.md §5).
   */
  static final double ELABORATED = 0.5;
  /** What a sentence said by another speaker than the one the question names loses. */
  private static final double OTHER_SPEAKER = 0.1;
  /**
   * What a sentence loses when the phrase it would answer a plain phrase question with is one word
   * in lower case ("others", "stuff", "considering"): such a word is mostly what is left of a
   * sentence that echoes the question, while a sentence that tells the answer gives it in a few
   * words. The near-tie window, so that such a sentence answers only when nothing about as good
   * tells more (on a plateau from 0.05 to 0.2 on the LoCoMo dev half; docs/defaults.md §5).
   */
  private static final double ONE_WORD = 0.1;
  /**
   * The default least support some sentence must have, or memory holds no answer: the largest
   * threshold at which no answerable LoCoMo dev question with any support abstains (0.2 drops
   * three; see docs/defaults.md §5).
   */
  public static final double DEFAULT_MIN_SUPPORT = 0.15;

  /**
   * A time adverb of the present at either end of a span: said with a value that held then ("the
   * rent is 1,250 euros a month now"), it is wrong in an answer about what held before.
   */
  private static final Pattern PRESENT_ADVERB = Pattern.compile(
      "^(?:right now|now|currently|nowadays|these days|at the moment|today)\\b[,;]?\\s*"
          + "|[,;]?\\s*\\b(?:right now|now|currently|nowadays|these days|at the moment|today)[.!]?$",
      Pattern.CASE_INSENSITIVE);

  /**
   * What agreement ({@link #agreement}) adds to a sentence's score per unit (a span that one other
   * item's sentence of full support gives word for word adds this much): on a plateau from 0.03 to
   * 0.05 on the LoCoMo dev half, lower at 0.1 and 0.2 (docs/defaults.md §5).
   */
  static final double AGREE = 0.03;
  /** How many of the best sentences vote on each other's answers. */
  static final int AGREEING = 10;

  /** At most this many phrases make a list answer. */
  private static final int LIST_ITEMS = 3;
  /**
   * At most this many words of a list item taken from another sentence than the chosen one: a
   * longer phrase is mostly the rest of a sentence about something else, while items are named in
   * a few words (docs/defaults.md §5).
   */
  static final int LIST_ITEM_WORDS = 3;

  private final double minSupport;
  private final double agree;
  private final boolean recordSubjects;
  private final int listItemWords;
  private final AnswerSpans spans = new AnswerSpans();

  /** The answerer with {@link #DEFAULT_MIN_SUPPORT}. */
  public ExtractiveAnswerGenerator() {
    this(DEFAULT_MIN_SUPPORT);
  }

  /** @param minSupport in [0, 1]: below it the answer is {@link LlmAnswerGenerator#NOT_AVAILABLE} */
  public ExtractiveAnswerGenerator(double minSupport) {
    this(minSupport, AGREE, true);
  }

  /**
   * For tests that switch a rule off.
   *
   * @param agree the weight of agreement between the best sentences' spans ({@link #AGREE}); 0 turns it off
   * @param recordSubjects whether a sentence without a speaker counts as told of the first speaker it names
   */
  ExtractiveAnswerGenerator(double minSupport, double agree, boolean recordSubjects) {
    this(minSupport, agree, recordSubjects, LIST_ITEM_WORDS);
  }

  /**
   * For tests that switch a rule off.
   *
   * @param listItemWords the most words of a list item from another sentence ({@link #LIST_ITEM_WORDS});
   *     {@link Integer#MAX_VALUE} takes an item of any length
   */
  ExtractiveAnswerGenerator(double minSupport, double agree, boolean recordSubjects, int listItemWords) {
    if (!(minSupport >= 0 && minSupport <= 1)) {
      throw new IllegalArgumentException("minSupport must be in [0, 1]: " + minSupport);
    }
    this.minSupport = minSupport;
    this.agree = agree;
    this.recordSubjects = recordSubjects;
    this.listItemWords = listItemWords;
  }

  @Override
  public Answer answer(Question question, RecallPlan plan, List<Evidence> evidence) {
    return explain(question, plan, evidence).answer();
  }

  /**
   * An answer with the sentence it was cut from, for error analysis (the benchmark's per-question
   * replay shows which sentence the answerer chose next to the best one).
   *
   * @param answer the answer {@link #answer} returns
   * @param sentence the chosen sentence, without its speaker; null when memory holds no answer
   * @param speaker whose words the sentence is; null when unknown or when there is no sentence
   * @param rank the rank of the evidence item the sentence comes from; 0 when there is no sentence
   * @param support the sentence's support for the question, in [0, 1]
   */
  public record Explained(Answer answer, String sentence, String speaker, int rank, double support) {}

  /** Answers like {@link #answer} and tells which sentence the answer was cut from. */
  public Explained explain(Question question, RecallPlan plan, List<Evidence> evidence) {
    String second = AnswerForm.secondPart(question.text());
    if (second != null) {
      // "when did she go to Lisbon and why?": the first question answers, and the reason (or the
      // companion of "...and with whom?") told in the same sentence, or the best that tells one, is added
      Question first = new Question(question.namespace(), AnswerForm.mainPart(question.text()), question.k(),
          question.askedAt(), question.tokenBudget());
      Explained x = explain(first, plan, evidence);
      if (x.sentence() == null) {
        return x;
      }
      String extra = secondPart(second, question.text(), x.sentence(), evidence);
      if (extra == null || x.answer().text().contains(extra)) {
        return x;
      }
      Answer a = x.answer();
      return new Explained(new Answer(a.text() + ", " + extra, a.evidence(), a.plan(), a.usage()), x.sentence(),
          x.speaker(), x.rank(), x.support());
    }
    List<Scored> all = SentenceSupport.score(question.text(), EvidenceSentences.of(evidence));
    double most = all.stream().mapToDouble(Scored::support).max().orElse(0);
    if (most < minSupport || most == 0) {
      return new Explained(new Answer(LlmAnswerGenerator.NOT_AVAILABLE, evidence, plan, TokenUsage.ZERO), null, null, 0, most);
    }
    AnswerForm form = AnswerForm.of(question.text());
    // near ties: sentences that support the question about as well as the best one; among them a
    // sentence holding the asked kind of span (a date, a number...) beats one that holds none
    Set<String> others = otherSpeakers(question.text(), all);
    // once per answer: the score below is evaluated many times per sentence (sorts, maxima)
    Set<Scored> byOthers = toldOfOthers(all, others);
    Set<Scored> oneWord = oneWordPhrases(form, question.text(), all);
    ToDoubleFunction<Scored> base = s -> score(s)
        - (byOthers.contains(s) ? OTHER_SPEAKER : 0)
        - (oneWord.contains(s) ? ONE_WORD : 0);
    Map<Scored, Double> agreed = agreement(form, question.text(), all, base);
    ToDoubleFunction<Scored> score = s -> base.applyAsDouble(s) + agree * agreed.getOrDefault(s, 0.0);
    Scored best = all.stream().max(Comparator.comparingDouble(score)).orElseThrow();
    double top = score.applyAsDouble(best);
    boolean present = AnswerForm.aboutThePresent(question.text());
    boolean now = AnswerForm.saysNow(question.text());
    DateRange dated = present ? null : spans.questionDate(question.text(), question.askedAt());
    // "now", "still": the user expects a change, so a later value competes from further down
    double tie = now ? NOW_TIE : NEAR_TIE;
    double nearSupport = now ? NOW_SUPPORT : NEAR_SUPPORT;
    List<Scored> near = all.stream()
        .filter(s -> score.applyAsDouble(s) >= top - tie && s.support() >= best.support() * nearSupport)
        .sorted(Comparator.comparingDouble(score).reversed()).toList();
    List<Scored> typed = near.stream()
        .filter(s -> spans.typedSpan(form, question.text(), s.sentence()) != null).toList();
    if (form == AnswerForm.PLACE && AnswerForm.asksForAnEmployer(question.text())) {
      // where someone works: a sentence naming an employer beats one naming only a city
      List<Scored> employers = typed.stream()
          .filter(s -> AnswerSpans.employer(question.text(), s.sentence().text()) != null).toList();
      typed = employers.isEmpty() ? typed : employers;
    }
    if (form == AnswerForm.PHRASE) {
      // "what is Theo allergic to?": a sentence that says "allergic to ..." beats one that only
      // shares the topic ("better for my allergy"), even when that one was said later
      List<Scored> paired = typed.stream()
          .filter(s -> AnswerSpans.objectOfStrandedPreposition(question.text(), s.sentence().text()) != null).toList();
      typed = paired.isEmpty() ? typed : paired;
      // "which orchestra did X join?": a sentence that names an orchestra with the words that say
      // which ("the Maas Chamber Orchestra") beats one that only mentions one ("an orchestra to join")
      String head = AnswerForm.asksForAList(question.text()) ? null : AnswerForm.headNounOfAnAct(question.text());
      if (head != null && paired.isEmpty()) {
        List<Scored> named = typed.stream()
            .filter(s -> AnswerSpans.kind(question.text(), head, s.sentence().text()) != null).toList();
        typed = named.isEmpty() ? typed : named;
      }
    }
    if (typed.isEmpty()) {
      // no near tie holds the asked kind of span (a sentence that names no one holds no answer to
      // "who"): the best sentence further down that holds one answers, if it holds enough of the
      // question; the sentence about the topic often lacks the date, name or number, which a
      // sentence about the same thing tells
      typed = all.stream().filter(s -> s.support() >= best.support() * KIND_SUPPORT)
          .sorted(Comparator.comparingDouble(score).reversed())
          .filter(s -> spans.typedSpan(form, question.text(), s.sentence()) != null).limit(1).toList();
    }
    List<Scored> pool = typed.isEmpty() ? near : typed;
    boolean change = AnswerForm.aboutAChange(question.text());
    Scored chosen = change || present ? latest(pool) : pool.get(0);
    // the answer is what held at an earlier time: a "now" said with it is no longer true
    boolean former = false;
    if (dated != null) {
      // a question about a date in the past ("where did X work in January 2024?") is answered with
      // what held then: the latest of the sentences said by the end of that date, when a later one
      // (a value that may have replaced it) competes
      LocalDate end = dated.end();
      List<Scored> then = pool.stream().filter(s -> s.sentence().source().mentionedAt() != null
          && !s.sentence().source().mentionedAt().toLocalDate().isAfter(end)).toList();
      if (!then.isEmpty() && then.size() < pool.size()) {
        chosen = latest(then);
        former = true;
      }
    }
    String event = present ? null : AnswerForm.eventBefore(question.text());
    if (event != null) {
      Scored before = beforeEvent(question.text(), event, "before", false, all, form);
      if (before != null) {
        chosen = before;
        former = true;
      }
    }
    String at = present || event != null ? null : AnswerForm.eventAtWhen(question.text());
    if (at != null) {
      // "what was her rent when she moved?": what held when the event was told, a value said by then
      Scored then = beforeEvent(question.text(), at, "when", true, all, form);
      if (then != null) {
        chosen = then;
        former = true;
      }
    }
    if (form == AnswerForm.PHRASE && AnswerForm.asksHowItWas(question.text()) && chosen.novelty() < ELABORATED) {
      chosen = elaboration(chosen, all);
    }
    String text = spans.span(form, question.text(), chosen.sentence(), all);
    if (former) {
      text = withoutPresentAdverb(text);
    }
    if (change) {
      text = withFormerValue(form, question.text(), chosen, near, text);
    }
    if (form == AnswerForm.PHRASE && describesOnly(question.text(), text)) {
      // "what bike did Ola fix?" answered "old bike": the make is often told a line or two later,
      // when the other speaker asks which one ("Is it the blue one?" / "Yes, the blue Tern.")
      String named = namedLater(question.text(), form, chosen, text, all);
      text = named != null ? named : text;
    }
    if (form == AnswerForm.PHRASE && AnswerForm.asksForAList(question.text())) {
      text = list(question.text(), chosen, all, score, text);
    }
    int item = chosen.sentence().item();
    List<Evidence> ordered = new ArrayList<>(evidence.size());
    ordered.add(evidence.get(item));
    for (int i = 0; i < evidence.size(); i++) {
      if (i != item) {
        ordered.add(evidence.get(i));
      }
    }
    return new Explained(new Answer(text, ordered, plan, TokenUsage.ZERO), chosen.sentence().text(),
        chosen.sentence().speaker(), evidence.get(item).rank(), chosen.support());
  }

  /**
   * The answer to a question's second part: the reason ("why") or the companion after "with"
   * ("with whom") that the chosen sentence tells, else the best supported sentence of the evidence
   * that tells one; null when none does.
   */
  private static String secondPart(String kind, String question, String chosen, List<Evidence> evidence) {
    List<Scored> all = SentenceSupport.score(question, EvidenceSentences.of(evidence));
    List<String> texts = new ArrayList<>(List.of(chosen));
    all.stream().sorted(Comparator.comparingDouble(Scored::support).reversed()).limit(AGREEING)
        .forEach(s -> texts.add(s.sentence().text()));
    for (String t : texts) {
      String span = kind.equals("why") ? AnswerSpans.reasonOrErrand(question, t) : AnswerSpans.companion(question, t);
      if (span != null) {
        return kind.equals("why") ? span : "with " + span;
      }
    }
    return null;
  }

  /**
   * How much the other best sentences agree with each of the best sentences' answer: for each of the
   * {@link #AGREEING} best sentences by score, the share of its span's words (those the question
   * lacks) that the span of each other sentence from another evidence item holds, weighted by that
   * sentence's support and summed. A fact told in several items (a record, the turn it came from, a
   * window) is more likely the answer than one only a single sentence tells.
   */
  private Map<Scored, Double> agreement(AnswerForm form, String question, List<Scored> all, ToDoubleFunction<Scored> score) {
    if (form == AnswerForm.YES_NO || form == AnswerForm.CHOICE || agree == 0) {
      return Map.of();
    }
    List<Scored> top = all.stream().sorted(Comparator.comparingDouble(score).reversed()).limit(AGREEING).toList();
    Set<String> asked = SentenceSupport.roots(question);
    List<Set<String>> words = new ArrayList<>();
    for (Scored s : top) {
      String span = spans.span(form, question, s.sentence(), all);
      Set<String> w = SentenceSupport.roots(span);
      w.removeAll(asked);
      words.add(w);
    }
    Map<Scored, Double> out = new IdentityHashMap<>();
    for (int i = 0; i < top.size(); i++) {
      Set<String> mine = words.get(i);
      if (mine.isEmpty()) {
        continue;
      }
      double sum = 0;
      for (int j = 0; j < top.size(); j++) {
        if (top.get(j).sentence().item() == top.get(i).sentence().item()) {
          continue;
        }
        long shared = mine.stream().filter(words.get(j)::contains).count();
        sum += top.get(j).support() * shared / mine.size();
      }
      out.put(top.get(i), sum);
    }
    return out;
  }

  /**
   * For a question that asks for several things, the chosen sentence's phrase followed by those of
   * the next best sentences (up to {@link #LIST_ITEMS} distinct phrases, each from a sentence with
   * at least half the chosen one's support and of at most {@link #LIST_ITEM_WORDS} words), joined by
   * commas: a list's items are told in different turns, often in different sessions.
   */
  private String list(String question, Scored chosen, List<Scored> all, ToDoubleFunction<Scored> score, String first) {
    List<String> items = new ArrayList<>(List.of(first));
    Set<Set<String>> seen = new HashSet<>(List.of(SentenceSupport.roots(first)));
    for (Scored s : all.stream().sorted(Comparator.comparingDouble(score).reversed()).toList()) {
      if (items.size() >= LIST_ITEMS || s.support() < chosen.support() * 0.5) {
        break;
      }
      // an item of the same kind as the first: the object of the question's verb ("play the cello"), else the phrase
      String object = AnswerSpans.objectOfAListsVerb(question, s.sentence().text());
      String p = object != null ? object : AnswerSpans.phrase(question, s.sentence().text());
      if (s != chosen && !s.sentence().question() && p.split("\\s+").length <= listItemWords && seen.add(SentenceSupport.roots(p))) {
        items.add(p);
      }
    }
    return String.join(", ", items);
  }

  /**
   * For a plain phrase question (not a title, not "what kind of X?"), the sentences whose phrase
   * answer would be a single word in lower case; a capitalised word is a name and may well be the
   * whole answer ("Pip"). Empty for any other question.
   */
  private Set<Scored> oneWordPhrases(AnswerForm form, String question, List<Scored> all) {
    if (form != AnswerForm.PHRASE || AnswerForm.asksForATitle(question) || AnswerForm.kindOf(question) != null) {
      return Set.of();
    }
    Set<Scored> out = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Scored s : all) {
      String span = spans.typedSpan(form, question, s.sentence());
      if (span != null && oneLowerCaseWord(span)) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * For "how did X feel / describe / handle...?": when the chosen sentence mostly repeats the
   * question (less than {@link #ELABORATED} of its words are new), the next sentence of the same
   * speaker in the same item, which in dialogue says how ("My son and the long flight, wow." / "He slept the
   * whole way."); the chosen sentence when there is none.
   */
  static Scored elaboration(Scored chosen, List<Scored> all) {
    for (int i = 0; i + 1 < all.size(); i++) {
      if (all.get(i) == chosen) {
        Scored next = all.get(i + 1);
        boolean same = next.sentence().item() == chosen.sentence().item() && !next.sentence().question()
            && Objects.equals(next.sentence().speaker(), chosen.sentence().speaker());
        return same ? next : chosen;
      }
    }
    return chosen;
  }

  /** How many sentences after the chosen one may name what a "what X did...?" answer only describes. */
  static final int NAMING_LINES = 3;

  /**
   * Whether the answer to a "what X did...?" question (not a list) only describes X: X with words
   * in lower case before it ("old bicycle"), no name.
   */
  static boolean describesOnly(String question, String answer) {
    String head = AnswerForm.asksForAList(question) ? null : AnswerForm.headNounOfAnAct(question);
    if (head == null) {
      return false;
    }
    String[] w = answer.strip().split("\\s+");
    Set<String> last = SentenceSupport.roots(w[w.length - 1]);
    return w.length > 1 && !last.isEmpty() && SentenceSupport.roots(head).containsAll(last)
        && answer.chars().noneMatch(Character::isUpperCase);
  }

  /**
   * The name that one of the next {@link #NAMING_LINES} sentences gives to what the chosen sentence
   * only describes, said by the same speaker in the same item and not asking ({@link
   * AnswerSpans#nameWithin}). The same fact told in another item counts too (a record's sentence has
   * no next line, the window it was written from has): each sentence with the same answer is tried,
   * the chosen one first. Null when none names it.
   */
  private String namedLater(String question, AnswerForm form, Scored chosen, String answer, List<Scored> all) {
    Set<String> told = SentenceSupport.roots(answer);
    List<Integer> at = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i) == chosen) {
        at.add(0, i);
      } else if (all.get(i).sentence().speaker() != null && !all.get(i).sentence().question()) {
        String span = spans.typedSpan(form, question, all.get(i).sentence());
        if (span != null && SentenceSupport.roots(span).equals(told)) {
          at.add(i);
        }
      }
    }
    for (int from : at) {
      String speaker = all.get(from).sentence().speaker();
      for (int i = from + 1; speaker != null && i < all.size() && i <= from + NAMING_LINES; i++) {
        EvidenceSentences.Sentence s = all.get(i).sentence();
        if (s.item() != all.get(from).sentence().item()) {
          break;
        }
        if (!s.question() && speaker.equals(s.speaker())) {
          String name = AnswerSpans.nameWithin(question, s.text());
          if (name != null) {
            return name;
          }
        }
      }
    }
    return null;
  }

  /** The speakers of the evidence's sentences. */
  private static Set<String> speakers(List<Scored> all) {
    Set<String> speakers = new HashSet<>();
    for (Scored s : all) {
      if (s.sentence().speaker() != null) {
        speakers.add(s.sentence().speaker());
      }
    }
    return speakers;
  }

  /**
   * Whose words or deeds a sentence tells: its speaker, or for a sentence without one (a record,
   * written in the third person: "Emil loves to get lost in good books") the first of the given
   * speakers it names; null when neither.
   */
  static String subject(EvidenceSentences.Sentence s, Set<String> speakers) {
    if (s.speaker() != null || speakers.isEmpty()) {
      return s.speaker();
    }
    String first = null;
    int at = Integer.MAX_VALUE;
    for (String sp : speakers) {
      Matcher m = Pattern.compile("\\b" + Pattern.quote(sp) + "\\b").matcher(s.text());
      if (m.find() && m.start() < at) {
        at = m.start();
        first = sp;
      }
    }
    return first;
  }

  /** The sentences that tell of one of the speakers the question does not name ({@link #subject}). */
  private Set<Scored> toldOfOthers(List<Scored> all, Set<String> others) {
    Set<Scored> out = Collections.newSetFromMap(new IdentityHashMap<>());
    if (others.isEmpty()) {
      return out;
    }
    Set<String> speakers = speakers(all);
    for (Scored s : all) {
      String who = recordSubjects ? subject(s.sentence(), speakers) : s.sentence().speaker();
      if (who != null && others.contains(who)) {
        out.add(s);
      }
    }
    return out;
  }

  /** Whether a span is one word that does not start with a capital letter. */
  static boolean oneLowerCaseWord(String span) {
    String s = span.strip();
    return !s.isEmpty() && s.split("\\s+").length == 1 && !Character.isUpperCase(s.charAt(0));
  }

  /**
   * The speakers of the evidence other than those the question names, when it names one: "what did
   * Rafael paint?" is answered by Rafael's words more likely than by Nadia's reply about them.
   * Empty when the question names no speaker.
   */
  private static Set<String> otherSpeakers(String question, List<Scored> all) {
    Set<String> asked = SentenceSupport.roots(question);
    Set<String> speakers = speakers(all);
    Set<String> named = new HashSet<>();
    for (String sp : speakers) {
      Set<String> r = SentenceSupport.roots(sp);
      if (!r.isEmpty() && asked.containsAll(r)) {
        named.add(sp);
      }
    }
    if (named.isEmpty()) {
      return Set.of();
    }
    speakers.removeAll(named);
    return speakers;
  }

  /** Support first; a sentence that adds words (the likely answer) beats an echo; earlier items win ties. */
  private static double score(Scored s) {
    return s.support() + NOVELTY * Math.min(1, s.novelty()) - RANK_DECAY * s.sentence().item();
  }

  /**
   * For a question about a change, the latest value followed by the one it replaced: among the near
   * ties said before the chosen sentence, the one said last whose span of the asked kind differs
   * from the latest value ("1450 euros a month (before: 1200 euros a month)"). When the question's
   * wording names no kind of span ("how did X change?"), the first kind both sentences hold and that
   * differs between them is the value that changed. Without an earlier, different value the latest
   * value alone is the answer.
   */
  private String withFormerValue(AnswerForm form, String question, Scored latest, List<Scored> near, String text) {
    LocalDateTime now = latest.sentence().source().mentionedAt();
    if (now == null) {
      return text;
    }
    List<Scored> earlier = near.stream()
        .filter(s -> s.sentence().source().mentionedAt() != null && s.sentence().source().mentionedAt().isBefore(now))
        .sorted(Comparator.comparing((Scored s) -> s.sentence().source().mentionedAt()).reversed())
        .toList();
    List<AnswerForm> kinds = form == AnswerForm.PHRASE || form == AnswerForm.YES_NO || form == AnswerForm.CHOICE
        ? List.of(AnswerForm.QUANTITY, AnswerForm.PLACE, AnswerForm.PERSON, AnswerForm.PHRASE)
        : List.of(form);
    for (Scored before : earlier) {
      for (AnswerForm kind : kinds) {
        String was = spans.typedSpan(kind, question, before.sentence());
        String is = spans.typedSpan(kind, question, latest.sentence());
        if (was != null && is != null && !SentenceSupport.roots(was).equals(SentenceSupport.roots(is))) {
          return is + " (before: " + withoutPresentAdverb(was) + ")";
        }
      }
    }
    return text;
  }

  /**
   * For "what was X before she moved?": the event is the sentence that holds most of the clause's
   * words (the best supported of those); the answer is the latest of the sentences said before it
   * (with {@code sameDay}, said by the end of its day: "what was X when she moved?") that support
   * the rest of the question (its words before the last {@code cue}) about as well as the best of
   * them, one holding the asked kind of span first. Null when the event is not found or nothing was
   * said by then.
   */
  private Scored beforeEvent(String question, String event, String cue, boolean sameDay, List<Scored> all,
      AnswerForm form) {
    Set<String> clause = SentenceSupport.roots(event);
    Scored anchor = null;
    int most = 0;
    for (Scored s : all) {
      Set<String> w = SentenceSupport.roots(s.sentence().text());
      w.retainAll(clause);
      boolean better = w.size() > most || w.size() == most && anchor != null && s.support() > anchor.support();
      if (s.sentence().source().mentionedAt() != null && w.size() > 0 && better) {
        anchor = s;
        most = w.size();
      }
    }
    if (anchor == null) {
      return null;
    }
    LocalDateTime at = anchor.sentence().source().mentionedAt();
    String rest = question.substring(0, question.toLowerCase(Locale.ROOT).lastIndexOf(cue));
    List<Scored> rescored = SentenceSupport.score(rest, all.stream().map(Scored::sentence).toList());
    List<Scored> earlier = rescored.stream().filter(s -> !s.sentence().question() && s.sentence().source().mentionedAt() != null
        && (sameDay ? !s.sentence().source().mentionedAt().toLocalDate().isAfter(at.toLocalDate())
            : s.sentence().source().mentionedAt().toLocalDate().isBefore(at.toLocalDate()))).toList();
    double top = earlier.stream().mapToDouble(Scored::support).max().orElse(0);
    if (top < minSupport) {
      return null;
    }
    List<Scored> near = earlier.stream().filter(s -> s.support() >= top * NEAR_SUPPORT)
        .sorted(Comparator.comparingDouble(ExtractiveAnswerGenerator::score).reversed()).toList();
    List<Scored> typed = near.stream().filter(s -> spans.typedSpan(form, question, s.sentence()) != null
        && (form != AnswerForm.PHRASE || spans.typedSpan(AnswerForm.QUANTITY, question, s.sentence()) != null)).toList();
    return latest(typed.isEmpty() ? near : typed);
  }

  /** The span without a present-time adverb at its ends ("1,250 euros a month now"); unchanged if nothing else is left. */
  static String withoutPresentAdverb(String span) {
    String trimmed = PRESENT_ADVERB.matcher(span).replaceAll("").strip();
    return trimmed.isEmpty() ? span : trimmed;
  }

  /** Of sentences ordered best first, the one said last (the best of those said at that time). */
  private static Scored latest(List<Scored> pool) {
    Scored pick = pool.get(0);
    LocalDateTime pickTime = pick.sentence().source().mentionedAt();
    for (Scored s : pool) {
      LocalDateTime t = s.sentence().source().mentionedAt();
      if (t != null && (pickTime == null || t.isAfter(pickTime))) {
        pick = s;
        pickTime = t;
      }
    }
    return pick;
  }
}
