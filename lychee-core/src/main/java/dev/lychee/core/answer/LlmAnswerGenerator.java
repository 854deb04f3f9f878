package dev.lychee.core.answer;

import dev.lychee.api.Answer;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.AnswerGenerator;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.TokenCounter;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * Writes the answer with one chat call: the instructions and the time basis as the system
 * message, the serialised evidence (two blocks) and the question as the user message. Token usage
 * is the provider's; when it reports none, the prompt and reply are counted with the token counter.
 */
public final class LlmAnswerGenerator implements AnswerGenerator {
  /** What the answerer says when there is no evidence at all. */
  public static final String NOT_AVAILABLE = "The information is not available in memory.";

  private final ChatModel chat;
  private final TokenCounter tokens;
  private final EvidenceTokens evidenceTokens;

  public LlmAnswerGenerator(ChatModel chat, TokenCounter tokens) {
    this(chat, tokens, new EvidenceFormatter());
  }

  public LlmAnswerGenerator(ChatModel chat, TokenCounter tokens, EvidenceFormatter formatter) {
    this.chat = Objects.requireNonNull(chat, "chat");
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    // the evidence is serialised by the same object that sizes it to token budgets
    this.evidenceTokens = new EvidenceTokens(tokens, Objects.requireNonNull(formatter, "formatter"));
  }

  @Override
  public Answer answer(Question question, RecallPlan plan, List<Evidence> evidence) {
    if (evidence.isEmpty()) {
      return new Answer(NOT_AVAILABLE, evidence, plan, TokenUsage.ZERO);
    }
    LocalDateTime basis = question.askedAt() != null ? question.askedAt() : LocalDateTime.now();
    String system = AnswerPrompt.SYSTEM + AnswerPrompt.timeBasis(basis);
    String user = AnswerPrompt.user(evidenceTokens.serialise(evidence), question.text());
    ChatResult r = chat.chat(ChatRequest.of(List.of(ChatMessage.system(system), ChatMessage.user(user)), false));
    TokenUsage usage = r.usage().total() > 0 ? r.usage()
        : new TokenUsage(tokens.count(system) + tokens.count(user), tokens.count(r.text()));
    return new Answer(r.text().strip(), evidence, plan, usage);
  }
}
