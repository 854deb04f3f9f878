package dev.lychee.bench.qa;

import dev.lychee.bench.harness.LocomoSessions;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoQuestion;
import dev.lychee.bench.longmemeval.LongMemEvalHarness;
import dev.lychee.bench.longmemeval.LongMemEvalItem;
import dev.lychee.bench.systems.EvalSession;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Builds the cases of an LLM-judged run from the two data sets. */
public final class QaCases {
  private QaCases() {}

  /** The LoCoMo category names, by number. */
  static String categoryName(int category) {
    return switch (category) {
      case 1 -> "multi-hop";
      case 2 -> "temporal";
      case 3 -> "open-domain";
      case 4 -> "single-hop";
      default -> "category-" + category;
    };
  }

  /**
   * One case per conversation, with its evaluated questions (categories 1-4), asked at the date of
   * the conversation's last session (the questions are posed after it, as in the recall harness).
   */
  public static List<QaCase> locomo(List<LocomoConversation> conversations) {
    List<QaCase> out = new ArrayList<>();
    for (LocomoConversation c : conversations) {
      List<EvalSession> sessions = LocomoSessions.of(c);
      LocalDateTime askedAt = sessions.stream().map(EvalSession::date).filter(Objects::nonNull)
          .max(LocalDateTime::compareTo).orElse(null);
      List<QaCase.Item> items = new ArrayList<>();
      for (LocomoQuestion q : c.questions()) {
        items.add(new QaCase.Item(q.index(), q.category(), categoryName(q.category()), q.question(), q.answer(),
            AnswerJudge.Rule.DEFAULT, askedAt));
      }
      out.add(new QaCase(c.sampleId(), sessions, items));
    }
    return out;
  }

  /**
   * One case per LongMemEval question, its haystack as the memory, graded by the rule of its
   * question type; abstention questions ({@code _abs}) form their own group and are graded as
   * abstentions.
   */
  public static List<QaCase> longMemEval(List<LongMemEvalItem> items) {
    List<QaCase> out = new ArrayList<>();
    for (LongMemEvalItem item : items) {
      String type = item.isAbstention() ? "abstention" : item.questionType();
      QaCase.Item q = new QaCase.Item(0, 0, type, item.question(), item.answer(), rule(item), item.questionDate());
      out.add(new QaCase(item.questionId(), LongMemEvalHarness.sessions(item), List.of(q)));
    }
    return out;
  }

  /** How LongMemEval's protocol grades each question type. */
  static AnswerJudge.Rule rule(LongMemEvalItem item) {
    if (item.isAbstention()) {
      return AnswerJudge.Rule.ABSTENTION;
    }
    String t = item.questionType() == null ? "" : item.questionType();
    return switch (t) {
      case "temporal-reasoning" -> AnswerJudge.Rule.TEMPORAL;
      case "knowledge-update" -> AnswerJudge.Rule.LATEST;
      case "single-session-preference" -> AnswerJudge.Rule.PREFERENCE;
      default -> AnswerJudge.Rule.DEFAULT;
    };
  }
}
