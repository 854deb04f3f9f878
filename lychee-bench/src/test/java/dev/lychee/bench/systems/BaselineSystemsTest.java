package dev.lychee.bench.systems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.Turn;
import dev.lychee.api.TurnRef;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class BaselineSystemsTest {
  private static final List<EvalSession> SESSIONS = List.of(
      new EvalSession("D1", LocalDateTime.of(2023, 5, 8, 13, 56), List.of(
          Turn.user("Alice", "Alice: I adopted a beagle puppy called Pepper.").withIndex(0),
          Turn.user("Bob", "Bob: My job keeps me busy with spreadsheets.").withIndex(1))),
      new EvalSession("D2", LocalDateTime.of(2023, 6, 27, 10, 37), List.of(
          Turn.user("Bob", "Bob: I bought a red bicycle and ride along the river.").withIndex(0),
          Turn.user("Alice", "Alice: Pottery class is fun, I made two bowls.").withIndex(1))));

  @Test
  void bm25FindsTheTurnSharingTheQuestionsWords() {
    try (Bm25System bm25 = new Bm25System()) {
      bm25.ingest("ns", SESSIONS);
      List<EvidenceItem> items = bm25.recall("ns", "Who rides a bicycle by the river?", 10);
      assertThat(items.get(0).turns()).containsExactly(TurnRef.of("D2", 0));
      assertThat(items.get(0).text()).startsWith("Bob: I bought a red bicycle");
      assertThat(items.get(0).overheadTokens()).isEqualTo(EvidenceItem.BASELINE_OVERHEAD_TOKENS);
      // Only turns sharing a term match at all.
      assertThat(items).allSatisfy(i -> assertThat(i.turns()).hasSize(1));
      assertThat(bm25.recall("ns", "?!", 10)).isEmpty();
      bm25.forget("ns");
      assertThatThrownBy(() -> bm25.recall("ns", "bicycle", 1)).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void namespacesAreIsolated() {
    try (Bm25System bm25 = new Bm25System()) {
      bm25.ingest("a", SESSIONS.subList(0, 1));
      bm25.ingest("b", SESSIONS.subList(1, 2));
      assertThat(bm25.recall("a", "red bicycle river", 10)).isEmpty();
      assertThat(bm25.recall("b", "red bicycle river", 10)).hasSize(1);
    }
  }

  @Test
  void denseRanksEveryTurnBySimilarity() {
    DenseSystem dense = new DenseSystem(new HashingEmbedder());
    dense.ingest("ns", SESSIONS);
    List<EvidenceItem> items = dense.recall("ns", "pottery class bowls", 3);
    assertThat(items).hasSize(3);
    assertThat(items.get(0).turns()).containsExactly(TurnRef.of("D2", 1));
    assertThat(dense.recall("ns", "pottery", 10)).hasSize(4);
  }

  @Test
  void hybridFusesBothRankings() {
    try (HybridSystem hybrid = new HybridSystem(new HashingEmbedder())) {
      hybrid.ingest("ns", SESSIONS);
      List<EvidenceItem> items = hybrid.recall("ns", "red bicycle river", 4);
      assertThat(items).hasSize(4);
      assertThat(items.get(0).turns()).containsExactly(TurnRef.of("D2", 0));
      assertThat(items.stream().flatMap(i -> i.turns().stream()).distinct().count()).isEqualTo(4);
    }
  }

  @Test
  void cachingEmbedderReturnsTheSameVectorsAsItsDelegate() {
    HashingEmbedder raw = new HashingEmbedder();
    CachingEmbedder cached = new CachingEmbedder(raw);
    List<String> texts = List.of("a b c", "d e", "a b c");
    List<float[]> first = cached.embedDocuments(texts);
    List<float[]> second = cached.embedDocuments(texts);
    for (int i = 0; i < texts.size(); i++) {
      assertThat(first.get(i)).containsExactly(raw.embedDocuments(List.of(texts.get(i))).get(0));
      assertThat(second.get(i)).containsExactly(first.get(i));
    }
    first.get(0)[0] = 42f; // callers may not corrupt the cache
    assertThat(cached.embedDocuments(List.of("a b c")).get(0)[0]).isNotEqualTo(42f);
    assertThat(cached.embedQuery("q")).containsExactly(raw.embedQuery("q"));
  }

  @Test
  void catalogKnowsTheBaselinesAndRejectsUnknownNames() {
    SystemCatalog catalog = new SystemCatalog(HashingEmbedder::new);
    assertThat(catalog.create(List.of("bm25", "dense", "hybrid"))).extracting(EvalSystem::name)
        .containsExactly("bm25", "dense", "hybrid");
    assertThatThrownBy(() -> catalog.create("nope")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bm25");
  }
}
