package dev.lychee.bench.qa;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The figures the paper reports for one variant, computed from its finished cases: judge accuracy
 * overall and per question group, token F1 and BLEU-1, construction tokens per conversation and
 * query tokens per question (provider-reported, in thousands, as the paper counts them), calls and
 * answer latency.
 *
 * @param conversations finished cases
 * @param questions judged questions
 * @param accuracy share judged correct (NaN with no question)
 * @param accuracyByGroup accuracy per LoCoMo category number (as text) or LongMemEval question type
 * @param questionsByGroup questions per group
 * @param f1 mean token F1
 * @param bleu1 mean BLEU-1
 * @param exactMatch mean exact match
 * @param abstention share of answers saying memory holds no answer
 * @param bestSentenceF1 mean of the best single evidence sentence's F1 (an upper bound for sentence pickers)
 * @param f1ByGroup mean token F1 per group
 * @param exactMatchByGroup mean exact match per group
 * @param abstentionByGroup share of abstentions per group
 * @param bestSentenceF1ByGroup mean best-sentence F1 per group
 * @param constructionKTokensPerConversation mean construction tokens per case, in thousands
 * @param constructionCallsPerConversation mean construction calls per case
 * @param queryKTokensPerQuestion mean planning + answering tokens per question, in thousands
 * @param queryCallsPerQuestion mean planning + answering calls per question
 * @param judgeTokens all judge tokens
 * @param answerP50Millis median recall + answer time
 * @param answerP95Millis 95th percentile recall + answer time
 * @param unparsedVerdicts judge replies without a verdict (counted wrong)
 * @param pendingSegments segments left unencoded, summed
 */
public record QaSummary(
    int conversations,
    int questions,
    double accuracy,
    Map<String, Double> accuracyByGroup,
    Map<String, Integer> questionsByGroup,
    double f1,
    double bleu1,
    double exactMatch,
    double abstention,
    double bestSentenceF1,
    Map<String, Double> f1ByGroup,
    Map<String, Double> exactMatchByGroup,
    Map<String, Double> abstentionByGroup,
    Map<String, Double> bestSentenceF1ByGroup,
    double constructionKTokensPerConversation,
    double constructionCallsPerConversation,
    double queryKTokensPerQuestion,
    double queryCallsPerQuestion,
    long judgeTokens,
    long answerP50Millis,
    long answerP95Millis,
    int unparsedVerdicts,
    int pendingSegments) {

  /** Summarises finished cases. */
  public static QaSummary of(List<ConversationOutcome> cases) {
    List<QuestionOutcome> qs = new ArrayList<>();
    cases.forEach(c -> qs.addAll(c.questions()));
    Map<String, List<QuestionOutcome>> groups = new TreeMap<>();
    for (QuestionOutcome q : qs) {
      groups.computeIfAbsent(group(q), g -> new ArrayList<>()).add(q);
    }
    Map<String, Double> byGroup = new TreeMap<>();
    Map<String, Double> f1ByGroup = new TreeMap<>();
    Map<String, Double> emByGroup = new TreeMap<>();
    Map<String, Double> abstentionByGroup = new TreeMap<>();
    Map<String, Double> bestByGroup = new TreeMap<>();
    Map<String, Integer> counts = new TreeMap<>();
    boolean judged = qs.stream().anyMatch(QuestionOutcome::verdictParsed);
    groups.forEach((g, list) -> {
      byGroup.put(g, judged ? mean(list, q -> q.correct() ? 1 : 0) : Double.NaN);
      f1ByGroup.put(g, mean(list, QuestionOutcome::f1));
      emByGroup.put(g, mean(list, QuestionOutcome::exactMatch));
      abstentionByGroup.put(g, mean(list, q -> q.abstained() ? 1 : 0));
      bestByGroup.put(g, mean(list, QuestionOutcome::bestSentenceF1));
      counts.put(g, list.size());
    });
    long[] latencies = qs.stream().mapToLong(QuestionOutcome::answerMillis).sorted().toArray();
    // with no judge at all (offline runs) accuracy is unknown, not zero
    return new QaSummary(cases.size(), qs.size(), judged ? mean(qs, q -> q.correct() ? 1 : 0) : Double.NaN, byGroup,
        counts, mean(qs, QuestionOutcome::f1), mean(qs, QuestionOutcome::bleu1), mean(qs, QuestionOutcome::exactMatch),
        mean(qs, q -> q.abstained() ? 1 : 0), mean(qs, QuestionOutcome::bestSentenceF1), f1ByGroup,
        emByGroup, abstentionByGroup, bestByGroup,
        cases.stream().mapToLong(ConversationOutcome::constructionTokens).average().orElse(Double.NaN) / 1000.0,
        cases.stream().mapToLong(ConversationOutcome::constructionCalls).average().orElse(Double.NaN),
        mean(qs, QuestionOutcome::queryTokens) / 1000.0,
        mean(qs, q -> q.queryCalls()),
        qs.stream().mapToLong(q -> q.judgeInputTokens() + q.judgeOutputTokens()).sum(),
        percentile(latencies, 0.50), percentile(latencies, 0.95),
        (int) qs.stream().filter(q -> !q.verdictParsed()).count(),
        cases.stream().mapToInt(ConversationOutcome::pendingSegments).sum());
  }

  private static String group(QuestionOutcome q) {
    return q.category() > 0 ? Integer.toString(q.category()) : q.type();
  }

  private static <T> double mean(List<T> xs, ToDoubleFunction<T> f) {
    return xs.stream().mapToDouble(f).average().orElse(Double.NaN);
  }

  /** Nearest-rank percentile of sorted values (0 when empty). */
  static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }
}
