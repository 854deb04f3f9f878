package dev.lychee.store.lucene;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.HitQueue;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;

/**
 * The {@code k} best-scored documents offered, and with them every document that ties the
 * {@code k}-th score, so that the caller can order equal scores by id and cut to {@code k} there
 * ({@link dev.lychee.core.score.TopScored#BEST_FIRST}, the order every store returns). Lucene's
 * collector keeps the lower document number among equal scores, and document numbers follow the
 * index's segments, which the timing of its reopens and merges sets (round twenty-two,
 * docs/measurements.md §6).
 */
final class TiedTop {
  private final int k;
  private final HitQueue queue;
  /**
   * Documents offered and not kept whose score equals the worst kept one's, as document numbers
   * (their score is that worst score): ties come and go while the queue fills, and an object per
   * tie was 16 to 38 KB per lexical call at x20 (round twenty-two; round twenty-three keeps them as
   * numbers until {@link #candidates}, measurements.md §6).
   */
  private int[] tied = new int[8];
  private int tiedCount;

  /** @param k how many to keep, at least 1 */
  TiedTop(int k) {
    this.k = k;
    this.queue = new HitQueue(k, false);
  }

  /** Offers a document; no object is made for one that loses (scores below the {@code k}-th) or ties it. */
  void offer(int doc, float score) {
    if (queue.size() < k) {
      queue.add(new ScoreDoc(doc, score));
      return;
    }
    ScoreDoc worst = queue.top();
    if (score < worst.score) {
      return;
    }
    if (score == worst.score) {
      tie(doc);
      return;
    }
    // the worst leaves: its object takes the new hit, as Lucene's collector reuses it
    int leaving = worst.doc;
    float was = worst.score;
    worst.doc = doc;
    worst.score = score;
    queue.updateTop();
    if (queue.top().score == was) {
      // another kept hit has its score: it still ties the k-th
      tie(leaving);
    } else {
      tiedCount = 0;
    }
  }

  private void tie(int doc) {
    if (tiedCount == tied.length) {
      tied = Arrays.copyOf(tied, tiedCount * 2);
    }
    tied[tiedCount++] = doc;
  }

  /**
   * The kept documents and those tied with the worst of them, in no order: the {@code k} best by
   * score, then id, are among them.
   */
  ScoreDoc[] candidates() {
    ScoreDoc[] out = new ScoreDoc[queue.size() + tiedCount];
    int n = 0;
    for (ScoreDoc d : queue) {
      out[n++] = d;
    }
    if (tiedCount > 0) {
      float score = queue.top().score;
      for (int i = 0; i < tiedCount; i++) {
        out[n++] = new ScoreDoc(tied[i], score);
      }
    }
    return out;
  }

  /** The {@link #candidates} of a Lucene search of {@code query}, every match scored. */
  static ScoreDoc[] search(IndexSearcher searcher, Query query, int k) throws IOException {
    TiedTop top = new TiedTop(k);
    searcher.search(query, new SimpleCollector() {
      private Scorable scorer;
      private int docBase;

      @Override
      protected void doSetNextReader(LeafReaderContext context) {
        docBase = context.docBase;
      }

      @Override
      public void setScorer(Scorable scorer) {
        this.scorer = scorer;
      }

      @Override
      public void collect(int doc) throws IOException {
        top.offer(docBase + doc, scorer.score());
      }

      @Override
      public ScoreMode scoreMode() {
        return ScoreMode.COMPLETE;
      }
    });
    return top.candidates();
  }
}
