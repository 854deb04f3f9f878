package dev.lychee.api.spi;

import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;

/**
 * Turns a question into a typed plan of recall routes with at most one LLM call.
 *
 * <p>Contract: never fails on a well-formed question; when planning fails (LLM error, unparseable
 * output) it falls back to {@link RecallPlan#singleRoute}. Thread-safe.
 */
public interface QueryPlanner {
  RecallPlan plan(Question question);
}
