package dev.lychee.bench.qa;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an LLM-judged run produced.
 *
 * @param outcomes per variant name, the finished cases (loaded from checkpoints or run now)
 * @param failures one line per case that failed (not checkpointed; a re-run retries it)
 * @param sentRequests requests that reached the model servers in this process (cache misses)
 * @param cacheHits calls the response cache answered in this process
 */
public record QaResult(Map<String, List<ConversationOutcome>> outcomes, List<String> failures, long sentRequests,
    long cacheHits) {
  public QaResult {
    outcomes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(outcomes));
    failures = List.copyOf(failures);
  }

  /** The summary of every variant, in run order. */
  public Map<String, QaSummary> summaries() {
    Map<String, QaSummary> out = new LinkedHashMap<>();
    outcomes.forEach((name, list) -> out.put(name, QaSummary.of(list)));
    return out;
  }
}
