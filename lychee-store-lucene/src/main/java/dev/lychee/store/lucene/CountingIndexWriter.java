package dev.lychee.store.lucene;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.document.Field;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;

/**
 * An {@link IndexWriter} that counts the calls that change documents (every public add, update,
 * delete and doc-values update), so that {@link LuceneIndex} can tell a work refused before it
 * changed anything from one that failed half-way. A call counts before it runs, so one that throws
 * part-way counts as a change. Why not the writer's sequence number: a flush and a commit advance it
 * too, and both run without the write lock (the flush ahead of a reopen, a commit's fsyncs), so one
 * landing during a refused work made the refusal roll the writer back, and deferred writes with it,
 * where nothing needed it (docs/measurements.md §6, rounds seventeen and eighteen).
 */
final class CountingIndexWriter extends IndexWriter {
  private final AtomicLong changes = new AtomicLong();

  CountingIndexWriter(Directory directory, IndexWriterConfig config) throws IOException {
    super(directory, config);
  }

  /** Calls that changed, or tried to change, documents so far. */
  long changes() {
    return changes.get();
  }

  private void count() {
    changes.incrementAndGet();
  }

  @Override
  public long addDocument(Iterable<? extends IndexableField> doc) throws IOException {
    count();
    return super.addDocument(doc);
  }

  @Override
  public long addDocuments(Iterable<? extends Iterable<? extends IndexableField>> docs) throws IOException {
    count();
    return super.addDocuments(docs);
  }

  @Override
  public long updateDocuments(Term delTerm, Iterable<? extends Iterable<? extends IndexableField>> docs)
      throws IOException {
    count();
    return super.updateDocuments(delTerm, docs);
  }

  @Override
  public long updateDocuments(Query delQuery, Iterable<? extends Iterable<? extends IndexableField>> docs)
      throws IOException {
    count();
    return super.updateDocuments(delQuery, docs);
  }

  @Override
  public long softUpdateDocuments(Term term, Iterable<? extends Iterable<? extends IndexableField>> docs,
      Field... softDeletes) throws IOException {
    count();
    return super.softUpdateDocuments(term, docs, softDeletes);
  }

  @Override
  public synchronized long tryDeleteDocument(IndexReader readerIn, int docID) throws IOException {
    count();
    return super.tryDeleteDocument(readerIn, docID);
  }

  @Override
  public synchronized long tryUpdateDocValue(IndexReader readerIn, int docID, Field... fields) throws IOException {
    count();
    return super.tryUpdateDocValue(readerIn, docID, fields);
  }

  @Override
  public long deleteDocuments(Term... terms) throws IOException {
    count();
    return super.deleteDocuments(terms);
  }

  @Override
  public long deleteDocuments(Query... queries) throws IOException {
    count();
    return super.deleteDocuments(queries);
  }

  @Override
  public long updateDocument(Term term, Iterable<? extends IndexableField> doc) throws IOException {
    count();
    return super.updateDocument(term, doc);
  }

  @Override
  public long softUpdateDocument(Term term, Iterable<? extends IndexableField> doc, Field... softDeletes)
      throws IOException {
    count();
    return super.softUpdateDocument(term, doc, softDeletes);
  }

  @Override
  public long updateNumericDocValue(Term term, String field, long value) throws IOException {
    count();
    return super.updateNumericDocValue(term, field, value);
  }

  @Override
  public long updateBinaryDocValue(Term term, String field, BytesRef value) throws IOException {
    count();
    return super.updateBinaryDocValue(term, field, value);
  }

  @Override
  public long updateDocValues(Term term, Field... updates) throws IOException {
    count();
    return super.updateDocValues(term, updates);
  }

  @Override
  public long deleteAll() throws IOException {
    count();
    return super.deleteAll();
  }

  @Override
  public long addIndexes(Directory... dirs) throws IOException {
    count();
    return super.addIndexes(dirs);
  }

  @Override
  public long addIndexes(CodecReader... readers) throws IOException {
    count();
    return super.addIndexes(readers);
  }
}
