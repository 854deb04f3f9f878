package dev.lychee.core.metrics;

import dev.lychee.api.TokenUsage;
import java.util.function.Supplier;

/**
 * What Lychee counts and times. Kept free of any metrics library so that Micrometer stays an
 * optional dependency: the default is {@link #NOOP}; {@link MicrometerModule} binds an
 * implementation backed by a {@code MeterRegistry}.
 */
public interface LycheeMetrics {

  /** One {@code append} call stored {@code turns} new turns. */
  void appended(String namespace, int turns);

  /** Segments closed by the segmenter. */
  void segmentsClosed(int count);

  /** One segment encoded and committed. */
  void segmentEncoded();

  /** One encoding attempt failed ({@code willRetry}: another attempt is scheduled). */
  void segmentFailed(boolean willRetry);

  /** LLM tokens reported for a stage ({@code encoder}, {@code planner}, {@code answerer}). */
  void tokens(String stage, TokenUsage usage);

  /** Time spent in one stage of a read ({@code plan}, {@code recall}, {@code answer}). */
  void latency(String stage, long nanos);

  /** Registers the gauge of segments waiting to be encoded. */
  void pendingGauge(Supplier<Number> pending);

  /** Counts and times nothing. */
  LycheeMetrics NOOP = new LycheeMetrics() {
    @Override public void appended(String namespace, int turns) {}
    @Override public void segmentsClosed(int count) {}
    @Override public void segmentEncoded() {}
    @Override public void segmentFailed(boolean willRetry) {}
    @Override public void tokens(String stage, TokenUsage usage) {}
    @Override public void latency(String stage, long nanos) {}
    @Override public void pendingGauge(Supplier<Number> pending) {}
  };
}
