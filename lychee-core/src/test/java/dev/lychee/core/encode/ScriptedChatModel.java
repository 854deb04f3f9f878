package dev.lychee.core.encode;

import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.ChatModel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** A chat model for encoder tests: answers with queued texts and records every request. */
final class ScriptedChatModel implements ChatModel {
  private final Deque<Object> answers = new ArrayDeque<>();
  final List<ChatRequest> requests = new ArrayList<>();

  /** Queue a text answer; each call reports usage (100 + call number, 10). */
  ScriptedChatModel answer(String text) {
    answers.add(text);
    return this;
  }

  /** Queue a failure. */
  ScriptedChatModel fail(RuntimeException e) {
    answers.add(e);
    return this;
  }

  @Override
  public synchronized ChatResult chat(ChatRequest request) {
    requests.add(request);
    Object next = answers.poll();
    if (next == null) {
      throw new AssertionError("no scripted answer left for call " + requests.size());
    }
    if (next instanceof RuntimeException e) {
      throw e;
    }
    return new ChatResult((String) next, new TokenUsage(100 + requests.size(), 10), "scripted");
  }

  @Override
  public String modelId() {
    return "scripted";
  }
}
