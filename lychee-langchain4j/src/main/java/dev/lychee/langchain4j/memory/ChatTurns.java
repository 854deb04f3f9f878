package dev.lychee.langchain4j.memory;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.lychee.api.Role;
import dev.lychee.api.Turn;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Which langchain4j messages are conversation turns, and what Lychee stores of them. Only what the
 * user and the assistant said counts: system messages are instructions, tool requests and tool
 * results are machinery, and an image without text has nothing to remember.
 */
final class ChatTurns {
  private ChatTurns() {}

  /** The conversation turns of a window, in order, without indices. */
  static List<Turn> of(List<ChatMessage> messages) {
    List<Turn> out = new ArrayList<>();
    for (ChatMessage m : messages) {
      if (m instanceof UserMessage u) {
        String text = userText(u);
        if (!text.isBlank()) {
          out.add(new Turn(Role.USER, u.name(), text, -1, null));
        }
      } else if (m instanceof AiMessage a && a.text() != null && !a.text().isBlank()) {
        out.add(new Turn(Role.ASSISTANT, null, a.text(), -1, null));
      }
    }
    return out;
  }

  private static String userText(UserMessage u) {
    if (u.hasSingleText()) {
      return u.singleText();
    }
    return u.contents().stream()
        .filter(TextContent.class::isInstance)
        .map(c -> ((TextContent) c).text())
        .collect(Collectors.joining("\n"));
  }
}
