package dev.lychee.spring.ai;

import java.util.Map;
import org.springframework.ai.chat.memory.ChatMemory;

/**
 * Maps the context of a {@code ChatClient} call (or of a RAG {@code Query}) to a Lychee namespace
 * and session. The standard key {@link ChatMemory#CONVERSATION_ID} names the conversation; {@link
 * #USER_ID} names the user. Must be deterministic, so that two users never share a namespace.
 */
@FunctionalInterface
public interface ConversationScopeResolver {

  /** The advisor-context key that names the user: {@code .advisors(a -> a.param(USER_ID, "alice"))}. */
  String USER_ID = "lychee_user_id";

  /**
   * The scope of one call.
   *
   * @param context the advisor context (or the RAG query context)
   * @throws IllegalArgumentException when the context does not say whose memory to use
   */
  ConversationScope resolve(Map<String, Object> context);

  /**
   * The default: the namespace is the {@link #USER_ID} when given, else the conversation id; the
   * session is the conversation id ({@link ChatMemory#DEFAULT_CONVERSATION_ID} when none is given).
   * A call that names neither a user nor a conversation is refused, rather than mixing everyone's
   * memory in one default namespace.
   */
  static ConversationScopeResolver byUserThenConversation() {
    return context -> {
      String conversation = text(context.get(ChatMemory.CONVERSATION_ID));
      String user = text(context.get(USER_ID));
      if (user == null && conversation == null) {
        throw new IllegalArgumentException("the call names no user and no conversation: add "
            + ".advisors(a -> a.param(ChatMemory.CONVERSATION_ID, id)) or the " + USER_ID + " parameter");
      }
      return new ConversationScope(user != null ? user : conversation,
          conversation != null ? conversation : ChatMemory.DEFAULT_CONVERSATION_ID);
    };
  }

  private static String text(Object o) {
    return o == null || o.toString().isBlank() ? null : o.toString();
  }
}
