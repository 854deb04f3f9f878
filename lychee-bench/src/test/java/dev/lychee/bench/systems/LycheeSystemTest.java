package dev.lychee.bench.systems;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Turn;
import dev.lychee.api.TurnRef;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class LycheeSystemTest {
  private static final List<EvalSession> SESSIONS = List.of(
      new EvalSession("D1", LocalDateTime.of(2023, 5, 8, 13, 56), List.of(
          Turn.user("Alice", "Alice: I adopted a beagle puppy called Pepper last week.").withIndex(0),
          Turn.user("Bob", "Bob: My job keeps me busy with spreadsheets.").withIndex(1))),
      new EvalSession("D2", LocalDateTime.of(2023, 6, 27, 10, 37), List.of(
          Turn.user("Bob", "Bob: I bought a red bicycle and ride along the river.").withIndex(0),
          Turn.user("Alice", "Alice: Pottery class is fun, I made two bowls.").withIndex(1))));

  @Test
  void recallsEvidenceThatCitesTheIngestedTurnsAndIsSerialisedForTheAnswerPrompt() {
    try (LycheeSystem lychee = new LycheeSystem("lychee", new HashingEmbedder(), LycheeConfig.defaults(), 5)) {
      lychee.ingest("ns", SESSIONS);
      assertThat(lychee.ingestErrors()).isEmpty();
      List<EvidenceItem> items = lychee.recall("ns", "What bicycle did Bob buy?", 100);
      assertThat(items).isNotEmpty().hasSizeLessThanOrEqualTo(5); // capped at the run's largest k
      assertThat(items.stream().flatMap(i -> i.turns().stream()).toList()).contains(TurnRef.of("D2", 0))
          .allSatisfy(t -> assertThat(t.session()).isIn("D1", "D2"));
      assertThat(items).allSatisfy(i -> {
        assertThat(i.text()).startsWith("[");
        assertThat(i.overheadTokens()).isZero();
      });
      lychee.forget("ns");
      assertThat(lychee.recall("ns", "What bicycle did Bob buy?", 5)).isEmpty();
    }
  }

  @Test
  void ablationsAreRecognisedByTheCatalog() {
    SystemCatalog catalog = new SystemCatalog(HashingEmbedder::new);
    for (String name : List.of("lychee", "lychee-record-only", "lychee-no-planner", "lychee-no-fusion", "lychee-no-raw")) {
      try (EvalSystem s = catalog.create(name)) {
        assertThat(s.name()).isEqualTo(name);
      }
    }
  }
}
