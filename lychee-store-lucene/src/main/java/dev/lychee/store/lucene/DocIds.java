package dev.lychee.store.lucene;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;

/**
 * Reads the ids of search hits in the record-store index from their {@link StoreFields#ID_VALUES}
 * doc values. Why: reading the stored {@link StoreFields#ID} decompresses a block of stored fields
 * (which also holds the documents' JSON) per hit, and that was a third of a lexical search's time.
 * A document written before that field existed has no value there; its id is read from the stored
 * field instead, so an index written by an older version answers the same (merges keep each
 * document as it was written, so such documents stay readable this way until they are rewritten).
 */
final class DocIds {
  private DocIds() {}

  /** The ids of {@code hits}, in the hits' order. */
  static String[] of(IndexSearcher searcher, ScoreDoc[] hits) throws IOException {
    String[] out = new String[hits.length];
    if (hits.length == 0) {
      return out;
    }
    // doc values iterators only move forward: visit the hits in document order
    Integer[] order = new Integer[hits.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Integer.compare(hits[a].doc, hits[b].doc));
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    StoredFields stored = null;
    int leafIndex = -1;
    LeafReaderContext leaf = null;
    BinaryDocValues values = null;
    for (int i : order) {
      int doc = hits[i].doc;
      if (leaf == null || doc >= leaf.docBase + leaf.reader().maxDoc()) {
        leafIndex = ReaderUtil.subIndex(doc, leaves);
        leaf = leaves.get(leafIndex);
        values = leaf.reader().getBinaryDocValues(StoreFields.ID_VALUES);
      }
      int local = doc - leaf.docBase;
      if (values != null && values.advanceExact(local)) {
        out[i] = values.binaryValue().utf8ToString();
      } else {
        // written before the doc values field existed
        if (stored == null) {
          stored = searcher.storedFields();
        }
        out[i] = stored.document(doc, Set.of(StoreFields.ID)).get(StoreFields.ID);
      }
    }
    return out;
  }
}
