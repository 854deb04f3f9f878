package dev.lychee.spring.boot.metrics;

import dev.lychee.spring.ai.ConversationScope;
import dev.lychee.spring.ai.advisor.AdvisorListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Advisor meters: {@code lychee.advisor.recall} (timer), {@code lychee.advisor.evidence} (items
 * put into prompts), {@code lychee.advisor.turns} (turns appended) and {@code
 * lychee.advisor.failures} tagged by stage. No namespace or session tag: they are unbounded and may
 * be user ids.
 */
public final class MicrometerAdvisorListener implements AdvisorListener {
  private final MeterRegistry registry;
  private final Timer recall;
  private final Counter evidence;
  private final Counter turns;

  public MicrometerAdvisorListener(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.recall = Timer.builder("lychee.advisor.recall").description("Recall before a chat call").register(registry);
    this.evidence = Counter.builder("lychee.advisor.evidence").description("Evidence items added to prompts").register(registry);
    this.turns = Counter.builder("lychee.advisor.turns").description("Turns appended after chat calls").register(registry);
  }

  @Override
  public void recalled(ConversationScope scope, int items, long nanos) {
    recall.record(nanos, TimeUnit.NANOSECONDS);
    evidence.increment(items);
  }

  @Override
  public void appended(ConversationScope scope, int turnsStored) {
    turns.increment(turnsStored);
  }

  @Override
  public void failed(ConversationScope scope, String stage, RuntimeException error) {
    registry.counter("lychee.advisor.failures", "stage", stage).increment();
  }
}
