package dev.lychee.bench.qa;

import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.ChatModel;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the calls a chat model answers, the tokens the provider reported for them and the time
 * they took. One meter wraps the model of one conversation, so reading it before and after a phase
 * (ingest, questions) attributes the phase's calls without threading a phase through the pipeline.
 */
public final class CallMeter implements ChatModel {
  private final ChatModel delegate;
  private final LongAdder calls = new LongAdder();
  private final LongAdder input = new LongAdder();
  private final LongAdder output = new LongAdder();
  private final LongAdder nanos = new LongAdder();

  public CallMeter(ChatModel delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public ChatResult chat(ChatRequest request) {
    long start = System.nanoTime();
    ChatResult r = delegate.chat(request);
    nanos.add(System.nanoTime() - start);
    calls.increment();
    input.add(r.usage().inputTokens());
    output.add(r.usage().outputTokens());
    return r;
  }

  @Override
  public String modelId() {
    return delegate.modelId();
  }

  /** Everything counted so far. */
  public Reading read() {
    return new Reading(calls.sum(), new TokenUsage(input.sum(), output.sum()), nanos.sum() / 1_000_000);
  }

  /**
   * What a meter has counted.
   *
   * @param calls answered calls
   * @param usage provider-reported tokens of those calls
   * @param millis wall time spent inside them
   */
  public record Reading(long calls, TokenUsage usage, long millis) {
    public static final Reading ZERO = new Reading(0, TokenUsage.ZERO, 0);

    /** What was counted between {@code earlier} and this reading. */
    public Reading since(Reading earlier) {
      return new Reading(calls - earlier.calls,
          new TokenUsage(usage.inputTokens() - earlier.usage.inputTokens(),
              usage.outputTokens() - earlier.usage.outputTokens()),
          millis - earlier.millis);
    }

    public Reading plus(Reading other) {
      return new Reading(calls + other.calls, usage.plus(other.usage), millis + other.millis);
    }
  }
}
