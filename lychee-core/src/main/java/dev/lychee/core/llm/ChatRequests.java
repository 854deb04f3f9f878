package dev.lychee.core.llm;

import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import java.util.List;

/** Builds the two-message (system + user) requests every Lychee prompt uses. */
public final class ChatRequests {
  private ChatRequests() {}

  /** A system message and one user message with the given sampling settings. */
  public static ChatRequest systemAndUser(String system, String user, double temperature, int maxTokens,
      boolean jsonMode) {
    return new ChatRequest(List.of(ChatMessage.system(system), ChatMessage.user(user)), temperature,
        maxTokens, jsonMode);
  }

  /**
   * The follow-up request for a repair retry: the original conversation, the model's faulty answer
   * as an assistant message, then a short user instruction to resend valid JSON only.
   */
  public static ChatRequest repair(ChatRequest original, String faultyAnswer, String instruction) {
    List<ChatMessage> messages = new java.util.ArrayList<>(original.messages());
    messages.add(ChatMessage.assistant(faultyAnswer == null ? "" : faultyAnswer));
    messages.add(ChatMessage.user(instruction));
    return new ChatRequest(messages, original.temperature(), original.maxTokens(), original.jsonMode());
  }
}
