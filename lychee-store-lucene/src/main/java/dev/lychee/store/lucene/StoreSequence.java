package dev.lychee.store.lucene;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;

/**
 * The insertion sequence of the record store's documents ({@link StoreFields#SEQ}), which gives
 * sessions, records and nodes their first-insertion order. It continues from the highest stored
 * value when the index is opened.
 */
final class StoreSequence {
  private final AtomicLong last;

  private StoreSequence(long last) {
    this.last = new AtomicLong(last);
  }

  /** The sequence continuing after every value stored in the index. */
  static StoreSequence of(LuceneIndex index) {
    return new StoreSequence(index.read(StoreSequence::max));
  }

  long next() {
    return last.incrementAndGet();
  }

  /** Makes the next number come after {@code seq}: a replayed value keeps the number it was logged with. */
  void advancePast(long seq) {
    last.accumulateAndGet(seq, Math::max);
  }

  private static long max(IndexSearcher searcher) throws IOException {
    long max = 0;
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      NumericDocValues values = leaf.reader().getNumericDocValues(StoreFields.SEQ);
      if (values != null) {
        // read once at open; deleted documents count too, which only leaves a gap
        for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
          max = Math.max(max, values.longValue());
        }
      }
    }
    return max;
  }
}
