package dev.lychee.spring.ai.advisor;

import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.spring.ai.ConversationScope;
import dev.lychee.spring.ai.ConversationScopeResolver;
import dev.lychee.spring.ai.EvidenceText;
import dev.lychee.spring.ai.RecallText;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClientMessageAggregator;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.Advisor;
import org.springframework.ai.chat.client.advisor.api.AdvisorChain;
import org.springframework.ai.chat.client.advisor.api.BaseAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import reactor.core.publisher.Flux;

/**
 * A {@code ChatClient} advisor that gives the model the user's long-term memory and remembers every
 * exchange.
 *
 * <p><b>Before</b> the call it recalls evidence for the user message from the namespace the {@link
 * ConversationScopeResolver} picks (by default the {@link ConversationScopeResolver#USER_ID}
 * parameter, else the standard {@code ChatMemory.CONVERSATION_ID}), and appends it to the
 * <b>system message</b> as one block: the {@link Builder#template(String) template} with {@code
 * {memory}} replaced by one line per item ({@code - [date] text}). A prompt without a system
 * message gets one. Nothing is added when nothing is recalled. The user message is left as the user
 * wrote it.
 *
 * <p><b>After</b> the call it appends the exchange (the user message as written, the assistant's
 * answer) to the conversation's session. The append returns once the raw turns are committed;
 * encoding the segment is Lychee's ingest pipeline's business (background encoding when it is
 * configured so). A failing recall or append never fails the chat call: it is logged and reported
 * to the {@link AdvisorListener}.
 */
public final class LycheeMemoryAdvisor implements BaseAdvisor {
  /** The default memory block; {@code {memory}} is replaced by the recalled lines. */
  public static final String DEFAULT_TEMPLATE = """

      Long-term memory: notes from earlier conversations with this user, most relevant first. \
      Use them when they bear on the request; they may be incomplete or out of date.
      {memory}""";

  private static final Logger LOG = LoggerFactory.getLogger(LycheeMemoryAdvisor.class);
  private static final String SCOPE_KEY = "lychee_scope";
  private static final String USER_TEXT_KEY = "lychee_user_text";

  private final Lychee lychee;
  private final ConversationScopeResolver resolver;
  private final int maxResults;
  private final int tokenBudget;
  private final String template;
  private final int order;
  private final AdvisorListener listener;

  private LycheeMemoryAdvisor(Builder b) {
    this.lychee = b.lychee;
    this.resolver = b.resolver;
    this.maxResults = b.maxResults;
    this.tokenBudget = b.tokenBudget;
    this.template = b.template;
    this.order = b.order;
    this.listener = b.listener;
  }

  public static Builder builder(Lychee lychee) {
    return new Builder(lychee);
  }

  @Override
  public ChatClientRequest before(ChatClientRequest request, AdvisorChain chain) {
    ConversationScope scope = resolver.resolve(request.context());
    UserMessage user = request.prompt().getUserMessage();
    String text = user == null ? null : user.getText();
    if (text == null || text.isBlank()) {
      return request;
    }
    ChatClientRequest.Builder out = request.mutate().context(SCOPE_KEY, scope).context(USER_TEXT_KEY, text);
    String block = memoryBlock(scope, text);
    if (!block.isEmpty()) {
      out.prompt(request.prompt().augmentSystemMessage(sys -> new SystemMessage(
          (sys == null || sys.getText() == null ? "" : sys.getText()) + block)));
    }
    return out.build();
  }

  private String memoryBlock(ConversationScope scope, String text) {
    long start = System.nanoTime();
    try {
      Question question = new Question(scope.namespace(), RecallText.of(text), maxResults, null, tokenBudget);
      Recall recall = lychee.recall(question);
      listener.recalled(scope, recall.evidence().size(), System.nanoTime() - start);
      return recall.evidence().isEmpty() ? "" : template.replace("{memory}", EvidenceText.lines(recall.evidence()));
    } catch (RuntimeException e) {
      LOG.warn("recall for namespace '{}' failed, answering without memory: {}", scope.namespace(), e.toString());
      listener.failed(scope, "recall", e);
      return "";
    }
  }

  @Override
  public ChatClientResponse after(ChatClientResponse response, AdvisorChain chain) {
    Object scopeValue = response.context().get(SCOPE_KEY);
    Object userText = response.context().get(USER_TEXT_KEY);
    if (!(scopeValue instanceof ConversationScope scope) || !(userText instanceof String said)) {
      return response;
    }
    List<Turn> turns = new ArrayList<>(2);
    turns.add(Turn.user(null, said));
    String answer = answerText(response.chatResponse());
    if (answer != null && !answer.isBlank()) {
      turns.add(Turn.assistant(answer));
    }
    try {
      int stored = lychee.append(scope.namespace(), scope.session(), turns).turnsStored();
      listener.appended(scope, stored);
    } catch (RuntimeException e) {
      LOG.warn("could not remember an exchange of session '{}': {}", scope.session(), e.toString());
      listener.failed(scope, "append", e);
    }
    return response;
  }

  private static String answerText(ChatResponse r) {
    if (r == null || r.getResult() == null || r.getResult().getOutput() == null) {
      return null;
    }
    return r.getResult().getOutput().getText();
  }

  /** Streams are remembered once, after the last chunk, as one answer. */
  @Override
  public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
    ChatClientRequest advised = before(request, chain);
    return new ChatClientMessageAggregator().aggregateChatClientResponse(
        chain.nextStream(advised), response -> after(response, chain));
  }

  @Override
  public int getOrder() {
    return order;
  }

  @Override
  public String getName() {
    return "LycheeMemoryAdvisor";
  }

  /** Configures a {@link LycheeMemoryAdvisor}. */
  public static final class Builder {
    private final Lychee lychee;
    private ConversationScopeResolver resolver = ConversationScopeResolver.byUserThenConversation();
    private int maxResults = 8;
    private int tokenBudget = Question.NO_TOKEN_BUDGET;
    private String template = DEFAULT_TEMPLATE;
    private int order = Advisor.DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER;
    private AdvisorListener listener = AdvisorListener.NONE;

    private Builder(Lychee lychee) {
      this.lychee = Objects.requireNonNull(lychee, "lychee");
    }

    public Builder resolver(ConversationScopeResolver r) {
      this.resolver = Objects.requireNonNull(r, "resolver");
      return this;
    }

    /** How many evidence items go into the prompt (default 8, at least 1). */
    public Builder maxResults(int k) {
      this.maxResults = k;
      return this;
    }

    /**
     * The most tokens the recalled evidence may take in the system message, so that memory cannot
     * crowd out the rest of the context window (default {@link Question#NO_TOKEN_BUDGET}: no budget,
     * at most {@link #maxResults(int)} items). With a budget, {@code maxResults} is the least search
     * depth and the number of items is whatever fits; the template's own text is not counted. See
     * {@link Question}.
     *
     * @param tokens in [{@link Question#MIN_TOKEN_BUDGET}, {@link Question#MAX_TOKEN_BUDGET}], or
     *     {@link Question#NO_TOKEN_BUDGET} for none; checked by {@link #build()}
     * @return this builder
     */
    public Builder tokenBudget(int tokens) {
      this.tokenBudget = tokens;
      return this;
    }

    /** The block appended to the system message; must contain {@code {memory}}. */
    public Builder template(String t) {
      this.template = t;
      return this;
    }

    /** The advisor order (default: Spring AI's chat-memory order). */
    public Builder order(int o) {
      this.order = o;
      return this;
    }

    public Builder listener(AdvisorListener l) {
      this.listener = Objects.requireNonNull(l, "listener");
      return this;
    }

    public LycheeMemoryAdvisor build() {
      if (maxResults < 1) {
        throw new IllegalArgumentException("maxResults must be >= 1: " + maxResults);
      }
      // fail when the advisor is configured, not on the first chat call (where a failing recall is only logged)
      Question.checkTokenBudget(tokenBudget, "tokenBudget");
      if (template == null || !template.contains("{memory}")) {
        throw new IllegalArgumentException("the memory template must contain the placeholder {memory}");
      }
      return new LycheeMemoryAdvisor(this);
    }
  }
}
