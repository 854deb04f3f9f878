package dev.lychee.api.spi;

import dev.lychee.api.Answer;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import java.util.List;

/**
 * Writes an answer from serialized evidence: one LLM call, or none for an extractive answerer.
 *
 * <p>Contract: with no evidence it answers that the information is not available rather than
 * inventing one; the returned {@link Answer} carries the evidence it was given and the tokens it
 * used (planning tokens are added by the caller). Thread-safe.
 */
public interface AnswerGenerator {
  Answer answer(Question question, RecallPlan plan, List<Evidence> evidence);
}
