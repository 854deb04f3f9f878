package dev.lychee.bench.longmemeval;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * One LongMemEval question with its haystack (official {@code longmemeval_s.json} layout).
 *
 * @param questionId {@code question_id}; abstention questions end in {@code _abs}
 * @param questionType {@code question_type}
 * @param question the question
 * @param answer the reference answer as text
 * @param questionDate the parsed {@code question_date}; null when it does not parse
 * @param sessions the haystack sessions in order
 * @param answerSessionIds {@code answer_session_ids}
 */
public record LongMemEvalItem(
    String questionId,
    String questionType,
    String question,
    String answer,
    LocalDateTime questionDate,
    List<LmeSession> sessions,
    List<String> answerSessionIds) {
  public LongMemEvalItem {
    Objects.requireNonNull(questionId, "questionId");
    Objects.requireNonNull(question, "question");
    sessions = List.copyOf(sessions);
    answerSessionIds = List.copyOf(answerSessionIds);
  }

  /** Abstention questions have no answer in the haystack; retrieval metrics skip them. */
  public boolean isAbstention() {
    return questionId.endsWith("_abs");
  }
}
