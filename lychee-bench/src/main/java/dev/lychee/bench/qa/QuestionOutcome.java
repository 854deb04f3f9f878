package dev.lychee.bench.qa;

/**
 * One judged question of an LLM run.
 *
 * @param index the question's position in its conversation's {@code qa} list
 * @param category LoCoMo category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop), or 0 for
 *     data sets without categories
 * @param type the question type (LongMemEval's {@code question_type}; the category name for LoCoMo)
 * @param question the question
 * @param gold the reference answer
 * @param answer the generated answer
 * @param correct the judge's verdict
 * @param verdictParsed false when the judge's reply held no verdict (then counted wrong)
 * @param f1 token F1 against the reference
 * @param bleu1 BLEU-1 against the reference
 * @param exactMatch 1 when the normalised answer equals the normalised reference
 * @param abstained the answer says memory holds no answer
 * @param bestSentenceF1 the highest token F1 of any single evidence sentence: what an answerer that
 *     picks sentences could reach at best from this evidence
 * @param queryCalls LLM calls to plan and answer
 * @param queryInputTokens provider-reported input tokens of those calls
 * @param queryOutputTokens provider-reported output tokens of those calls
 * @param judgeInputTokens the judge call's input tokens
 * @param judgeOutputTokens the judge call's output tokens
 * @param answerMillis wall time of recall plus answer
 */
public record QuestionOutcome(
    int index,
    int category,
    String type,
    String question,
    String gold,
    String answer,
    boolean correct,
    boolean verdictParsed,
    double f1,
    double bleu1,
    double exactMatch,
    boolean abstained,
    double bestSentenceF1,
    long queryCalls,
    long queryInputTokens,
    long queryOutputTokens,
    long judgeInputTokens,
    long judgeOutputTokens,
    long answerMillis) {

  /** Input plus output tokens of planning and answering. */
  public long queryTokens() {
    return queryInputTokens + queryOutputTokens;
  }
}
