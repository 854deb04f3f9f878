package dev.lychee.spring.boot.actuate;

import dev.lychee.core.Lychee;
import java.util.Objects;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Reports Lychee as up when its store answers a listing, with the store kind, the number of
 * namespaces and the embedder's model id as details (no namespace names: they may be user ids).
 */
public final class LycheeHealthIndicator extends AbstractHealthIndicator {
  private final Lychee lychee;
  private final String storeType;

  public LycheeHealthIndicator(Lychee lychee, String storeType) {
    super("Lychee health check failed");
    this.lychee = Objects.requireNonNull(lychee, "lychee");
    this.storeType = Objects.requireNonNull(storeType, "storeType");
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    int namespaces = lychee.store().namespaces().size();
    builder.up().withDetail("store", storeType).withDetail("namespaces", namespaces)
        .withDetail("embedder", lychee.embedder().modelId());
  }
}
