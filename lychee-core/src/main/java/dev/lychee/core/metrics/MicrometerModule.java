package dev.lychee.core.metrics;

import com.google.inject.AbstractModule;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * Publishes Lychee's meters to a Micrometer registry: {@code Lychee.create(..., new
 * MicrometerModule(registry))}. Binds the {@link MeterRegistry} and {@link MicrometerMetrics}.
 * Without this module no Micrometer class is loaded and nothing is measured.
 */
public final class MicrometerModule extends AbstractModule {
  private final MeterRegistry registry;

  public MicrometerModule(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  protected void configure() {
    bind(MeterRegistry.class).toInstance(registry);
    bind(LycheeMetrics.class).to(MicrometerMetrics.class).in(com.google.inject.Singleton.class);
  }
}
