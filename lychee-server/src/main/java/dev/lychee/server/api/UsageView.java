package dev.lychee.server.api;

import dev.lychee.api.TokenUsage;

/** LLM tokens a call reported (zero offline). */
public record UsageView(long inputTokens, long outputTokens) {
  public static UsageView of(TokenUsage u) {
    return u == null ? new UsageView(0, 0) : new UsageView(u.inputTokens(), u.outputTokens());
  }
}
