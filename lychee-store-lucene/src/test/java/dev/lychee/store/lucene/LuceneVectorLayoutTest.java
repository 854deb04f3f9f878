package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.vector.Vectors;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vector index's two layouts (round twenty-five): vectors of an index at most {@code
 * exactSearchMaxVectors} large go to the flat field, which no segment or merge builds a graph of;
 * above it to the graph field; every search reads both, indexes of the earlier layout (all in the
 * graph field) are read as they are, and a replay of the write-ahead log puts each vector where
 * the live write did. Real indexes on disk throughout.
 */
class LuceneVectorLayoutTest {
  @TempDir Path dir;

  private static final int DIM = 8;
  private static final String NS = "ns";

  private static LuceneStoreConfig bound(int max) {
    return TestConfigs.FAST.toBuilder().exactSearchMaxVectors(max).build();
  }

  @Test
  void belowTheBoundNoSegmentNorMergeWritesAGraph() throws IOException {
    Path graphless = dir.resolve("default");
    Path graphs = dir.resolve("always");
    writeManySegments(graphless, TestConfigs.FAST);
    writeManySegments(graphs, TestConfigs.FAST.toBuilder().alwaysBuildGraphs(true).build());

    Layout flat = layout(graphless);
    assertThat(flat.mergedSegments()).as("merges ran over the flushed segments").isPositive();
    assertThat(flat.graphFiles()).as("HNSW graph files (.vex) in any segment").isEmpty();
    assertThat(flat.formats()).containsOnlyKeys(VectorFields.flatField(DIM))
        .containsValue(Set.of(LycheeFlatVectorsFormat.NAME));
    // the same writes with graphs always: the check above would see them
    Layout always = layout(graphs);
    assertThat(always.graphFiles()).isNotEmpty();
    assertThat(always.formats()).containsOnlyKeys(VectorFields.graphField(DIM))
        .containsValue(Set.of(LycheeHnswVectorsFormat.NAME));
  }

  /** Forty writes, each flushed as a segment of its own by a read, then the merges they start. */
  private static void writeManySegments(Path path, LuceneStoreConfig config) {
    Random rnd = new Random(5);
    try (LuceneVectorIndex index = new LuceneVectorIndex(path, config)) {
      for (int i = 0; i < 40; i++) {
        index.upsert(NS, i % 2 == 0 ? VectorIndex.RECORDS : VectorIndex.TURNS, random(rnd, 5, "w" + i + "-"));
        assertThat(index.size(NS, VectorIndex.RECORDS)).isPositive();
      }
      assertThat(index.awaitQuiet(Duration.ofSeconds(30))).isTrue();
    }
  }

  @Test
  void anIndexCrossingTheBoundSplitsItsVectorsAndEverySearchReadsBothParts() {
    Random rnd = new Random(11);
    Map<String, float[]> all = new LinkedHashMap<>();
    Path path = dir.resolve("crossing");
    try (LuceneVectorIndex index = new LuceneVectorIndex(path, bound(50))) {
      for (int batch = 0; batch < 12; batch++) {
        Map<String, float[]> vectors = random(rnd, 10, "b" + batch + "-");
        // raw turns take the deferred path, the other batches the logged one
        index.upsert(NS, VectorIndex.TURNS, vectors);
        all.putAll(vectors);
      }
      // 5 batches of 10 fit the bound of 50, the 7 after them do not
      assertThat(fieldCount(index, VectorFields.flatField(DIM))).isEqualTo(50);
      assertThat(fieldCount(index, VectorFields.graphField(DIM))).isEqualTo(70);
      assertThat(flatIds(index)).isEqualTo(ids(all, 0, 50));

      // above the bound: the graph part (70 vectors, fewer than the 100 candidates) and the flat part
      for (int q = 0; q < 10; q++) {
        float[] query = random(rnd, 1, "q").get("q0");
        assertSameHits(index.search(NS, VectorIndex.TURNS, query, 10, null), bruteForce(all, query, 10, null));
        Predicate<String> odd = id -> id.hashCode() % 2 != 0;
        assertSameHits(index.search(NS, VectorIndex.TURNS, query, 7, odd), bruteForce(all, query, 7, odd));
      }
      // an upsert of a flat vector once above the bound moves it to the graph field
      index.upsert(NS, VectorIndex.TURNS, Map.of("b0-0", all.get("b0-1")));
      all.put("b0-0", all.get("b0-1"));
      assertThat(flatIds(index)).doesNotContain("b0-0").hasSize(49);
      assertThat(index.size(NS, VectorIndex.TURNS)).isEqualTo(120);
    }
    // the same index read with a bound above its size: exact scans over both fields, from the
    // in-memory copy and from the files
    for (long cache : new long[] {256L << 20, 0}) {
      try (LuceneVectorIndex index = new LuceneVectorIndex(path,
          bound(1000).toBuilder().vectorCacheMaxBytes(cache).build())) {
        for (int q = 0; q < 10; q++) {
          float[] query = random(rnd, 1, "q").get("q0");
          assertThat(index.search(NS, VectorIndex.TURNS, query, 15, null)).isEqualTo(bruteForce(all, query, 15, null));
          Predicate<String> few = id -> id.endsWith("-3");
          assertThat(index.search(NS, VectorIndex.TURNS, query, 5, few)).isEqualTo(bruteForce(all, query, 5, few));
        }
      }
    }
  }

  @Test
  void graphSearchesOfALargeIndexMergeTheGraphHitsWithTheExactBestOfTheFlatPart() {
    Random rnd = new Random(23);
    Map<String, float[]> flat = random(rnd, 40, "f");
    Map<String, float[]> graph = random(rnd, 400, "g");
    Map<String, float[]> all = new LinkedHashMap<>(flat);
    all.putAll(graph);
    // few candidates, so the graph part is searched through its graph, not scanned by Lucene
    LuceneStoreConfig config = bound(40).toBuilder().minCandidates(5).build();
    try (LuceneVectorIndex index = new LuceneVectorIndex(dir.resolve("large"), config)) {
      index.upsert(NS, VectorIndex.RECORDS, flat);
      index.upsertAll(NS, Map.of(VectorIndex.RECORDS, graph));
      assertThat(flatIds(index)).isEqualTo(flat.keySet());
      // every flat vector is its own best hit: the flat part is scanned exactly
      for (Map.Entry<String, float[]> e : flat.entrySet()) {
        List<ScoredId> hits = index.search(NS, VectorIndex.RECORDS, e.getValue(), 3, null);
        assertThat(hits.get(0).id()).isEqualTo(e.getKey());
        assertThat(hits).hasSize(3).isSortedAccordingTo(ExactVectorScan.BEST_FIRST);
      }
      int found = 0;
      for (Map.Entry<String, float[]> e : new ArrayList<>(graph.entrySet()).subList(0, 40)) {
        List<ScoredId> hits = index.search(NS, VectorIndex.RECORDS, e.getValue(), 5, null);
        assertThat(hits).hasSize(5).isSortedAccordingTo(ExactVectorScan.BEST_FIRST)
            .allSatisfy(h -> assertThat(h.score()).isCloseTo(Vectors.dot(all.get(h.id()), e.getValue()), within(1e-5)));
        found += hits.get(0).id().equals(e.getKey()) ? 1 : 0;
        // a filter that passes the flat part only: its exact best, whatever the graph returns
        Predicate<String> flatOnly = id -> id.startsWith("f");
        assertSameHits(index.search(NS, VectorIndex.RECORDS, e.getValue(), 4, flatOnly),
            bruteForce(all, e.getValue(), 4, flatOnly));
        // a filter passing one graph vector in 100: widening cannot cover it, the exact fall-back must
        Predicate<String> rare = id -> id.startsWith("g") && Integer.parseInt(id.substring(1)) % 100 == 7;
        assertSameHits(index.search(NS, VectorIndex.RECORDS, e.getValue(), 4, rare),
            bruteForce(all, e.getValue(), 4, rare));
      }
      assertThat(found).as("graph vectors found as their own best hit, of 40").isGreaterThanOrEqualTo(36);
    }
  }

  /**
   * {@code searchAll} walks an index's flat part once for all its queries (round twenty-six): each
   * query's hits are those it gets alone, above the bound (flat part and graph) and below it with no
   * in-memory copy (files only), with and without a filter.
   */
  @Test
  void severalQueriesInOneCallGetWhatEachGetsAlone() {
    Random rnd = new Random(41);
    Map<String, float[]> flat = random(rnd, 40, "f");
    Map<String, float[]> graph = random(rnd, 200, "g");
    List<float[]> queries = new ArrayList<>(random(rnd, 6, "q").values());
    Predicate<String> some = id -> id.hashCode() % 3 != 0;
    LuceneStoreConfig above = bound(40).toBuilder().minCandidates(5).build();
    LuceneStoreConfig filesOnly = bound(1000).toBuilder().vectorCacheMaxBytes(0).build();
    Path path = dir.resolve("variants");
    for (LuceneStoreConfig config : List.of(above, filesOnly)) {
      try (LuceneVectorIndex index = new LuceneVectorIndex(path, config)) {
        if (config == above) {
          index.upsert(NS, VectorIndex.RECORDS, flat);
          index.upsertAll(NS, Map.of(VectorIndex.RECORDS, graph));
          assertThat(fieldCount(index, VectorFields.graphField(DIM))).isEqualTo(200);
        }
        for (Predicate<String> filter : Arrays.<Predicate<String>>asList(null, some)) {
          List<List<ScoredId>> together = index.searchAll(NS, VectorIndex.RECORDS, queries, 7, filter);
          assertThat(together).hasSize(queries.size());
          for (int i = 0; i < queries.size(); i++) {
            assertThat(together.get(i)).hasSize(7)
                .isEqualTo(index.search(NS, VectorIndex.RECORDS, queries.get(i), 7, filter));
          }
          assertThat(together.get(0)).isNotEqualTo(together.get(1));
        }
      }
    }
  }

  @Test
  void anIndexOfTheEarlierLayoutIsReadSearchedAndWrittenOnWithNoMigration() throws IOException {
    Random rnd = new Random(31);
    Map<String, float[]> old = random(rnd, 60, "o");
    Path path = dir.resolve("earlier");
    // what the vector index wrote before round twenty-five: every vector in the HNSW field
    KnnVectorsFormat hnsw = new LycheeHnswVectorsFormat();
    IndexWriterConfig iwc = new IndexWriterConfig(new KeywordAnalyzer()).setCodec(new Lucene912Codec() {
      @Override
      public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return hnsw;
      }
    });
    try (Directory d = FSDirectory.open(path); IndexWriter w = new IndexWriter(d, iwc)) {
      for (Map.Entry<String, float[]> e : old.entrySet()) {
        Document doc = VectorFields.vector(NS, VectorIndex.RECORDS, e.getKey(), e.getValue(), true);
        w.updateDocument(VectorFields.uid(NS, VectorIndex.RECORDS, e.getKey()), doc);
      }
      w.commit();
    }
    Map<String, float[]> all = new LinkedHashMap<>(old);
    try (LuceneVectorIndex index = new LuceneVectorIndex(path, bound(100))) {
      assertThat(index.size(NS, VectorIndex.RECORDS)).isEqualTo(60);
      float[] query = random(rnd, 1, "q").get("q0");
      assertThat(index.search(NS, VectorIndex.RECORDS, query, 10, null)).isEqualTo(bruteForce(all, query, 10, null));
      // new vectors and a replaced old one go to the flat field (60 + 21 <= 100)
      Map<String, float[]> added = random(rnd, 20, "n");
      added.put("o3", added.get("n0"));
      index.upsert(NS, VectorIndex.RECORDS, added);
      all.putAll(added);
      assertThat(flatIds(index)).isEqualTo(added.keySet());
      assertThat(fieldCount(index, VectorFields.graphField(DIM))).isEqualTo(59);
      index.remove(NS, VectorIndex.RECORDS, List.of("o5", "n1"));
      all.remove("o5");
      all.remove("n1");
      for (int q = 0; q < 5; q++) {
        float[] another = random(rnd, 1, "q").get("q0");
        assertThat(index.search(NS, VectorIndex.RECORDS, another, 12, null))
            .isEqualTo(bruteForce(all, another, 12, null));
      }
    }
    // read with a bound below its size: the old graph part through its graph, the new part flat
    try (LuceneVectorIndex index = new LuceneVectorIndex(path, bound(30))) {
      float[] query = old.get("o9");
      List<ScoredId> hits = index.search(NS, VectorIndex.RECORDS, query, 10, null);
      assertSameHits(hits, bruteForce(all, query, 10, null));
      assertThat(index.search(NS, VectorIndex.RECORDS, all.get("n2"), 1, null).get(0).id()).isEqualTo("n2");
    }
  }

  @Test
  void aReplayAfterACrashPutsEachVectorInTheFieldTheLiveWriteDid() throws IOException {
    LuceneStoreConfig logged = bound(50).toBuilder().deferredCommit(Duration.ofHours(1)).build();
    Random rnd = new Random(47);
    Path live = dir.resolve("live");
    Path crashed = dir.resolve("crashed");
    Set<String> liveFlat;
    Map<String, Set<String>> liveFlatByKind = new TreeMap<>();
    String nodes = VectorIndex.nodes(dev.lychee.api.NodeKind.ENTITY);
    try (LuceneVectorIndex index = new LuceneVectorIndex(live, logged)) {
      // records: 30 flat, 20 flat (exactly the bound), then 10 above it; nodes: 45 flat then 10 above
      index.upsert(NS, VectorIndex.RECORDS, random(rnd, 30, "a"));
      index.upsertAll(NS, Map.of(VectorIndex.RECORDS, random(rnd, 20, "b"), nodes, random(rnd, 45, "m")));
      index.upsertAll(NS, Map.of(VectorIndex.RECORDS, random(rnd, 10, "c"), nodes, random(rnd, 10, "p")));
      liveFlat = flatIds(index);
      assertThat(liveFlat).hasSize(30 + 20 + 45);
      assertThat(fieldCount(index, VectorFields.graphField(DIM))).isEqualTo(20);
      DiskCopy.asIfCrashed(live, crashed);
    }
    assertThat(committedDocs(crashed)).as("nothing committed: all in the log").isZero();
    try (LuceneVectorIndex index = new LuceneVectorIndex(crashed, logged)) {
      assertThat(index.size(NS, VectorIndex.RECORDS)).isEqualTo(60);
      assertThat(index.size(NS, nodes)).isEqualTo(55);
      assertThat(flatIds(index)).isEqualTo(liveFlat);
      // and a write after the replay follows the same rule: above the bound, to the graph
      index.upsert(NS, VectorIndex.RECORDS, random(rnd, 1, "d"));
      assertThat(flatIds(index)).isEqualTo(liveFlat);
    }
  }

  @Test
  void aNearestNeighbourQueryOnTheFlatFieldAnswersExactlyThoughNoSearchOfOursAsksIt() {
    Random rnd = new Random(53);
    Map<String, float[]> vectors = random(rnd, 80, "x");
    try (LuceneVectorIndex index = new LuceneVectorIndex(dir.resolve("knn"), TestConfigs.FAST)) {
      index.upsert(NS, VectorIndex.RECORDS, vectors);
      float[] query = random(rnd, 1, "q").get("q0");
      List<String> hits = index.index().read(searcher -> {
        TopDocs td = searcher.search(new KnnFloatVectorQuery(VectorFields.flatField(DIM), query, 6), 6);
        List<String> ids = new ArrayList<>();
        for (ScoreDoc sd : td.scoreDocs) {
          ids.add(searcher.storedFields().document(sd.doc).get(VectorFields.ID));
        }
        return ids;
      });
      assertThat(hits).isEqualTo(bruteForce(vectors, query, 6, null).stream().map(ScoredId::id).toList());
    }
  }

  // --- helpers

  /**
   * The same ids in the same order and the same scores up to float rounding: a graph hit's score
   * is mapped back from Lucene's {@code (1 + dot) / 2}, an exact one is the dot product itself.
   */
  private static void assertSameHits(List<ScoredId> actual, List<ScoredId> expected) {
    assertThat(actual).extracting(ScoredId::id).containsExactlyElementsOf(expected.stream().map(ScoredId::id).toList());
    for (int i = 0; i < actual.size(); i++) {
      assertThat(actual.get(i).score()).isCloseTo(expected.get(i).score(), within(1e-5));
    }
  }

  /** The per-field vectors formats and graph files of every segment of a closed index. */
  private record Layout(Map<String, Set<String>> formats, List<String> graphFiles, int mergedSegments) {}

  private static Layout layout(Path path) throws IOException {
    Map<String, Set<String>> formats = new TreeMap<>();
    List<String> graphFiles = new ArrayList<>();
    int merged = 0;
    try (Directory d = FSDirectory.open(path); DirectoryReader reader = DirectoryReader.open(d)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        for (FieldInfo fi : leaf.reader().getFieldInfos()) {
          if (fi.hasVectorValues()) {
            formats.computeIfAbsent(fi.name, k -> new HashSet<>())
                .add(fi.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY));
          }
        }
        SegmentInfo si = ((SegmentReader) leaf.reader()).getSegmentInfo().info;
        merged += "merge".equals(si.getDiagnostics().get("source")) ? 1 : 0;
        List<String> files = new ArrayList<>();
        if (si.getUseCompoundFile()) {
          try (Directory cfs = si.getCodec().compoundFormat().getCompoundReader(d, si, IOContext.READONCE)) {
            files.addAll(Arrays.asList(cfs.listAll()));
          }
        } else {
          files.addAll(si.files());
        }
        // Lucene99HnswVectorsFormat's graph file; the flat vectors are .vec and .vemf
        files.stream().filter(f -> f.endsWith(".vex")).forEach(graphFiles::add);
      }
    }
    return new Layout(formats, graphFiles, merged);
  }

  private static int committedDocs(Path path) throws IOException {
    try (Directory d = FSDirectory.open(path); DirectoryReader reader = DirectoryReader.open(d)) {
      return reader.numDocs();
    }
  }

  private static int fieldCount(LuceneVectorIndex index, String field) {
    return index.index().read(s -> s.count(new FieldExistsQuery(field)));
  }

  /** The ids whose vectors are in the flat field. */
  private static Set<String> flatIds(LuceneVectorIndex index) {
    return index.index().read(s -> ids(s, VectorFields.flatField(DIM)));
  }

  private static Set<String> ids(IndexSearcher s, String field) throws IOException {
    Set<String> out = new HashSet<>();
    TopDocs td = s.search(new FieldExistsQuery(field), Integer.MAX_VALUE - 1);
    for (ScoreDoc sd : td.scoreDocs) {
      out.add(s.storedFields().document(sd.doc).get(VectorFields.ID));
    }
    return out;
  }

  private static Set<String> ids(Map<String, float[]> vectors, int from, int to) {
    return new HashSet<>(new ArrayList<>(vectors.keySet()).subList(from, to));
  }

  /** The exact answer, with the arithmetic of the index's exact scans. */
  private static List<ScoredId> bruteForce(Map<String, float[]> vectors, float[] query, int k, Predicate<String> filter) {
    float[] q = UnitVectors.normalizedOrZero(query);
    List<ScoredId> all = new ArrayList<>();
    vectors.forEach((id, v) -> {
      if (filter == null || filter.test(id)) {
        all.add(new ScoredId(id, Vectors.dot(q, UnitVectors.normalized(v, id), 0)));
      }
    });
    all.sort(ExactVectorScan.BEST_FIRST);
    return List.copyOf(all.subList(0, Math.min(k, all.size())));
  }

  private static Map<String, float[]> random(Random rnd, int count, String prefix) {
    return LuceneVectorIndexFocusedTest.random(rnd, count, DIM, prefix);
  }
}
