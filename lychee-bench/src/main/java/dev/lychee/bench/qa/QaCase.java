package dev.lychee.bench.qa;

import dev.lychee.bench.systems.EvalSession;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * One memory to build and the questions to ask it: a LoCoMo conversation with its questions, or
 * a LongMemEval item (its haystack and its one question).
 *
 * @param id the conversation or question id (also the namespace it is ingested into)
 * @param sessions the sessions, in order
 * @param questions the questions
 */
public record QaCase(String id, List<EvalSession> sessions, List<Item> questions) {
  public QaCase {
    Objects.requireNonNull(id, "id");
    sessions = List.copyOf(sessions);
    questions = List.copyOf(questions);
  }

  /**
   * A question to ask once the memory is built.
   *
   * @param index its position in the source file
   * @param category LoCoMo category, 0 when the data set has none
   * @param type the question type shown in per-type tables
   * @param question the question
   * @param gold the reference answer
   * @param rule how the judge grades it
   * @param askedAt the time the question is asked (relative dates resolve against it); nullable
   */
  public record Item(int index, int category, String type, String question, String gold, AnswerJudge.Rule rule,
      LocalDateTime askedAt) {
    public Item {
      Objects.requireNonNull(question, "question");
      gold = gold == null ? "" : gold;
      Objects.requireNonNull(rule, "rule");
    }
  }

  /** The same case with at most {@code n} questions (all when {@code n <= 0}). */
  public QaCase limitQuestions(int n) {
    return n <= 0 || n >= questions.size() ? this : new QaCase(id, sessions, questions.subList(0, n));
  }
}
