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

  /** How much of a faulty answer a repair request echoes back. */
  public static final int MAX_ECHO_CHARS = 4_000;

  static String echo(String faultyAnswer) {
    if (faultyAnswer == null) {
      return "";
    }
    if (faultyAnswer.length() <= MAX_ECHO_CHARS) {
      return faultyAnswer;
    }
    int cut = MAX_ECHO_CHARS;
    if (Character.isHighSurrogate(faultyAnswer.charAt(cut - 1))) {
      cut--;
    }
    return faultyAnswer.substring(0, cut) + "\n[... " + (faultyAnswer.length() - cut) + " more characters not repeated]";
  }

  /**
   * The follow-up request for a repair retry: the original conversation, the model's faulty answer
   * as an assistant message (at most {@link #MAX_ECHO_CHARS} characters of it: the model needs to
   * see how its answer went wrong, not megabytes of it), then a short user instruction to resend
   * valid JSON only.
   */
  public static ChatRequest repair(ChatRequest original, String faultyAnswer, String instruction) {
    List<ChatMessage> messages = new java.util.ArrayList<>(original.messages());
    messages.add(ChatMessage.assistant(echo(faultyAnswer)));
    messages.add(ChatMessage.user(instruction));
    return new ChatRequest(messages, original.temperature(), original.maxTokens(), original.jsonMode());
  }
}
