package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.TextField;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInvertState;
import org.apache.lucene.index.FilterDirectoryReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search call's queries are scored together in one pass per index segment ({@link VariantPass},
 * round twenty): every hit, its rank and its score bits are those of Lucene's search of each query
 * alone; each distinct term's postings are opened once per segment for all the queries; and a query
 * whose sums could round differently in another order is left to Lucene.
 */
class LuceneVariantPassTest {
  private static final String NS = "ns";
  private static final String OTHER = "other";
  private static final String[] COMMON = {"choir", "puppy", "garden", "rehearsal", "Nadia", "Monday", "hose",
      "golden", "painting", "lake", "camping", "book"};

  @TempDir Path dir;

  @Test
  void everyQueryRanksAndScoresBitForBitAsLucenesSearchOfItAlone() throws Exception {
    Analyzer analyzer = new EnglishAnalyzer();
    Random random = new Random(20);
    try (LuceneIndex index = new LuceneIndex(dir, analyzer, TestConfigs.FAST)) {
      LuceneTextSearch search = new LuceneTextSearch(index, new ReaderCache(0), analyzer, 256);
      for (int round = 0; round < 4; round++) {
        // several segments, two namespaces, repeated texts (tied scores), records rewritten (deleted
        // documents count in BM25 until merged away)
        writeChat(index, NS, round, random);
        writeChat(index, OTHER, round, random);
        Fixtures.textSegments(index, NS, round * 100);
        for (int call = 0; call < 20; call++) {
          List<String> variants = variants(random);
          for (TextField field : TextField.values()) {
            for (int k : new int[] {1, 7, 30}) {
              List<List<ScoredId>> together = search.search(NS, field, variants, k);
              for (int i = 0; i < variants.size(); i++) {
                assertThat(bits(together.get(i)))
                    .as("round %d, %s, k %d, variant '%s'", round, field, k, variants.get(i))
                    .isEqualTo(bits(alone(index, analyzer, field, variants.get(i), k)));
              }
            }
          }
        }
      }
      assertThat(search.search(NS, TextField.TURNS, List.of("choir puppy", "choir"), 200).get(0)).hasSizeGreaterThan(30);
    }
  }

  @Test
  void eachDistinctTermsPostingsAreOpenedOncePerSegmentForAllTheQueries() throws Exception {
    Analyzer analyzer = new EnglishAnalyzer();
    try (LuceneIndex index = new LuceneIndex(dir, analyzer, TestConfigs.FAST)) {
      Fixtures.textSegments(index, NS, 0);
      List<Set<String>> queries = new ArrayList<>();
      for (String v : Fixtures.VARIANTS) {
        queries.add(LexicalQuery.terms(analyzer, StoreFields.TEXT, v, 32));
      }
      // when, did, nadia, go, choir, rehears, puppi, garden, hose
      int distinct = 9;
      index.read(s -> {
        // three commits: up to three segments, fewer when a merge ran in between
        int segments = s.getIndexReader().leaves().size();
        assertThat(segments).isPositive();
        ScopeFilter scopes = new ScopeFilter();
        Counts together = new Counts();
        IndexSearcher counted = new IndexSearcher(new Counting((DirectoryReader) s.getIndexReader(), together));
        SharedTermStates states = looked(counted, queries, together);
        ScoreDoc[][] tops = VariantPass.top(counted, StoreFields.TEXT, queries,
            leaf -> scopes.docs(leaf, NS, StoreFields.KIND_TURN), states, 10);
        assertThat(tops[1]).isNotEmpty();
        // one terms enum per segment, one postings enum per term the segment holds
        assertThat(together.termsEnums.get()).isEqualTo(segments);
        assertThat(together.postings.get()).isLessThanOrEqualTo(distinct * segments);

        Counts alone = new Counts();
        IndexSearcher each = new IndexSearcher(new Counting((DirectoryReader) s.getIndexReader(), alone));
        SharedTermStates eachStates = looked(each, queries, alone);
        for (Set<String> q : queries) {
          each.search(LexicalQuery.build(q, StoreFields.TEXT, scopes.query(NS, StoreFields.KIND_TURN),
              t -> eachStates.query(each, t)).orElseThrow(), 10);
        }
        // what a search of each query alone opens: a terms enum and postings per term, segment and query
        assertThat(alone.postings.get()).isGreaterThan(together.postings.get());
        assertThat(alone.termsEnums.get()).isGreaterThan(3 * together.termsEnums.get());
        return null;
      });
    }
  }

  @Test
  void aQueryWhoseSumCouldRoundInAnotherOrderIsLeftToLucene() throws Exception {
    Analyzer analyzer = new EnglishAnalyzer();
    try (ByteBuffersDirectory ram = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(ram, new IndexWriterConfig(analyzer).setSimilarity(new Skewed()))) {
        w.addDocument(StoreDocuments.turn(Fixtures.turn(NS, "s", 0, "huge tiny"), 0));
        w.addDocument(StoreDocuments.turn(Fixtures.turn(NS, "s", 1, "huge plain"), 1));
      }
      try (DirectoryReader reader = DirectoryReader.open(ram)) {
        IndexSearcher s = new IndexSearcher(reader);
        s.setSimilarity(new Skewed());
        ScopeFilter scopes = new ScopeFilter();
        List<Set<String>> queries = List.of(Set.of("huge", "tini"), Set.of("huge", "plain"), Set.of("tini"));
        ScoreDoc[][] tops = VariantPass.top(s, StoreFields.TEXT, queries,
            leaf -> scopes.docs(leaf, NS, StoreFields.KIND_TURN), new SharedTermStates(0, SharedTermStates.LUCENE), 5);
        // 2^20 beside 2^-40: a double cannot hold every partial sum of such terms exactly
        assertThat(tops[0]).isNull();
        // every hit of the query, in no order: the caller orders them
        assertThat(tops[1]).extracting(d -> d.doc).containsExactlyInAnyOrder(1, 0);
        assertThat(tops[2]).extracting(d -> d.score).containsExactly(0x1p-40f);
      }
    }
  }

  /** Term states of every query term looked up on {@code searcher} beforehand, the counts then reset. */
  private static SharedTermStates looked(IndexSearcher searcher, List<Set<String>> queries, Counts counts)
      throws IOException {
    SharedTermStates states = new SharedTermStates();
    for (Set<String> q : queries) {
      for (String t : q) {
        states.states(searcher, new org.apache.lucene.index.Term(StoreFields.TEXT, t));
      }
    }
    counts.termsEnums.set(0);
    counts.postings.set(0);
    return states;
  }

  /** Lucene's search of one query alone, as the store ran it before round twenty, ties by id. */
  private static List<ScoredId> alone(LuceneIndex index, Analyzer analyzer, TextField field, String text, int k) {
    String kind = field == TextField.TURNS ? StoreFields.KIND_TURN : StoreFields.KIND_RECORD;
    Set<String> terms = LexicalQuery.terms(analyzer, StoreFields.TEXT, text, 256);
    if (terms.isEmpty()) {
      return List.of();
    }
    ScopeFilter scopes = new ScopeFilter();
    return index.read(s -> {
      Query q = LexicalQuery.build(terms, StoreFields.TEXT, scopes.query(NS, kind), t -> new org.apache.lucene.search.TermQuery(t))
          .orElseThrow();
      return Fixtures.ranked(s, q, k);
    });
  }

  /** Ids with their scores' bits, so that a float compares exactly. */
  private static List<String> bits(List<ScoredId> hits) {
    return hits.stream().map(h -> h.id() + "=" + Float.floatToIntBits((float) h.score())).toList();
  }

  /** One commit of a namespace's chat turns and records, some texts repeated, some records rewritten. */
  private static void writeChat(LuceneIndex index, String ns, int round, Random random) {
    index.write((IndexWriter w, IndexSearcher s) -> {
      String session = "c" + round;
      for (int i = 0; i < 60; i++) {
        String text = i % 10 == 9 ? "choir puppy garden" : sentence(random);
        w.addDocument(StoreDocuments.turn(Fixtures.turn(ns, session, i, text), round * 1000L + i));
      }
      for (int i = 0; i < 25; i++) {
        var r = Fixtures.withId(Fixtures.record(ns, session, sentence(random), 0), "r" + random.nextInt(40));
        w.updateDocument(StoreFields.uid(StoreFields.KIND_RECORD, ns, r.id()), StoreDocuments.record(r, round * 1000L + 100 + i));
      }
      return null;
    });
  }

  private static String sentence(Random random) {
    StringBuilder b = new StringBuilder();
    for (int w = 0, n = 2 + random.nextInt(12); w < n; w++) {
      // a Zipf-like pick: the first words in most texts, the last in few
      int pick = (int) (COMMON.length * Math.pow(random.nextDouble(), 2.5));
      b.append(random.nextInt(8) == 0 ? "w" + random.nextInt(50) : COMMON[pick]).append(' ');
    }
    return b.toString();
  }

  /** A route's variants: a question, its halves and a rewrite, sharing most of their words. */
  private static List<String> variants(Random random) {
    String question = "When did " + sentence(random) + "?";
    String[] words = question.split(" ");
    List<String> out = new ArrayList<>(new LinkedHashSet<>(List.of(question,
        String.join(" ", List.of(words).subList(0, words.length / 2 + 1)),
        String.join(" ", List.of(words).subList(words.length / 2, words.length)),
        sentence(random), "the and of")));
    return out;
  }

  /** Terms enums and postings enums opened through a reader. */
  private static final class Counts {
    final AtomicInteger termsEnums = new AtomicInteger();
    final AtomicInteger postings = new AtomicInteger();
  }

  /** A directory reader counting the terms enums and postings its segments open on the text field. */
  private static final class Counting extends FilterDirectoryReader {
    private final Counts counts;

    Counting(DirectoryReader in, Counts counts) throws IOException {
      super(in, new SubReaderWrapper() {
        @Override
        public LeafReader wrap(LeafReader reader) {
          return new CountingLeaf(reader, counts);
        }
      });
      this.counts = counts;
    }

    @Override
    protected DirectoryReader doWrapDirectoryReader(DirectoryReader in) throws IOException {
      return new Counting(in, counts);
    }

    @Override
    public IndexReader.CacheHelper getReaderCacheHelper() {
      return null;
    }
  }

  private static final class CountingLeaf extends FilterLeafReader {
    private final Counts counts;

    CountingLeaf(LeafReader in, Counts counts) {
      super(in);
      this.counts = counts;
    }

    @Override
    public Terms terms(String field) throws IOException {
      Terms terms = super.terms(field);
      if (terms == null || !field.equals(StoreFields.TEXT)) {
        return terms;
      }
      return new FilterTerms(terms) {
        @Override
        public TermsEnum iterator() throws IOException {
          counts.termsEnums.incrementAndGet();
          return new FilterTermsEnum(in.iterator()) {
            @Override
            public void seekExact(BytesRef term, org.apache.lucene.index.TermState state) throws IOException {
              in.seekExact(term, state);
            }

            @Override
            public PostingsEnum postings(PostingsEnum reuse, int flags) throws IOException {
              counts.postings.incrementAndGet();
              return in.postings(reuse, flags);
            }

            @Override
            public org.apache.lucene.index.ImpactsEnum impacts(int flags) throws IOException {
              counts.postings.incrementAndGet();
              return in.impacts(flags);
            }
          };
        }
      };
    }

    @Override
    public CacheHelper getCoreCacheHelper() {
      // no kept sets or copies for a test wrapper
      return null;
    }

    @Override
    public CacheHelper getReaderCacheHelper() {
      return null;
    }
  }

  /**
   * Scores "huge" 2^20 and "tini" (tiny, stemmed) 2^-40 wherever they occur, every other term 1;
   * norms as BM25's.
   */
  private static final class Skewed extends Similarity {
    private final BM25Similarity norms = new BM25Similarity();

    @Override
    public long computeNorm(FieldInvertState state) {
      return norms.computeNorm(state);
    }

    @Override
    public SimScorer scorer(float boost, CollectionStatistics collection, TermStatistics... terms) {
      String term = terms[0].term().utf8ToString();
      float score = term.equals("huge") ? 0x1p20f : term.equals("tini") ? 0x1p-40f : 1f;
      return new SimScorer() {
        @Override
        public float score(float freq, long norm) {
          return score;
        }
      };
    }
  }
}
