package dev.lychee.langchain4j.memory;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.Lychee;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.langchain4j.MemoryScope;
import dev.lychee.langchain4j.MemoryScopeResolver;
import java.time.Clock;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ChatMemoryStore} that keeps the framework's short window in a delegate store and feeds
 * every new user and assistant message to Lychee as a turn with an explicit index.
 *
 * <p>Use it under langchain4j's own window, for example {@code
 * MessageWindowChatMemory.builder().id(id).maxMessages(20).chatMemoryStore(store).build()}. Each
 * {@code updateMessages} compares the window with the session's stored tail (see {@link
 * TailAlignment}) and appends only the turns after the overlap, at the next free indices; so a
 * repeated call with the same window stores nothing, and a retry after a failure in the delegate
 * stores nothing twice. The turn is committed to Lychee before the delegate is updated: a message
 * can reach long-term memory without reaching the window, never the other way round. An append
 * whose turns were stored but whose later steps failed (the embedding model refused them, say) is
 * logged as one WARN line.
 *
 * <p>{@code deleteMessages} clears the window and forgets the Lychee session (its turns, and the
 * records and nodes only it supported).
 *
 * <p>With {@code AiServices} and a content retriever, build the service with {@code
 * storeRetrievedContentInChatMemory(false)}: otherwise the window holds the user message with the
 * recalled evidence pasted in, and that text would be remembered as if the user had said it.
 */
public final class LycheeChatMemoryStore implements ChatMemoryStore {
  private static final Logger LOG = LoggerFactory.getLogger(LycheeChatMemoryStore.class);

  private final Lychee lychee;
  private final ChatMemoryStore delegate;
  private final MemoryScopeResolver resolver;
  private final Clock clock;
  // striped, so that many users do not grow a lock table; one scope always maps to one stripe
  private final Object[] locks = new Object[64];

  private LycheeChatMemoryStore(Builder b) {
    this.lychee = b.lychee;
    this.delegate = b.delegate;
    this.resolver = b.resolver;
    this.clock = b.clock;
    for (int i = 0; i < locks.length; i++) {
      locks[i] = new Object();
    }
  }

  private Object lockOf(MemoryScope scope) {
    return locks[Math.floorMod(scope.hashCode(), locks.length)];
  }

  public static Builder builder(Lychee lychee) {
    return new Builder(lychee);
  }

  @Override
  public List<ChatMessage> getMessages(Object memoryId) {
    return delegate.getMessages(memoryId);
  }

  @Override
  public void updateMessages(Object memoryId, List<ChatMessage> messages) {
    Objects.requireNonNull(messages, "messages");
    MemoryScope scope = resolver.resolve(memoryId);
    synchronized (lockOf(scope)) {
      List<Turn> fresh = newTurns(scope, ChatTurns.of(messages));
      if (!fresh.isEmpty()) {
        IngestResult r = lychee.append(scope.namespace(), scope.session(), fresh);
        if (!r.ok()) {
          // the turns are committed, but a later step failed (their embedding, segmenting, a
          // synchronous encoding); Lychee only returns that, so it is said here, without turn text
          LOG.warn("{} new message(s) of session '{}' are stored, but {} step(s) after storing them failed "
              + "(Lychee.encodePending repairs them): {}", r.turnsStored(), scope.session(), r.failures().size(),
              r.failuresByKind());
        }
      }
      delegate.updateMessages(memoryId, messages);
    }
  }

  @Override
  public void deleteMessages(Object memoryId) {
    MemoryScope scope = resolver.resolve(memoryId);
    synchronized (lockOf(scope)) {
      delegate.deleteMessages(memoryId);
      lychee.forget(scope.namespace(), scope.session());
    }
  }

  private List<Turn> newTurns(MemoryScope scope, List<Turn> window) {
    if (window.isEmpty()) {
      return List.of();
    }
    RecordStore store = lychee.store();
    int next = store.nextTurnIndex(scope.namespace(), scope.session());
    List<RawTurn> tail = next == 0 ? List.of()
        : store.turns(scope.namespace(), scope.session(), Math.max(0, next - window.size()), next - 1);
    int known = TailAlignment.overlap(tail, window);
    LocalDateTime now = LocalDateTime.now(clock);
    List<Turn> out = new ArrayList<>();
    for (int i = known; i < window.size(); i++) {
      out.add(window.get(i).withIndex(next + out.size()).withTime(now));
    }
    return out;
  }

  /** Configures a {@link LycheeChatMemoryStore}. */
  public static final class Builder {
    private final Lychee lychee;
    private ChatMemoryStore delegate = new InMemoryChatMemoryStore();
    private MemoryScopeResolver resolver = MemoryScopeResolver.perMemoryId();
    private Clock clock = Clock.systemDefaultZone();

    private Builder(Lychee lychee) {
      this.lychee = Objects.requireNonNull(lychee, "lychee");
    }

    /** Where the short window lives (default: in memory). */
    public Builder delegate(ChatMemoryStore d) {
      this.delegate = Objects.requireNonNull(d, "delegate");
      return this;
    }

    /** Maps chat memory ids to namespace and session (default: one namespace per memory id). */
    public Builder resolver(MemoryScopeResolver r) {
      this.resolver = Objects.requireNonNull(r, "resolver");
      return this;
    }

    /** The clock that dates new turns (default: the system clock). */
    public Builder clock(Clock c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    public LycheeChatMemoryStore build() {
      return new LycheeChatMemoryStore(this);
    }
  }
}
