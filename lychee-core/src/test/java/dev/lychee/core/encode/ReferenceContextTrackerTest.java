package dev.lychee.core.encode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Encoding;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.TurnRef;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ReferenceContextTrackerTest {

  private final EncodingConfig config = EncodingConfig.defaults();

  @Test
  void startsEmptyAndAccumulatesTheSession() {
    ReferenceContextTracker t = new ReferenceContextTracker(config);
    assertThat(t.current("ns", "s1")).isEqualTo(ReferenceContext.EMPTY);
    t.update("ns", "s1", encoding("  Speakers: A and B \n\n  Raf = Rafael  ", "r1", "r2"));
    t.update("ns", "s1", encoding("", "r3"));
    ReferenceContext c = t.current("ns", "s1");
    assertThat(c.note()).isEqualTo("Speakers: A and B\nRaf = Rafael"); // empty note keeps the previous one
    assertThat(c.recentRecords()).containsExactly("r1", "r2", "r3");
  }

  @Test
  void sameSessionOnly() {
    ReferenceContextTracker t = new ReferenceContextTracker(config);
    t.update("ns", "s1", encoding("note", "r1"));
    assertThat(t.current("ns", "s2").isEmpty()).isTrue();
    assertThat(t.current("other", "s1").isEmpty()).isTrue();
    t.reset("ns", "s1");
    assertThat(t.current("ns", "s1").isEmpty()).isTrue();
  }

  /**
   * Review C F7. Before: every session ever encoded kept its context until {@code forget}; now the
   * least recently used beyond {@code maxSessionContexts} is dropped, as a restart would drop it.
   */
  @Test
  void keepsTheMostRecentlyUsedSessionsOnly() {
    ReferenceContextTracker t = new ReferenceContextTracker(EncodingConfig.builder().maxSessionContexts(3).build());
    for (int i = 0; i < 3; i++) {
      t.update("ns", "s" + i, encoding("note " + i, "r" + i));
    }
    t.current("ns", "s0"); // s0 used again: s1 is now the least recently used
    t.update("ns", "s3", encoding("note 3", "r3"));
    assertThat(t.size()).isEqualTo(3);
    assertThat(t.current("ns", "s1").isEmpty()).isTrue();
    assertThat(t.current("ns", "s0").note()).isEqualTo("note 0");
    assertThat(t.current("ns", "s3").recentRecords()).containsExactly("r3");
    for (int i = 0; i < 10_000; i++) {
      t.update("ns", "many" + i, encoding("", "r"));
    }
    assertThat(t.size()).isEqualTo(3);
    assertThat(EncodingConfig.defaults().maxSessionContexts()).isEqualTo(1_000);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> EncodingConfig.builder().maxSessionContexts(0).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxSessionContexts");
  }

  @Test
  void keepsTheLastDistinctRecordsAndCutsTheNote() {
    ReferenceContextTracker t = new ReferenceContextTracker(config);
    String[] texts = IntStream.range(0, 20).mapToObj(i -> "record " + i).toArray(String[]::new);
    t.update("ns", "s", encoding("x".repeat(5000), texts));
    t.update("ns", "s", encoding("", "record 10"));
    ReferenceContext c = t.current("ns", "s");
    assertThat(c.note()).hasSize(1200);
    assertThat(c.recentRecords()).hasSize(12).endsWith("record 10").doesNotHaveDuplicates()
        .startsWith("record 8").doesNotContain("record 7");
  }

  @Test
  void renderedContextIsBoundedAndKeepsItsHead() {
    EncodingConfig small = EncodingConfig.builder().maxNoteChars(50).maxRecentRecords(3).maxReferenceChars(120).build();
    ReferenceContextTracker t = new ReferenceContextTracker(small);
    t.update("ns", "s", encoding("n".repeat(80), "a".repeat(40), "b".repeat(40), "c".repeat(40), "d".repeat(40)));
    String rendered = ReferenceContextTracker.render(t.current("ns", "s"), small);
    assertThat(rendered).hasSize(120).startsWith("Resolved references:\n" + "n".repeat(50))
        .contains("Recent records of this session:").doesNotContain("a".repeat(40));
    assertThat(ReferenceContextTracker.render(ReferenceContext.EMPTY, small)).isEmpty();
    String full = ReferenceContextTracker.render(t.current("ns", "s"), config);
    assertThat(full).contains("- " + "d".repeat(40)).hasSizeLessThanOrEqualTo(2400);
  }

  @Test
  void switchedOffMeansAlwaysEmpty() {
    ReferenceContextTracker t = new ReferenceContextTracker(EncodingConfig.builder().referenceContext(false).build());
    t.update("ns", "s", encoding("note", "r"));
    assertThat(t.current("ns", "s")).isEqualTo(ReferenceContext.EMPTY);
  }

  @Test
  void concurrentUpdatesLoseNothing() throws Exception {
    ReferenceContextTracker t = new ReferenceContextTracker(
        EncodingConfig.builder().maxRecentRecords(1000).build());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    for (int i = 0; i < 200; i++) {
      int n = i;
      pool.submit(() -> t.update("ns", "s", encoding("", "record " + n)));
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    assertThat(t.current("ns", "s").recentRecords()).hasSize(200);
  }

  static Encoding encoding(String note, String... texts) {
    List<MemoryRecord> records = java.util.Arrays.stream(texts).map(x -> new MemoryRecord(null, "ns",
        MemoryType.FACT, x, List.of(), List.of(), TemporalScope.NONE, List.of(TurnRef.of("s", 0)), "s", "", null, null))
        .toList();
    return new Encoding(records, note, TokenUsage.ZERO, 0, List.of());
  }
}
