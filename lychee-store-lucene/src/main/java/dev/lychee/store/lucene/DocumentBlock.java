package dev.lychee.store.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Documents that each replace the document of their unique key, written by one writer call ({@link
 * IndexWriter#updateDocuments(org.apache.lucene.search.Query, Iterable)} with a terms filter on the
 * keys): Lucene indexes such a block in one piece, so a commit that runs meanwhile outside the
 * write lock (see {@link LuceneIndex}) holds all of it or none, with no commit lock to wait for.
 * Why: a segment's encoding and its vectors were one writer call per document under the commit
 * lock, and the encoder waited there for the background commits' fsyncs (round twenty-one,
 * measurements.md §6). The documents are indexed in the order the calls one by one took them.
 *
 * @param keys each document's unique key, all in one field, none twice
 * @param documents the documents, in the order of their keys
 */
record DocumentBlock(List<Term> keys, List<Document> documents) {

  DocumentBlock {
    keys = List.copyOf(keys);
    documents = List.copyOf(documents);
    if (keys.size() != documents.size()) {
      throw new IllegalArgumentException(keys.size() + " keys for " + documents.size() + " documents");
    }
    Set<Term> seen = new HashSet<>();
    for (Term k : keys) {
      if (!k.field().equals(keys.get(0).field()) || !seen.add(k)) {
        throw new IllegalArgumentException("a block's keys must be distinct terms of one field: " + k);
      }
    }
  }

  /** An empty block, to add to. */
  static Builder builder() {
    return new Builder();
  }

  /**
   * Writes the block with one writer call; {@code afterFirst} runs while the writer takes the
   * documents, after the first and before the rest (a no-op except in tests, which start a commit
   * there). Nothing is written for an empty block.
   */
  void write(IndexWriter writer, Runnable afterFirst) throws IOException {
    if (keys.isEmpty()) {
      return;
    }
    List<BytesRef> terms = new ArrayList<>(keys.size());
    for (Term k : keys) {
      terms.add(k.bytes());
    }
    Iterable<Document> block = () -> new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < documents.size();
      }

      @Override
      public Document next() {
        if (next >= documents.size()) {
          throw new NoSuchElementException();
        }
        if (next == 1) {
          afterFirst.run();
        }
        return documents.get(next++);
      }
    };
    writer.updateDocuments(new TermInSetQuery(keys.get(0).field(), terms), block);
  }

  /** Collects a block's documents in order. */
  static final class Builder {
    private final List<Term> keys = new ArrayList<>();
    private final List<Document> documents = new ArrayList<>();

    Builder add(Term key, Document document) {
      keys.add(key);
      documents.add(document);
      return this;
    }

    DocumentBlock build() {
      return new DocumentBlock(keys, documents);
    }
  }
}
