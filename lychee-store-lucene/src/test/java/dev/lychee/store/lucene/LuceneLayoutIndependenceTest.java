package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.MemoryRecord;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.score.TopScored;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lexical search's hits are a function of the index's live documents only (round twenty-two):
 * the same documents in an index flushed and rewritten many times, its deletes left in, and in one
 * written at once in another order and merged to one segment, give the same hits in the same order
 * with the same score bits; equal scores come in id order, whatever the document numbers.
 */
class LuceneLayoutIndependenceTest {
  private static final String NS = "ns";
  private static final String OTHER = "other";
  private static final String[] WORDS = {"choir", "puppy", "garden", "rehearsal", "Nadia", "Monday", "hose",
      "golden", "painting", "lake", "camping", "book", "sister", "trip"};
  private static final List<String> QUERIES = List.of("When did Nadia go to the choir rehearsal?",
      "choir rehearsal Nadia", "the puppy and the garden hose", "golden lake camping trip", "painting",
      "book sister Monday", "choir puppy garden");

  @TempDir Path churnedDir;
  @TempDir Path compactDir;

  @Test
  void theSameLiveDocumentsInTwoLayoutsGiveTheSameHitsOrderAndScores() throws Exception {
    Analyzer analyzer = new EnglishAnalyzer();
    Random random = new Random(22);
    try (LuceneIndex churned = new LuceneIndex(churnedDir, analyzer, TestConfigs.FAST);
        LuceneIndex compact = new LuceneIndex(compactDir, analyzer, TestConfigs.FAST)) {
      // the live documents of the end, by key, in the order the churned index last wrote them
      Map<String, Live> live = new LinkedHashMap<>();
      long seq = 0;
      for (int round = 0; round < 6; round++) {
        List<Live> batch = new ArrayList<>();
        for (String ns : List.of(NS, OTHER)) {
          for (int i = 0; i < 12; i++) {
            // every fourth turn the same text: equal scores
            String text = i % 4 == 3 ? "choir puppy garden" : sentence(random);
            batch.add(Live.turn(Fixtures.turn(ns, "s" + round, i, text), seq++));
          }
          for (int i = 0; i < 10; i++) {
            // the same ten records rewritten every round: their old versions are deleted documents
            String text = i % 5 == 4 ? "golden lake" : sentence(random);
            batch.add(Live.record(Fixtures.withId(Fixtures.record(ns, "s" + round, text, 0), "r" + i), seq++));
          }
        }
        write(churned, batch);
        batch.forEach(d -> live.put(d.key(), d));
      }
      List<Live> reversed = new ArrayList<>(live.values());
      Collections.reverse(reversed);
      write(compact, reversed);
      compact.write((w, s) -> {
        w.forceMerge(1);
        return null;
      });

      int[] churnedShape = churned.read(s -> new int[] {s.getIndexReader().leaves().size(),
          s.getIndexReader().numDeletedDocs(), s.getIndexReader().numDocs()});
      int[] compactShape = compact.read(s -> new int[] {s.getIndexReader().leaves().size(),
          s.getIndexReader().numDeletedDocs(), s.getIndexReader().numDocs()});
      assertThat(churnedShape[0]).as("segments of the churned index").isGreaterThan(1);
      assertThat(churnedShape[1]).as("deleted documents of the churned index").isPositive();
      assertThat(compactShape).containsExactly(1, 0, churnedShape[2]);

      LuceneTextSearch a = new LuceneTextSearch(churned, new ReaderCache(0), analyzer, 256);
      LuceneTextSearch b = new LuceneTextSearch(compact, new ReaderCache(0), analyzer, 256);
      for (String ns : List.of(NS, OTHER)) {
        for (TextField field : TextField.values()) {
          for (int k : new int[] {1, 2, 3, 5, 10, 40, 500}) {
            List<List<ScoredId>> together = a.search(ns, field, QUERIES, k);
            List<List<ScoredId>> other = b.search(ns, field, QUERIES, k);
            for (int q = 0; q < QUERIES.size(); q++) {
              String what = ns + ", " + field + ", k " + k + ", '" + QUERIES.get(q) + "'";
              assertThat(bits(together.get(q))).as(what).isEqualTo(bits(other.get(q)));
              // one query alone is the same search
              assertThat(bits(a.search(ns, field, QUERIES.get(q), k))).as(what).isEqualTo(bits(together.get(q)));
              assertThat(together.get(q)).as(what).isSortedAccordingTo(TopScored.BEST_FIRST);
            }
          }
        }
      }
      assertThat(a.search(NS, TextField.TURNS, "choir puppy garden", 500)).hasSizeGreaterThan(10);
    }
  }

  @Test
  void equalScoresComeInIdOrderAndTheCutKeepsTheSmallestIds() throws Exception {
    Analyzer analyzer = new EnglishAnalyzer();
    try (LuceneIndex index = new LuceneIndex(churnedDir, analyzer, TestConfigs.FAST)) {
      // one segment per write, the higher ids written first: document numbers run against the ids
      for (int i = 9; i >= 0; i--) {
        RawTurn t = Fixtures.turn(NS, "s", i, i % 3 == 0 ? "choir puppy" : "choir garden");
        write(index, List.of(Live.turn(t, i)));
      }
      LuceneTextSearch search = new LuceneTextSearch(index, new ReaderCache(0), analyzer, 64);
      for (String query : List.of("choir", "choir garden", "puppy garden")) {
        List<ScoredId> all = search.search(NS, TextField.TURNS, query, 10);
        assertThat(all).as(query).isSortedAccordingTo(TopScored.BEST_FIRST);
        // ties: at least one group of equal scores, which Lucene would rank by document number
        assertThat(all.stream().map(ScoredId::score).distinct().count()).as(query).isLessThan(all.size() - 1);
        for (int k = 1; k <= all.size(); k++) {
          // each cut keeps the best by score, then the smallest ids
          assertThat(search.search(NS, TextField.TURNS, query, k)).as("%s, k %d", query, k)
              .containsExactlyElementsOf(all.subList(0, k));
        }
      }
      List<ScoredId> choir = search.search(NS, TextField.TURNS, "choir", 10);
      assertThat(choir).hasSize(10);
    }
  }

  private static void write(LuceneIndex index, List<Live> docs) {
    index.write((IndexWriter w, IndexSearcher s) -> {
      for (Live d : docs) {
        if (d.turn() != null) {
          w.addDocument(StoreDocuments.turn(d.turn(), d.seq()));
        } else {
          MemoryRecord r = d.record();
          w.updateDocument(StoreFields.uid(StoreFields.KIND_RECORD, r.namespace(), r.id()),
              StoreDocuments.record(r, d.seq()));
        }
      }
      return null;
    });
  }

  /** A turn or a record as written, with its sequence number. */
  private record Live(RawTurn turn, MemoryRecord record, long seq) {
    static Live turn(RawTurn t, long seq) {
      return new Live(t, null, seq);
    }

    static Live record(MemoryRecord r, long seq) {
      return new Live(null, r, seq);
    }

    String key() {
      return turn != null ? "t/" + turn.namespace() + "/" + turn.id() : "r/" + record.namespace() + "/" + record.id();
    }
  }

  /** Ids with their scores' bits, so that a float compares exactly. */
  private static List<String> bits(List<ScoredId> hits) {
    return hits.stream().map(h -> h.id() + "=" + Float.floatToIntBits((float) h.score())).toList();
  }

  private static String sentence(Random random) {
    StringBuilder b = new StringBuilder();
    for (int w = 0, n = 2 + random.nextInt(10); w < n; w++) {
      // a Zipf-like pick: the first words in most texts, the last in few
      int pick = (int) (WORDS.length * Math.pow(random.nextDouble(), 2.5));
      b.append(WORDS[pick]).append(' ');
    }
    return b.toString();
  }
}
