package dev.lychee.core.fallback;

import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.ProviderException;
import dev.lychee.api.spi.ChatModel;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A chat model that gives up when the current read's {@link ReadDeadline} passes, whatever the
 * provider's own timeouts and retries would do. Outside a read scope (the encoder) it calls the
 * model directly. The abandoned call is interrupted.
 */
public final class DeadlineChatModel implements ChatModel {
  private static final ExecutorService CALLS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "lychee-read-llm");
    t.setDaemon(true);
    return t;
  });

  private final ChatModel inner;

  public DeadlineChatModel(ChatModel inner) {
    this.inner = inner;
  }

  @Override
  public ChatResult chat(ChatRequest request) {
    Optional<Duration> left = ReadDeadline.remaining();
    if (left.isEmpty()) {
      return inner.chat(request);
    }
    if (left.get().isZero()) {
      throw passed();
    }
    Future<ChatResult> call = CALLS.submit(() -> inner.chat(request));
    try {
      return call.get(left.get().toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      call.cancel(true);
      throw passed();
    } catch (InterruptedException e) {
      call.cancel(true);
      Thread.currentThread().interrupt();
      throw new ProviderException(inner.modelId(), -1, "interrupted while waiting for chat model " + inner.modelId(), e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new ProviderException(inner.modelId(), -1, "chat model " + inner.modelId() + " failed: " + e.getCause(), e.getCause());
    }
  }

  private ProviderException passed() {
    return new ProviderException(inner.modelId(), -1, "chat model " + inner.modelId()
        + " did not answer before the read deadline (FallbackConfig.deadline; " + FallbackConfig.DEADLINE_VARIABLE
        + " for the CLI and the server)", null);
  }

  @Override
  public String modelId() {
    return inner.modelId();
  }
}
