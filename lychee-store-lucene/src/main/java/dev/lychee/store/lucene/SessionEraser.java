package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.StoreFields.KIND_NODE;
import static dev.lychee.store.lucene.StoreFields.KIND_RECORD;
import static dev.lychee.store.lucene.StoreFields.KIND_SEGMENT;
import static dev.lychee.store.lucene.StoreFields.KIND_SESSION;
import static dev.lychee.store.lucene.StoreFields.KIND_TURN;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.Forgotten;
import dev.lychee.api.MemoryRecord;
import dev.lychee.core.store.SessionPruning;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/** Removes one session and prunes what cited it ({@link SessionPruning}); runs inside one write call. */
final class SessionEraser {
  static final Sort BY_SEQ = new Sort(new SortField(StoreFields.SEQ, SortField.Type.LONG));

  private final IndexWriter writer;
  private final IndexSearcher searcher;
  private final String namespace;
  private final String session;

  SessionEraser(IndexWriter writer, IndexSearcher searcher, String namespace, String session) {
    this.writer = writer;
    this.searcher = searcher;
    this.namespace = namespace;
    this.session = session;
  }

  /** Removes every document of a namespace; runs inside one write call. */
  static Forgotten eraseNamespace(IndexWriter writer, IndexSearcher searcher, String namespace) throws IOException {
    Forgotten gone = new Forgotten(
        Hits.ids(searcher, StoreFields.scope(namespace, KIND_TURN).build(), BY_SEQ),
        Hits.ids(searcher, StoreFields.scope(namespace, KIND_RECORD).build(), BY_SEQ),
        Hits.ids(searcher, StoreFields.scope(namespace, KIND_NODE).build(), BY_SEQ));
    writer.deleteDocuments(new Term(StoreFields.NS, namespace));
    return gone;
  }

  Forgotten erase() throws IOException {
    List<String> turnIds = Hits.ids(searcher, StoreFields.sessionScope(namespace, KIND_TURN, session), TurnDocs.BY_INDEX);
    writer.deleteDocuments(StoreFields.sessionScope(namespace, KIND_TURN, session),
        StoreFields.sessionScope(namespace, KIND_SEGMENT, session),
        StoreFields.sessionScope(namespace, KIND_SESSION, session));

    List<String> removedRecords = new ArrayList<>();
    for (Document d : Hits.all(searcher, StoreFields.sessionScope(namespace, KIND_RECORD, session), BY_SEQ)) {
      MemoryRecord r = JsonCodec.record(Hits.json(d));
      MemoryRecord kept = SessionPruning.withoutSession(r, session);
      Term key = StoreFields.uid(KIND_RECORD, namespace, r.id());
      if (kept == null) {
        writer.deleteDocuments(key);
        removedRecords.add(r.id());
      } else if (kept != r) {
        writer.updateDocument(key, StoreDocuments.record(kept, Hits.seq(d)));
      }
    }
    return new Forgotten(turnIds, removedRecords, pruneNodes(Set.copyOf(removedRecords)));
  }

  /** Nodes lose removed records and links to the erased session; nodes left without records go. */
  private List<String> pruneNodes(Set<String> removedRecords) throws IOException {
    BooleanQuery.Builder touching = new BooleanQuery.Builder()
        .add(new TermQuery(new Term(StoreFields.SESSION, session)), BooleanClause.Occur.SHOULD);
    if (!removedRecords.isEmpty()) {
      touching.add(new TermInSetQuery(StoreFields.NODE_RECORD,
          removedRecords.stream().map(BytesRef::new).toList()), BooleanClause.Occur.SHOULD);
    }
    Query q = StoreFields.scope(namespace, KIND_NODE).add(touching.build(), BooleanClause.Occur.MUST).build();
    List<String> removedNodes = new ArrayList<>();
    for (Document d : Hits.all(searcher, q, BY_SEQ)) {
      EvidenceNode n = JsonCodec.node(Hits.json(d));
      EvidenceNode kept = SessionPruning.withoutRecords(n, removedRecords, session);
      Term key = StoreFields.uid(KIND_NODE, namespace, n.id());
      if (kept == null) {
        writer.deleteDocuments(key);
        removedNodes.add(n.id());
      } else if (kept != n) {
        writer.updateDocument(key, StoreDocuments.node(kept, Hits.seq(d)));
      }
    }
    return removedNodes;
  }
}
