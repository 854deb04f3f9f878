package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.TextField;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lexical search looks each term up in the index's segments once per reader version, for every
 * query and both fields ({@link SharedTermStates}, round eighteen), and scores exactly as with a
 * fresh look-up per query.
 */
class LuceneSharedTermStatesTest {
  private static final String NS = "ns";

  @TempDir Path dir;

  @Test
  void aRecallsVariantsOverBothFieldsLookEachTermUpOncePerReaderVersion() throws Exception {
    Analyzer analyzer = new EnglishAnalyzer();
    AtomicInteger lookups = new AtomicInteger();
    SharedTermStates counted = new SharedTermStates(SharedTermStates.MAX_TERMS, (s, t) -> {
      lookups.incrementAndGet();
      return SharedTermStates.LUCENE.build(s, t);
    });
    try (LuceneIndex index = new LuceneIndex(dir, analyzer, TestConfigs.FAST)) {
      Fixtures.textSegments(index, NS, 0);
      LuceneTextSearch search = new LuceneTextSearch(index, new ReaderCache(0), analyzer, 32, counted);

      search.search(NS, TextField.TURNS, Fixtures.VARIANTS, 10);
      search.search(NS, TextField.RECORDS, Fixtures.VARIANTS, 10);

      // when, did, nadia, go, choir, rehears, puppi, garden, hose (the namespace and kind filter
      // is read per index segment since round nineteen, ScopeFilter, not looked up here)
      assertThat(lookups.get()).isEqualTo(9);
      // the next recall on the same reader looks nothing up again
      search.search(NS, TextField.TURNS, List.of("choir puppy", "Nadia"), 10);
      assertThat(lookups.get()).isEqualTo(9);

      // a write makes a new reader version: its segments are looked up afresh
      Fixtures.textSegments(index, NS, 100);
      search.search(NS, TextField.TURNS, List.of("choir puppy"), 10);
      assertThat(lookups.get()).isEqualTo(9 + 2);
    }
  }

  @Test
  void sharedLookUpsScoreBitForBitAsAFreshLookUpPerQuery() throws Exception {
    Analyzer analyzer = new EnglishAnalyzer();
    try (LuceneIndex index = new LuceneIndex(dir, analyzer, TestConfigs.FAST)) {
      LuceneTextSearch shared = new LuceneTextSearch(index, new ReaderCache(0), analyzer, 32);
      LuceneTextSearch fresh = new LuceneTextSearch(index, new ReaderCache(0), analyzer, 32,
          new SharedTermStates(0, SharedTermStates.LUCENE));
      for (int round = 0; round < 3; round++) {
        // several segments, records rewritten (deleted documents count in BM25 until merged away)
        Fixtures.textSegments(index, NS, round * 100);
        for (TextField field : TextField.values()) {
          List<List<ScoredId>> a = shared.search(NS, field, Fixtures.VARIANTS, 20);
          List<List<ScoredId>> b = fresh.search(NS, field, Fixtures.VARIANTS, 20);
          assertThat(a).isEqualTo(b);
          assertThat(a.get(1)).isNotEmpty();
          for (int i = 0; i < Fixtures.VARIANTS.size(); i++) {
            assertThat(shared.search(NS, field, Fixtures.VARIANTS.get(i), 20)).isEqualTo(b.get(i));
          }
        }
      }
      // a query with no searchable term answers empty, beside one that has hits
      assertThat(shared.search(NS, TextField.TURNS, List.of("the and of", "choir"), 5))
          .satisfies(l -> assertThat(l.get(0)).isEmpty(), l -> assertThat(l.get(1)).isNotEmpty());
    }
  }
}
