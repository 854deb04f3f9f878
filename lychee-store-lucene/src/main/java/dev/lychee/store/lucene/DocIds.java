package dev.lychee.store.lucene;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;

/**
 * Reads the ids (and the JSON) of search hits in the record-store index from their binary doc
 * values ({@link StoreFields#ID_VALUES}, {@link StoreFields#JSON_VALUES}). Why: reading a stored
 * field decompresses a block of stored fields per hit (with a fresh buffer per leaf and call), a
 * third of a lexical search's time and most of what recall allocated (docs/defaults.md §3.3). A
 * document written before those fields existed has no value there; its stored field is read
 * instead, so an index written by an older version answers the same (merges keep each document as
 * it was written, so such documents stay readable this way until they are rewritten).
 */
final class DocIds {
  private DocIds() {}

  /** The ids of {@code hits}, in the hits' order. */
  static String[] of(IndexSearcher searcher, ScoreDoc[] hits) throws IOException {
    return read(searcher, hits, StoreFields.ID_VALUES, StoreFields.ID);
  }

  /** The JSON of {@code hits} (turns, records, nodes), in the hits' order. */
  static String[] json(IndexSearcher searcher, ScoreDoc[] hits) throws IOException {
    return read(searcher, hits, StoreFields.JSON_VALUES, StoreFields.JSON);
  }

  /** The ids of {@code docs}, which are in ascending order, in that order. */
  static String[] ofAscending(IndexSearcher searcher, int[] docs) throws IOException {
    return readAscending(searcher, docs, StoreFields.ID_VALUES, StoreFields.ID);
  }

  /**
   * The insertion sequence numbers of {@code hits} ({@link StoreFields#SEQ}), in the hits' order:
   * from the numeric doc values every record-store document carries beside the stored number (the
   * sort by sequence reads them), or the stored field where a document has no value there.
   */
  static long[] seqs(IndexSearcher searcher, ScoreDoc[] hits) throws IOException {
    long[] out = new long[hits.length];
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    StoredFields storedFields = null;
    LeafReaderContext leaf = null;
    NumericDocValues values = null;
    // doc values iterators only move forward: visit the hits in document order
    for (int i : ascending(hits)) {
      int doc = hits[i].doc;
      if (leaf == null || doc >= leaf.docBase + leaf.reader().maxDoc()) {
        leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
        values = leaf.reader().getNumericDocValues(StoreFields.SEQ);
      }
      if (values != null && values.advanceExact(doc - leaf.docBase)) {
        out[i] = values.longValue();
      } else {
        if (storedFields == null) {
          storedFields = searcher.storedFields();
        }
        out[i] = storedFields.document(doc, Set.of(StoreFields.SEQ)).getField(StoreFields.SEQ).numericValue().longValue();
      }
    }
    return out;
  }

  /** The places of {@code hits} in ascending document order. */
  private static int[] ascending(ScoreDoc[] hits) {
    Integer[] order = new Integer[hits.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Integer.compare(hits[a].doc, hits[b].doc));
    int[] out = new int[order.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = order[i];
    }
    return out;
  }

  /** The doc values of {@code field} of each hit, or its {@code stored} field where it has none. */
  private static String[] read(IndexSearcher searcher, ScoreDoc[] hits, String field, String stored)
      throws IOException {
    if (hits.length == 0) {
      return new String[0];
    }
    // doc values iterators only move forward: visit the hits in document order
    int[] order = ascending(hits);
    int[] docs = new int[hits.length];
    for (int j = 0; j < docs.length; j++) {
      docs[j] = hits[order[j]].doc;
    }
    String[] ascending = readAscending(searcher, docs, field, stored);
    String[] out = new String[hits.length];
    for (int j = 0; j < docs.length; j++) {
      out[order[j]] = ascending[j];
    }
    return out;
  }

  /** As {@link #read}, for documents in ascending order. */
  private static String[] readAscending(IndexSearcher searcher, int[] docs, String field, String stored)
      throws IOException {
    String[] out = new String[docs.length];
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    StoredFields storedFields = null;
    LeafReaderContext leaf = null;
    BinaryDocValues values = null;
    for (int i = 0; i < docs.length; i++) {
      int doc = docs[i];
      if (leaf == null || doc >= leaf.docBase + leaf.reader().maxDoc()) {
        leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
        values = leaf.reader().getBinaryDocValues(field);
      }
      int local = doc - leaf.docBase;
      if (values != null && values.advanceExact(local)) {
        out[i] = values.binaryValue().utf8ToString();
      } else {
        // written before the doc values field existed
        if (storedFields == null) {
          storedFields = searcher.storedFields();
        }
        out[i] = storedFields.document(doc, Set.of(stored)).get(stored);
      }
    }
    return out;
  }
}
