package dev.lychee.api.spi;

import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;

/**
 * A generative chat model (hosted or local).
 *
 * <p>Contract: returns the completion text and the token usage the provider reported (or zero
 * when it reports none); retries transient failures (HTTP 429 and 5xx) itself with backoff; throws
 * {@link dev.lychee.api.ProviderException} naming the endpoint and status once retries are used
 * up, on a timeout, or on a body it cannot read. Thread-safe.
 */
public interface ChatModel {

  ChatResult chat(ChatRequest request);

  /** The model's id as configured, for example {@code gpt-4.1-mini} or {@code qwen2.5:7b}. */
  String modelId();
}
