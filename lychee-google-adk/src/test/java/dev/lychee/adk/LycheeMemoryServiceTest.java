package dev.lychee.adk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.adk.events.Event;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import com.google.adk.memory.MemoryEntry;
import dev.lychee.api.Question;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.core.testing.LongTalk;
import dev.lychee.core.testing.RefusingEmbedder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LycheeMemoryServiceTest {

  private static Event text(String author, String text) {
    return Event.builder().id(Event.generateEventId()).author(author).timestamp(1_714_557_600_000L)
        .content(Content.fromParts(Part.fromText(text))).build();
  }

  @Test
  void onlyFinishedTextEventsBecomeTurnsAndAGrowingSessionIsStoredOnce() {
    List<Event> events = new ArrayList<>(List.of(
        text("user", "Book a table for two."),
        Event.builder().id(Event.generateEventId()).author("planner").partial(true)
            .content(Content.fromParts(Part.fromText("Boo"))).build(),
        Event.builder().id(Event.generateEventId()).author("planner")
            .content(Content.fromParts(Part.builder().functionCall(FunctionCall.builder().name("book").build()).build())).build(),
        text("planner", "Booked for 8 pm.")));
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).build()) {
      LycheeMemoryService memory = new LycheeMemoryService(lychee);
      Session session = Session.builder("s-1").appName("diner").userId("ann").events(events).build();
      memory.addSessionToMemory(session).blockingAwait();
      events.add(text("user", "Thanks!"));
      memory.addSessionToMemory(Session.builder("s-1").appName("diner").userId("ann").events(events).build()).blockingAwait();

      List<RawTurn> turns = lychee.store().turns("diner/ann", "s-1");
      assertThat(turns).extracting(RawTurn::text).containsExactly("Book a table for two.", "Booked for 8 pm.", "Thanks!");
      assertThat(turns).extracting(RawTurn::role).containsExactly(Role.USER, Role.ASSISTANT, Role.USER);
      assertThat(turns.get(1).speaker()).isEqualTo("planner");
      assertThat(turns.get(0).time()).isEqualTo("2024-05-01T10:00");

      assertThat(memory.searchMemory("diner", "ann", "table booking").blockingGet().memories()).isNotEmpty();
      assertThat(memory.searchMemory("diner", "bob", "table booking").blockingGet().memories()).isEmpty();
      assertThat(memory.searchMemory("diner", "ann", " ").blockingGet().memories()).isEmpty();
      assertThatThrownBy(() -> memory.searchMemory("a/b", "ann", "x").blockingGet())
          .hasMessageContaining("ambiguous");
      assertThatThrownBy(() -> memory.searchMemory("diner", "", "x").blockingGet())
          .hasMessageContaining("user id");
    }
  }

  @Test
  void aTokenBudgetReachesRecallAndShrinksTheMemories() {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < LongTalk.SESSIONS; i++) {
      events.add(text("user", LongTalk.trip(i)));
      events.add(text("planner", LongTalk.REPLY));
    }
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder())
        .config(LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.OFFLINE).build()).build()) {
      new LycheeMemoryService(lychee).addSessionToMemory(
          Session.builder("s-1").appName("diner").userId("ann").events(events).build()).blockingAwait();
      String q = "What did my sister and I do in Lisbon?";
      List<MemoryEntry> unbounded = new LycheeMemoryService(lychee, AdkScopeResolver.perAppAndUser(), 10)
          .searchMemory("diner", "ann", q).blockingGet().memories();
      List<MemoryEntry> budgeted = new LycheeMemoryService(lychee, AdkScopeResolver.perAppAndUser(), 10,
          Question.MIN_TOKEN_BUDGET).searchMemory("diner", "ann", q).blockingGet().memories();
      assertThat(unbounded).isNotEmpty();
      assertThat(chars(budgeted)).isLessThan(chars(unbounded));
    }
  }

  private static int chars(List<MemoryEntry> entries) {
    return entries.stream().flatMap(m -> m.content().parts().orElse(List.of()).stream())
        .mapToInt(p -> p.text().orElse("").length()).sum();
  }

  /**
   * A session stored but not embedded (the embedding model refuses it) gives one WARN per
   * addSessionToMemory, naming the failure's kind and neither the refusal's secret-bearing cause
   * nor the events' words; the call itself completes.
   */
  @Test
  void aStoredSessionWhoseEmbeddingFailedIsLoggedOnce() {
    try (Lychee refusing = Lychee.builder().embedder(new RefusingEmbedder()).build();
         WarnLog warnings = WarnLog.of(LycheeMemoryService.class)) {
      Session session = Session.builder("s-1").appName("diner").userId("ann")
          .events(List.of(text("user", "Book a table for two."), text("planner", "Booked for 8 pm."))).build();
      new LycheeMemoryService(refusing).addSessionToMemory(session).blockingAwait();
      assertThat(refusing.store().turns("diner/ann", "s-1")).hasSize(2);
      assertThat(warnings.lines()).singleElement().asString().contains("session 's-1'")
          .contains(RefusingEmbedder.REFUSAL).doesNotContain(RefusingEmbedder.SECRET).doesNotContain("table");
    }
  }

  @Test
  void anOutOfRangeTokenBudgetFailsAtConstructionNamingTheRange() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).build()) {
      assertThatThrownBy(() -> new LycheeMemoryService(lychee, AdkScopeResolver.perAppAndUser(), 8,
          Question.MIN_TOKEN_BUDGET - 1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("tokenBudget must be between " + Question.MIN_TOKEN_BUDGET + " and "
              + Question.MAX_TOKEN_BUDGET);
    }
  }
}
