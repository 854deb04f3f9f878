package dev.lychee.adk;

import com.google.adk.events.Event;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.MemoryEntry;
import com.google.adk.memory.SearchMemoryResponse;
import com.google.adk.sessions.Session;
import com.google.common.collect.ImmutableList;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.Role;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.core.ingest.IngestResult;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lychee as an ADK {@link BaseMemoryService}.
 *
 * <p>{@link #addSessionToMemory} appends the session's text events as turns (the {@code user}
 * author's as user turns, every agent's as assistant turns named after the agent) at explicit
 * indices, so adding the same session again, or again after it grew, stores each event once; then
 * it closes the session's open segment so that it is encoded. When the events were stored but a
 * later step failed (the embedding model refused them, say), one WARN line says so. {@link #searchMemory} recalls
 * evidence from the user's namespace only and returns one {@link MemoryEntry} per item, with the
 * date the source was said as its timestamp when known.
 */
public final class LycheeMemoryService implements BaseMemoryService {
  private static final Logger LOG = LoggerFactory.getLogger(LycheeMemoryService.class);
  private static final String USER_AUTHOR = "user";

  private final Lychee lychee;
  private final AdkScopeResolver resolver;
  private final int maxResults;
  private final int tokenBudget;

  /** No token budget: at most {@code maxResults} memories per search. */
  public LycheeMemoryService(Lychee lychee, AdkScopeResolver resolver, int maxResults) {
    this(lychee, resolver, maxResults, Question.NO_TOKEN_BUDGET);
  }

  /**
   * A memory service whose search results together take at most {@code tokenBudget} tokens, so that
   * memory cannot crowd out the rest of the agent's context window. With a budget, {@code
   * maxResults} is the least search depth and the number of memories is whatever fits; see {@link
   * Question}.
   *
   * @param lychee the memory to store into and recall from
   * @param resolver maps app and user to a namespace
   * @param maxResults memories per search without a budget, the least search depth with one (at least 1)
   * @param tokenBudget in [{@link Question#MIN_TOKEN_BUDGET}, {@link Question#MAX_TOKEN_BUDGET}], or
   *     {@link Question#NO_TOKEN_BUDGET} for none
   * @throws IllegalArgumentException if {@code maxResults} or {@code tokenBudget} is out of range
   */
  public LycheeMemoryService(Lychee lychee, AdkScopeResolver resolver, int maxResults, int tokenBudget) {
    this.lychee = Objects.requireNonNull(lychee, "lychee");
    this.resolver = Objects.requireNonNull(resolver, "resolver");
    if (maxResults < 1) {
      throw new IllegalArgumentException("maxResults must be >= 1: " + maxResults);
    }
    // fail when the service is built, not inside the agent's first memory search
    Question.checkTokenBudget(tokenBudget, "tokenBudget");
    this.maxResults = maxResults;
    this.tokenBudget = tokenBudget;
  }

  /** One namespace per app and user, 8 results per search. */
  public LycheeMemoryService(Lychee lychee) {
    this(lychee, AdkScopeResolver.perAppAndUser(), 8);
  }

  @Override
  public Completable addSessionToMemory(Session session) {
    return Completable.fromAction(() -> {
      String namespace = resolver.namespace(session.appName(), session.userId());
      List<Turn> turns = turns(session.events());
      if (!turns.isEmpty()) {
        IngestResult r = lychee.append(namespace, session.id(), turns).plus(lychee.flush(namespace, session.id()));
        if (!r.ok()) {
          // the events are committed, but a later step failed (their embedding, segmenting,
          // encoding); Lychee only returns that, so it is said here, without event text
          LOG.warn("session '{}' is stored ({} new event(s)), but {} step(s) after storing it failed "
              + "(Lychee.encodePending repairs them): {}", session.id(), r.turnsStored(), r.failures().size(),
              r.failuresByKind());
        }
      }
    });
  }

  /** The text events in order, each at its position among the session's text events. */
  static List<Turn> turns(List<Event> events) {
    List<Turn> out = new ArrayList<>();
    for (Event e : events) {
      if (e.partial().orElse(false)) {
        continue; // streaming chunks: the final event carries the whole text
      }
      String text = e.content().map(LycheeMemoryService::text).orElse("");
      if (text.isBlank()) {
        continue; // function calls and results, empty events
      }
      boolean user = USER_AUTHOR.equals(e.author());
      LocalDateTime time = e.timestamp() > 0
          ? LocalDateTime.ofInstant(Instant.ofEpochMilli(e.timestamp()), ZoneOffset.UTC) : null;
      out.add(new Turn(user ? Role.USER : Role.ASSISTANT, user ? null : e.author(), text, out.size(), time));
    }
    return out;
  }

  private static String text(Content c) {
    StringBuilder sb = new StringBuilder();
    for (Part p : c.parts().orElse(List.of())) {
      p.text().ifPresent(t -> sb.append(sb.length() == 0 ? "" : "\n").append(t));
    }
    return sb.toString();
  }

  @Override
  public Single<SearchMemoryResponse> searchMemory(String appName, String userId, String query) {
    return Single.fromCallable(() -> {
      if (query == null || query.isBlank()) {
        return SearchMemoryResponse.builder().setMemories(ImmutableList.of()).build();
      }
      String namespace = resolver.namespace(appName, userId);
      Question question = new Question(namespace, query, maxResults, null, tokenBudget);
      ImmutableList.Builder<MemoryEntry> memories = ImmutableList.builder();
      for (Evidence e : lychee.recall(question).evidence()) {
        MemoryEntry.Builder entry = MemoryEntry.builder()
            .content(Content.builder().role("user").parts(List.of(Part.fromText(e.text()))).build())
            .author(e.candidate().sourceRole().name().toLowerCase(java.util.Locale.ROOT));
        if (e.candidate().mentionedAt() != null) {
          entry.timestamp(e.candidate().mentionedAt().atZone(ZoneId.of("UTC")).toInstant());
        }
        memories.add(entry.build());
      }
      return SearchMemoryResponse.builder().setMemories(memories.build()).build();
    });
  }
}
