package dev.lychee.core.plan;

import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.QueryPlanner;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The LLM planner: one chat call per question, JSON out (§4.1). The reply is cleaned by
 * {@link PlanParser}; the tokens the call used are recorded in the plan. When the call fails or the
 * reply holds no JSON object, the fallback planner plans instead (by default the one-route plan
 * of the question itself).
 */
public final class LlmPlanner implements QueryPlanner {
  private final ChatModel chat;
  private final QueryPlanner fallback;

  /** A planner that falls back to {@link RecallPlan#singleRoute}. */
  public LlmPlanner(ChatModel chat) {
    this(chat, q -> RecallPlan.singleRoute(q.text()));
  }

  /** A planner that falls back to another planner (for example the rule-based one). */
  public LlmPlanner(ChatModel chat, QueryPlanner fallback) {
    this.chat = Objects.requireNonNull(chat, "chat");
    this.fallback = Objects.requireNonNull(fallback, "fallback");
  }

  @Override
  public RecallPlan plan(Question question) {
    LocalDateTime basis = question.askedAt() != null ? question.askedAt() : LocalDateTime.now();
    ChatRequest request = ChatRequest.of(List.of(
        ChatMessage.system(PlannerPrompt.SYSTEM + PlannerPrompt.timeBasis(basis)),
        ChatMessage.user(PlannerPrompt.user(question.text()))), true);
    ChatResult result;
    try {
      result = chat.chat(request);
    } catch (RuntimeException e) {
      return fallback.plan(question);
    }
    Optional<RecallPlan> plan = PlanParser.parse(result.text(), question.text(), result.usage());
    if (plan.isPresent()) {
      return plan.get();
    }
    RecallPlan fb = fallback.plan(question);
    // the failed call still cost tokens
    return new RecallPlan(fb.type(), fb.reason(), fb.routes(), fb.temporalFilter(), fb.usage().plus(result.usage()));
  }
}
