package dev.lychee.core.answer;

import dev.lychee.api.Answer;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.AnswerGenerator;
import dev.lychee.core.text.Terms;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The offline answerer: returns the evidence sentence that best supports the question, scored by
 * how many of the question's content words it shares, with a small preference for higher-ranked
 * evidence. The item the sentence comes from is moved to the front of the returned evidence.
 */
public final class ExtractiveAnswerGenerator implements AnswerGenerator {
  private static final Pattern SENTENCE = Pattern.compile("(?<=[.!?])\\s+|\\n+");
  /** How much a rank step lowers a sentence's score, so ties go to the more relevant item. */
  private static final double RANK_DECAY = 0.02;

  @Override
  public Answer answer(Question question, RecallPlan plan, List<Evidence> evidence) {
    if (evidence.isEmpty()) {
      return new Answer(LlmAnswerGenerator.NOT_AVAILABLE, evidence, plan, TokenUsage.ZERO);
    }
    Set<String> q = Terms.content(question.text());
    double best = Double.NEGATIVE_INFINITY;
    String bestSentence = null;
    int bestItem = 0;
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
        if (score > best) {
          best = score;
          bestSentence = sentence;
          bestItem = i;
        }
      }
    }
    if (bestSentence == null) {
      return new Answer(LlmAnswerGenerator.NOT_AVAILABLE, evidence, plan, TokenUsage.ZERO);
    }
    List<Evidence> ordered = new ArrayList<>(evidence.size());
    ordered.add(evidence.get(bestItem));
    for (int i = 0; i < evidence.size(); i++) {
      if (i != bestItem) {
        ordered.add(evidence.get(i));
      }
    }
    return new Answer(bestSentence, ordered, plan, TokenUsage.ZERO);
  }
}
