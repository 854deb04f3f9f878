package dev.lychee.core.fallback;

import dev.lychee.api.Answer;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.spi.AnswerGenerator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The LLM answerer, backed by the offline extractive one: when the LLM call fails or passes the
 * read deadline, the answer comes from the evidence with one warning line (policy FALL_BACK), or
 * the call fails with {@link LlmUnavailableException} (FAIL).
 */
public final class FallbackAnswerGenerator implements AnswerGenerator {
  private static final Logger LOG = LoggerFactory.getLogger(FallbackAnswerGenerator.class);

  private final AnswerGenerator llm;
  private final AnswerGenerator offline;
  private final FallbackConfig.LlmFailurePolicy policy;

  public FallbackAnswerGenerator(AnswerGenerator llm, AnswerGenerator offline, FallbackConfig.LlmFailurePolicy policy) {
    this.llm = llm;
    this.offline = offline;
    this.policy = policy;
  }

  @Override
  public Answer answer(Question question, RecallPlan plan, List<Evidence> evidence) {
    try {
      return llm.answer(question, plan, evidence);
    } catch (RuntimeException e) {
      String why = firstLine(e.getMessage());
      if (policy == FallbackConfig.LlmFailurePolicy.FAIL) {
        throw new LlmUnavailableException("the LLM answerer failed: " + why, e);
      }
      LOG.warn("the LLM answerer failed (" + why + "); answered with the offline extractive answerer");
      return offline.answer(question, plan, evidence);
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "no message";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
