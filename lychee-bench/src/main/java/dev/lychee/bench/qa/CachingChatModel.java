package dev.lychee.bench.qa;

import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.spi.ChatModel;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * Answers from a {@link ResponseCache} when it can and asks the model otherwise, storing what the
 * model said. A cached answer carries the usage the provider reported when it was first sent, so a
 * run served from the cache reports the same token counts as the run that paid for them.
 */
public final class CachingChatModel implements ChatModel {
  private final ChatModel delegate;
  private final ResponseCache cache;
  private final LongAdder hits = new LongAdder();

  public CachingChatModel(ChatModel delegate, ResponseCache cache) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.cache = Objects.requireNonNull(cache, "cache");
  }

  @Override
  public ChatResult chat(ChatRequest request) {
    var cached = cache.get(delegate.modelId(), request);
    if (cached.isPresent()) {
      hits.increment();
      return cached.get();
    }
    ChatResult fresh = delegate.chat(request);
    cache.put(delegate.modelId(), request, fresh);
    return fresh;
  }

  @Override
  public String modelId() {
    return delegate.modelId();
  }

  /** How many calls the cache answered. */
  public long hits() {
    return hits.sum();
  }
}
