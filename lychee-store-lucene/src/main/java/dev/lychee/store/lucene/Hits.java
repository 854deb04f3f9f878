package dev.lychee.store.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

/** Reads whole result lists and single documents from a searcher. */
final class Hits {
  private Hits() {}

  /** Every document matching {@code query}, in {@code sort} order. */
  static List<Document> all(IndexSearcher searcher, Query query, Sort sort) throws IOException {
    int n = searcher.count(query);
    if (n == 0) {
      return List.of();
    }
    return load(searcher, searcher.search(query, n, sort));
  }

  /** The first {@code n} documents matching {@code query} in {@code sort} order. */
  static List<Document> top(IndexSearcher searcher, Query query, int n, Sort sort) throws IOException {
    return load(searcher, searcher.search(query, n, sort));
  }

  /** The live document with this unique key. */
  static Optional<Document> byKey(IndexSearcher searcher, Term uid) throws IOException {
    TopDocs td = searcher.search(new TermQuery(uid), 1);
    if (td.scoreDocs.length == 0) {
      return Optional.empty();
    }
    return Optional.of(searcher.storedFields().document(td.scoreDocs[0].doc));
  }

  static List<Document> load(IndexSearcher searcher, TopDocs td) throws IOException {
    StoredFields fields = searcher.storedFields();
    List<Document> out = new ArrayList<>(td.scoreDocs.length);
    for (ScoreDoc sd : td.scoreDocs) {
      out.add(fields.document(sd.doc));
    }
    return out;
  }

  /** The ids of every document matching {@code query}, in {@code sort} order. */
  static List<String> ids(IndexSearcher searcher, Query query, Sort sort) throws IOException {
    return all(searcher, query, sort).stream().map(d -> d.get(StoreFields.ID)).toList();
  }

  /** The stored JSON value of a record-store document. */
  static String json(Document d) {
    return d.get(StoreFields.JSON);
  }

  /** The stored insertion sequence of a record-store document. */
  static long seq(Document d) {
    return d.getField(StoreFields.SEQ).numericValue().longValue();
  }
}
