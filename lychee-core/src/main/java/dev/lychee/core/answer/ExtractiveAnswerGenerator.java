package dev.lychee.core.answer;

import dev.lychee.api.Answer;
import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.AnswerGenerator;
import dev.lychee.core.text.Terms;
import java.time.LocalDateTime;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The offline answerer. It scores every evidence sentence by how many of the question's content
 * words it shares (a sentence that adds new words, the likely answer, beats an echo; higher-ranked
 * evidence wins ties), then returns the span of the best sentence that the question asks for
 * ({@link AnswerForm}, {@link AnswerSpans}): a resolved date, a name, a quantity, a place or a short
 * phrase. A question about the present ("now", "current", "still", "what is...") takes, among
 * sentences that support it about as well, the one said last, so a changed fact is answered with
 * its latest value. When the best sentence shares less than {@code minSupport} of the question's
 * content words, it says that memory holds no answer. The item the answer comes from is moved to
 * the front of the returned evidence.
 */
public final class ExtractiveAnswerGenerator implements AnswerGenerator {
  private static final Pattern SENTENCE = Pattern.compile("(?<=[.!?])\\s+|\\n+");
  /** How much a rank step lowers a sentence's score, so ties go to the more relevant item. */
  private static final double RANK_DECAY = 0.02;
  /** Sentences within this much of the best support count as "about as well" for present questions. */
  private static final double NEAR_TIE = 0.6;
  /** The default least share of the question's content words the answer's sentence must hold. */
  public static final double DEFAULT_MIN_SUPPORT = 0.2;

  private static final Set<String> PRESENT_WORDS = Terms.content("now currently current still latest nowadays");

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

  private record Scored(double score, double support, String sentence, int item) {}

  @Override
  public Answer answer(Question question, RecallPlan plan, List<Evidence> evidence) {
    if (evidence.isEmpty()) {
      return new Answer(LlmAnswerGenerator.NOT_AVAILABLE, evidence, plan, TokenUsage.ZERO);
    }
    Set<String> q = new java.util.HashSet<>(Terms.content(question.text()));
    // "now", "still", "currently" say when, not what: they must not make an unrelated sentence of today win
    q.removeAll(PRESENT_WORDS);
    List<Scored> all = new ArrayList<>();
    for (int i = 0; i < evidence.size(); i++) {
      for (String s : SENTENCE.split(evidence.get(i).text())) {
        String sentence = s.strip();
        if (sentence.isEmpty()) {
          continue;
        }
        Set<String> terms = Terms.content(sentence);
        long shared = q.stream().filter(terms::contains).count();
        // shared words count most; a sentence that adds new words (the likely answer) beats an echo
        double novelty = terms.isEmpty() ? 0 : (double) (terms.size() - shared) / terms.size();
        double score = shared + 0.5 * Math.min(1, novelty) - RANK_DECAY * i;
        all.add(new Scored(score, q.isEmpty() ? 0 : (double) shared / q.size(), sentence, i));
      }
    }
    Scored best = all.stream().max(Comparator.comparingDouble(Scored::score)).orElse(null);
    if (best == null || best.support() < minSupport || best.support() == 0) {
      return new Answer(LlmAnswerGenerator.NOT_AVAILABLE, evidence, plan, TokenUsage.ZERO);
    }
    AnswerForm form = AnswerForm.of(question.text());
    // near ties: sentences that support the question about as well as the best one; among them a
    // sentence holding the asked kind of span (a date, a number...) beats one that holds none
    Scored top = best;
    List<Scored> near = all.stream()
        .filter(s -> s.score() >= top.score() - NEAR_TIE && s.support() >= top.support() * 0.75)
        .sorted(Comparator.comparingDouble(Scored::score).reversed()).toList();
    List<Scored> typed = near.stream().filter(s -> spans.typedSpan(form, question.text(), s.sentence(),
        evidence.get(s.item()).candidate()) != null).toList();
    List<Scored> pool = typed.isEmpty() ? near : typed;
    best = AnswerForm.aboutThePresent(question.text()) ? latest(pool, evidence) : pool.get(0);
    Candidate source = evidence.get(best.item()).candidate();
    String text = spans.span(form, question.text(), best.sentence(), source);
    List<Evidence> ordered = new ArrayList<>(evidence.size());
    ordered.add(evidence.get(best.item()));
    for (int i = 0; i < evidence.size(); i++) {
      if (i != best.item()) {
        ordered.add(evidence.get(i));
      }
    }
    return new Answer(text, ordered, plan, TokenUsage.ZERO);
  }

  /** Of sentences ordered best first, the one said last (the best of those said at that time). */
  private static Scored latest(List<Scored> pool, List<Evidence> evidence) {
    Scored pick = pool.get(0);
    LocalDateTime pickTime = evidence.get(pick.item()).candidate().mentionedAt();
    for (Scored s : pool) {
      LocalDateTime t = evidence.get(s.item()).candidate().mentionedAt();
      if (t != null && (pickTime == null || t.isAfter(pickTime))) {
        pick = s;
        pickTime = t;
      }
    }
    return pick;
  }
}
