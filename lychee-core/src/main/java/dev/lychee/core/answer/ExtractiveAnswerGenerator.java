package dev.lychee.core.answer;

import dev.lychee.api.Answer;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.AnswerGenerator;
import dev.lychee.core.answer.SentenceSupport.Scored;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The offline answerer. It cuts the evidence into sentences ({@link EvidenceSentences}), scores
 * each by its support for the question ({@link SentenceSupport}: the question's words it holds,
 * weighted by rarity; a reply inherits the support of the question it answers), and returns, from
 * the best sentence, the span the question asks for ({@link AnswerForm}, {@link AnswerSpans}): a
 * resolved date, a name, a quantity, a place, yes or no, one of the options of an "X or Y"
 * question, or a short phrase. Among sentences about as good as the best, one holding the asked
 * kind of span wins, and for a question about the present ("now", "current", "still", "what
 * is...") the one said last, so a changed fact is answered with its latest value. When no sentence
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
  /**
   * The default least support some sentence must have, or memory holds no answer: the largest
   * threshold at which no answerable LoCoMo dev question with any support abstains (0.2 drops
   * three; see docs/defaults.md §5).
   */
  public static final double DEFAULT_MIN_SUPPORT = 0.15;

  private final double minSupport;
  private final AnswerSpans spans = new AnswerSpans();

  /** The answerer with {@link #DEFAULT_MIN_SUPPORT}. */
  public ExtractiveAnswerGenerator() {
    this(DEFAULT_MIN_SUPPORT);
  }

  /** @param minSupport in [0, 1]: below it the answer is {@link LlmAnswerGenerator#NOT_AVAILABLE} */
  public ExtractiveAnswerGenerator(double minSupport) {
    if (!(minSupport >= 0 && minSupport <= 1)) {
      throw new IllegalArgumentException("minSupport must be in [0, 1]: " + minSupport);
    }
    this.minSupport = minSupport;
  }

  @Override
  public Answer answer(Question question, RecallPlan plan, List<Evidence> evidence) {
    List<Scored> all = SentenceSupport.score(question.text(), EvidenceSentences.of(evidence));
    double most = all.stream().mapToDouble(Scored::support).max().orElse(0);
    if (most < minSupport || most == 0) {
      return new Answer(LlmAnswerGenerator.NOT_AVAILABLE, evidence, plan, TokenUsage.ZERO);
    }
    AnswerForm form = AnswerForm.of(question.text());
    // near ties: sentences that support the question about as well as the best one; among them a
    // sentence holding the asked kind of span (a date, a number...) beats one that holds none
    Scored best = all.stream().max(Comparator.comparingDouble(ExtractiveAnswerGenerator::score)).orElseThrow();
    double top = score(best);
    List<Scored> near = all.stream()
        .filter(s -> score(s) >= top - NEAR_TIE && s.support() >= best.support() * 0.75)
        .sorted(Comparator.comparingDouble(ExtractiveAnswerGenerator::score).reversed()).toList();
    List<Scored> typed = near.stream()
        .filter(s -> spans.typedSpan(form, question.text(), s.sentence()) != null).toList();
    List<Scored> pool = typed.isEmpty() ? near : typed;
    boolean change = AnswerForm.aboutAChange(question.text());
    Scored chosen = change || AnswerForm.aboutThePresent(question.text()) ? latest(pool) : pool.get(0);
    String text = spans.span(form, question.text(), chosen.sentence(), all);
    if (change) {
      text = withFormerValue(form, question.text(), chosen, near, text);
    }
    int item = chosen.sentence().item();
    List<Evidence> ordered = new ArrayList<>(evidence.size());
    ordered.add(evidence.get(item));
    for (int i = 0; i < evidence.size(); i++) {
      if (i != item) {
        ordered.add(evidence.get(i));
      }
    }
    return new Answer(text, ordered, plan, TokenUsage.ZERO);
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
          return is + " (before: " + was + ")";
        }
      }
    }
    return text;
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
