package dev.lychee.core.metrics;

import dev.lychee.api.TokenUsage;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Inject;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@link LycheeMetrics} on a Micrometer {@link MeterRegistry}. Meter names: {@code lychee.appends},
 * {@code lychee.turns.stored}, {@code lychee.segments.closed}, {@code lychee.segments.encoded},
 * {@code lychee.segments.failed} (tag {@code retry}), gauge {@code lychee.segments.pending},
 * {@code lychee.tokens} (tags {@code stage}, {@code direction}), timer {@code lychee.read.latency}
 * (tag {@code stage}). Namespaces are not tags: their number is unbounded.
 */
public final class MicrometerMetrics implements LycheeMetrics {
  private final MeterRegistry registry;
  private final Counter appends;
  private final Counter turns;
  private final Counter closed;
  private final Counter encoded;

  @Inject
  public MicrometerMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.appends = Counter.builder("lychee.appends").description("append calls").register(registry);
    this.turns = Counter.builder("lychee.turns.stored").description("turns newly stored").register(registry);
    this.closed = Counter.builder("lychee.segments.closed").description("segments closed").register(registry);
    this.encoded = Counter.builder("lychee.segments.encoded").description("segments encoded").register(registry);
  }

  @Override
  public void appended(String namespace, int count) {
    appends.increment();
    turns.increment(count);
  }

  @Override
  public void segmentsClosed(int count) {
    closed.increment(count);
  }

  @Override
  public void segmentEncoded() {
    encoded.increment();
  }

  @Override
  public void segmentFailed(boolean willRetry) {
    Counter.builder("lychee.segments.failed").tag("retry", Boolean.toString(willRetry))
        .description("failed encoding attempts").register(registry).increment();
  }

  @Override
  public void tokens(String stage, TokenUsage usage) {
    if (usage == null) {
      return;
    }
    Counter.builder("lychee.tokens").tag("stage", stage).tag("direction", "input").register(registry)
        .increment(usage.inputTokens());
    Counter.builder("lychee.tokens").tag("stage", stage).tag("direction", "output").register(registry)
        .increment(usage.outputTokens());
  }

  @Override
  public void latency(String stage, long nanos) {
    Timer.builder("lychee.read.latency").tag("stage", stage).register(registry).record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void pendingGauge(Supplier<Number> pending) {
    Gauge.builder("lychee.segments.pending", pending).description("segments queued for encoding").register(registry);
  }
}
