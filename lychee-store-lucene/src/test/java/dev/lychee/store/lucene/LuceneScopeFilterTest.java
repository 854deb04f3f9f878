package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.TextField;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FilterWeight;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lexical search's namespace and kind filter is read once per index segment ({@link
 * ScopeFilter}, round nineteen): it matches and scores what the two term filters did, keeps one set
 * per segment, and skips a segment with no document of the scope before any query term is opened.
 */
class LuceneScopeFilterTest {
  private static final String NS = "ns";
  private static final String OTHER = "other";

  @TempDir Path dir;

  @Test
  void filteredSearchesMatchAndScoreAsTheTwoTermFilters() throws Exception {
    Analyzer analyzer = new EnglishAnalyzer();
    try (LuceneIndex index = new LuceneIndex(dir, analyzer, TestConfigs.FAST)) {
      LuceneTextSearch search = new LuceneTextSearch(index, new ReaderCache(0), analyzer, 32);
      for (int round = 0; round < 3; round++) {
        // several segments, two namespaces, records rewritten (deleted documents count in BM25)
        Fixtures.textSegments(index, NS, round * 100);
        Fixtures.textSegments(index, OTHER, round * 100 + 50);
        for (String ns : List.of(NS, OTHER)) {
          for (TextField field : TextField.values()) {
            String kind = field == TextField.TURNS ? StoreFields.KIND_TURN : StoreFields.KIND_RECORD;
            List<List<ScoredId>> hits = search.search(ns, field, Fixtures.VARIANTS, 20);
            for (int i = 0; i < Fixtures.VARIANTS.size(); i++) {
              assertThat(hits.get(i)).isEqualTo(termFiltered(index, analyzer, ns, kind, Fixtures.VARIANTS.get(i), 20));
            }
            assertThat(hits.get(1)).isNotEmpty();
          }
        }
      }
    }
  }

  @Test
  void eachSegmentsSetIsReadOnceAndDroppedWhenTheSegmentIsMergedAway() throws Exception {
    Analyzer analyzer = new EnglishAnalyzer();
    try (LuceneIndex index = new LuceneIndex(dir, analyzer, TestConfigs.FAST)) {
      LuceneTextSearch search = new LuceneTextSearch(index, new ReaderCache(0), analyzer, 32);
      Fixtures.textSegments(index, NS, 0);
      int segments = index.read(s -> s.getIndexReader().leaves().size());
      assertThat(segments).isGreaterThan(1);

      search.search(NS, TextField.TURNS, Fixtures.VARIANTS, 10);
      assertThat(search.scopeSets()).isEqualTo(segments);
      search.search(NS, TextField.TURNS, List.of("choir puppy"), 10);
      assertThat(search.scopeSets()).isEqualTo(segments);
      search.search(NS, TextField.RECORDS, Fixtures.VARIANTS, 10);
      assertThat(search.scopeSets()).isEqualTo(2 * segments);

      index.write((w, s) -> {
        w.forceMerge(1);
        return null;
      });
      List<ScoredId> merged = search.search(NS, TextField.TURNS, "choir puppy", 10);
      assertThat(merged).isNotEmpty();
      // the merged-away segments' sets went with their cores; the merged segment has its own
      assertThat(search.scopeSets()).isEqualTo(1);
    }
  }

  @Test
  void keptSetsStayWithinTheBoundAndSearchesStayExact() throws Exception {
    Analyzer analyzer = new EnglishAnalyzer();
    try (LuceneIndex index = new LuceneIndex(dir, analyzer, TestConfigs.FAST)) {
      List<String> namespaces = List.of("a", "b", "c", "d", "e");
      for (int i = 0; i < namespaces.size(); i++) {
        writeTurns(index, namespaces.get(i), i * 10);
      }
      int segments = index.read(s -> s.getIndexReader().leaves().size());
      ScopeFilter scopes = new ScopeFilter(3);
      for (int pass = 0; pass < 2; pass++) {
        for (String ns : namespaces) {
          int hits = index.read(s -> s.search(LexicalQuery.build(Set.of("choir"), StoreFields.TEXT,
              scopes.query(ns, StoreFields.KIND_TURN), TermQuery::new).orElseThrow(), 10).scoreDocs.length);
          // each namespace's own turn only, whichever sets were dropped before
          assertThat(hits).as("namespace %s, pass %d", ns, pass).isEqualTo(1);
          assertThat(scopes.size()).isLessThanOrEqualTo(3);
        }
      }
      assertThat(segments).isEqualTo(namespaces.size());
      assertThatThrownBy(() -> new ScopeFilter(0)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("maxSets must be at least 1");
    }
  }

  @Test
  void aSegmentWithoutTheScopeIsSkippedBeforeItsTermsAreOpened() throws Exception {
    Analyzer analyzer = new EnglishAnalyzer();
    try (LuceneIndex index = new LuceneIndex(dir, analyzer, TestConfigs.FAST)) {
      // one segment of another namespace's turns, then one of this namespace's
      writeTurns(index, OTHER, 0);
      writeTurns(index, NS, 10);
      ScopeFilter scopes = new ScopeFilter();
      AtomicInteger termLeaves = new AtomicInteger();
      int hits = index.read(s -> {
        assertThat(s.getIndexReader().leaves()).hasSize(2);
        Query q = LexicalQuery.build(Set.of("choir", "puppi"), StoreFields.TEXT,
            scopes.query(NS, StoreFields.KIND_TURN), t -> new LeafCounting(new TermQuery(t), termLeaves)).orElseThrow();
        return s.search(q, 10).scoreDocs.length;
      });
      assertThat(hits).isEqualTo(2);
      // two terms, asked for their scorers in this namespace's segment only
      assertThat(termLeaves.get()).isEqualTo(2);
    }
  }

  /** The hits of one query with the two term filters of {@link StoreFields#scope}, as before round nineteen. */
  private static List<ScoredId> termFiltered(LuceneIndex index, Analyzer analyzer, String ns, String kind,
      String text, int k) {
    Set<String> terms = LexicalQuery.terms(analyzer, StoreFields.TEXT, text, 32);
    return index.read(s -> {
      BooleanQuery.Builder should = new BooleanQuery.Builder();
      for (String t : terms) {
        should.add(new TermQuery(new Term(StoreFields.TEXT, t)), BooleanClause.Occur.SHOULD);
      }
      Query q = new BooleanQuery.Builder()
          .add(should.build(), BooleanClause.Occur.MUST)
          .add(StoreFields.scope(ns, kind).build(), BooleanClause.Occur.FILTER)
          .build();
      return Fixtures.ranked(s, q, k);
    });
  }

  /** One commit (one segment) of two turns of a namespace. */
  private static void writeTurns(LuceneIndex index, String ns, int base) {
    index.write((IndexWriter w, IndexSearcher s) -> {
      w.addDocument(StoreDocuments.turn(Fixtures.turn(ns, "s" + base, 0, "the choir sang"), base));
      w.addDocument(StoreDocuments.turn(Fixtures.turn(ns, "s" + base, 1, "a puppy barked"), base + 1));
      return null;
    });
  }


  /** A query that counts the segments its clause is asked for a scorer in. */
  private static final class LeafCounting extends Query {
    private final Query in;
    private final AtomicInteger leaves;

    LeafCounting(Query in, AtomicInteger leaves) {
      this.in = in;
      this.leaves = leaves;
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) throws IOException {
      return new FilterWeight(this, in.createWeight(searcher, scoreMode, boost)) {
        @Override
        public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
          leaves.incrementAndGet();
          return in.scorerSupplier(context);
        }

        @Override
        public boolean isCacheable(LeafReaderContext ctx) {
          return false;
        }
      };
    }

    @Override
    public void visit(QueryVisitor visitor) {
      in.visit(visitor);
    }

    @Override
    public String toString(String field) {
      return "counting(" + in.toString(field) + ")";
    }

    @Override
    public boolean equals(Object o) {
      return sameClassAs(o) && in.equals(((LeafCounting) o).in);
    }

    @Override
    public int hashCode() {
      return in.hashCode();
    }
  }
}
