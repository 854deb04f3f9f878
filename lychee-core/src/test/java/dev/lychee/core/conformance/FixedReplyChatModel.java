package dev.lychee.core.conformance;

import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.ProviderException;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.ChatModel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A chat model for the conformance suites of LLM-backed stages: every request gets the same reply
 * (or the same provider failure when the reply is null) with a fixed token usage. Thread-safe, so
 * the suites' concurrency checks can use it.
 */
public final class FixedReplyChatModel implements ChatModel {
  private final String reply;
  private final AtomicInteger calls = new AtomicInteger();

  /** @param reply the reply text; null makes every call fail as an unavailable provider would */
  public FixedReplyChatModel(String reply) {
    this.reply = reply;
  }

  @Override
  public ChatResult chat(ChatRequest request) {
    calls.incrementAndGet();
    if (reply == null) {
      throw new ProviderException("http://127.0.0.1", 503, "scripted outage", null);
    }
    return new ChatResult(reply, new TokenUsage(120, 12), "fixed");
  }

  /** How many requests it has answered or failed. */
  public int calls() {
    return calls.get();
  }

  @Override
  public String modelId() {
    return "fixed";
  }
}
