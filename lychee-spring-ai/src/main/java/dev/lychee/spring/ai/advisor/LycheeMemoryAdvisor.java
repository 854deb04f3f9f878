package dev.lychee.spring.ai.advisor;

import dev.lychee.api.LycheeException;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.spring.ai.ConversationScope;
import dev.lychee.spring.ai.ConversationScopeResolver;
import dev.lychee.spring.ai.EvidenceText;
import dev.lychee.core.read.QuestionText;
import java.time.Clock;
import java.time.LocalDateTime;
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
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

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
 * answer, both dated by the builder's {@link Builder#clock(Clock) clock}) to the conversation's
 * session. The append returns once the raw turns are committed; encoding the segment is Lychee's
 * ingest pipeline's business (background encoding when it is configured so). A failing recall or append never fails the chat call: it is logged and reported
 * to the {@link AdvisorListener}; so is an append that stored the turns but whose later steps
 * failed (stage {@value #INGEST_STAGE}: for example the embedding model refused the turns, so
 * vector search cannot find them until {@code Lychee.encodePending} runs).
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
  /** The {@link AdvisorListener#failed} stage of an append whose turns were stored but whose later steps failed. */
  public static final String INGEST_STAGE = "ingest";

  private final Lychee lychee;
  private final ConversationScopeResolver resolver;
  private final int maxResults;
  private final int tokenBudget;
  private final String template;
  private final int order;
  private final AdvisorListener listener;
  private final Clock clock;
  private final Scheduler scheduler;

  private LycheeMemoryAdvisor(Builder b) {
    this.lychee = b.lychee;
    this.resolver = b.resolver;
    this.maxResults = b.maxResults;
    this.tokenBudget = b.tokenBudget;
    this.template = b.template;
    this.order = b.order;
    this.listener = b.listener;
    this.clock = b.clock;
    this.scheduler = b.scheduler;
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
      Question question = new Question(scope.namespace(), QuestionText.of(text), maxResults, null, tokenBudget);
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
    // dated, so that the records say when it was said ("- [date]" lines, relative dates resolved)
    LocalDateTime now = LocalDateTime.now(clock);
    List<Turn> turns = new ArrayList<>(2);
    turns.add(Turn.user(null, said).withTime(now));
    String answer = answerText(response.chatResponse());
    if (answer != null && !answer.isBlank()) {
      turns.add(Turn.assistant(answer).withTime(now));
    }
    IngestResult result;
    try {
      result = lychee.append(scope.namespace(), scope.session(), turns);
    } catch (RuntimeException e) {
      LOG.warn("could not remember an exchange of session '{}': {}", scope.session(), e.toString());
      listener.failed(scope, "append", e);
      return response;
    }
    listener.appended(scope, result.turnsStored());
    if (!result.ok()) {
      // the turns are committed, but a step after that failed (their embedding, segmenting, a
      // synchronous encoding): only returned by Lychee, so say it here; kinds carry no turn text
      String what = "the exchange of session '" + scope.session() + "' is stored, but " + result.failures().size()
          + " step(s) after storing it failed (Lychee.encodePending repairs them): " + result.failuresByKind();
      LOG.warn(what);
      listener.failed(scope, INGEST_STAGE, new LycheeException(what));
    }
    return response;
  }

  private static String answerText(ChatResponse r) {
    if (r == null || r.getResult() == null || r.getResult().getOutput() == null) {
      return null;
    }
    return r.getResult().getOutput().getText();
  }

  /**
   * Streams are remembered once, after the last chunk, as one answer. Recall and the append block
   * (embeddings, store commits, perhaps an LLM planner call), so both run on the {@link
   * #getScheduler() scheduler}, as Spring AI's {@code BaseAdvisor} runs {@code before}: never on
   * the subscribing thread nor on the one that emits the chunks, which in a reactive application is
   * an event loop that every other stream shares.
   */
  @Override
  public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
    return Mono.just(request).publishOn(scheduler).map(r -> before(r, chain))
        .flatMapMany(advised -> new ChatClientMessageAggregator().aggregateChatClientResponse(
            // the chunks reach the aggregator, and so after(), on the scheduler's thread
            chain.nextStream(advised).publishOn(scheduler), response -> after(response, chain)));
  }

  /** Where a stream's recall and append run (default {@link BaseAdvisor#DEFAULT_SCHEDULER}). */
  @Override
  public Scheduler getScheduler() {
    return scheduler;
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
    private Clock clock = Clock.systemDefaultZone();
    private Scheduler scheduler = BaseAdvisor.DEFAULT_SCHEDULER;

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

    /** Hears recalls, appends and failures (default: none). */
    public Builder listener(AdvisorListener l) {
      this.listener = Objects.requireNonNull(l, "listener");
      return this;
    }

    /** The clock that dates the remembered turns (default: the system clock, in its time zone). */
    public Builder clock(Clock c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /**
     * Where a streaming call's recall and append run (default {@link
     * BaseAdvisor#DEFAULT_SCHEDULER}, Reactor's bounded elastic scheduler): a scheduler meant for
     * blocking work, since both block.
     */
    public Builder scheduler(Scheduler s) {
      this.scheduler = Objects.requireNonNull(s, "scheduler");
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
