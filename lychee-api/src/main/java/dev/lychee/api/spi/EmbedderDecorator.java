package dev.lychee.api.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * Base of an {@link Embedder} that wraps another one (to count, cache, fail on purpose, ...): the
 * model's identity ({@link #dimension()}, {@link #modelId()}, {@link #profile()}) is the wrapped
 * embedder's. The embedding methods stay for the subclass to write, because forwarding them by
 * default would let a batch call slip past what the subclass adds; {@link #embedQueries} keeps
 * the interface's default, one {@link #embedQuery} per query, unless the subclass overrides it;
 * likewise {@link #embedDocuments(java.util.List, EmbeddingPriority)} goes through the subclass's
 * {@link #embedDocuments(java.util.List)} and so drops the priority hint, unless the subclass
 * overrides it to pass the hint on.
 */
public abstract class EmbedderDecorator implements Embedder {
  /** The wrapped embedder. */
  protected final Embedder delegate;

  /** @param delegate the wrapped embedder */
  protected EmbedderDecorator(Embedder delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public int dimension() {
    return delegate.dimension();
  }

  @Override
  public String modelId() {
    return delegate.modelId();
  }

  @Override
  public EmbeddingProfile profile() {
    return delegate.profile();
  }

  @Override
  public Optional<EmbeddingProfile> turnTextProfile() {
    return delegate.turnTextProfile();
  }
}
