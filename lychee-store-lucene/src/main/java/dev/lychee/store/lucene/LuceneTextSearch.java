package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.StoreFields.KIND_RECORD;
import static dev.lychee.store.lucene.StoreFields.KIND_TURN;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.store.VersionedCache;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;

/**
 * BM25 search on the text field of turn and record documents. Queries are built from analyzed
 * tokens ({@link LexicalQuery}), never parsed, so no user text can make them throw.
 */
final class LuceneTextSearch {
  private final LuceneIndex index;
  private final ReaderCache cache;
  private final Analyzer analyzer;
  private final int maxQueryTerms;

  LuceneTextSearch(LuceneIndex index, ReaderCache cache, Analyzer analyzer, int maxQueryTerms) {
    this.index = index;
    this.cache = cache;
    this.analyzer = analyzer;
    this.maxQueryTerms = maxQueryTerms;
  }

  /** Routes of one question repeat their variants, so identical searches are cached. */
  List<ScoredId> search(String namespace, TextField field, String query, int k) {
    String kind = field == TextField.TURNS ? KIND_TURN : KIND_RECORD;
    Optional<Query> q = LexicalQuery.build(analyzer, StoreFields.TEXT, query, maxQueryTerms,
        StoreFields.scope(namespace, kind).build());
    if (q.isEmpty()) {
      return List.of();
    }
    return index.read(s -> cache.get(s, new VersionedCache.Key('s', namespace, List.of(kind, query, k)), () -> {
      // never ask Lucene for a priority queue larger than the index
      TopDocs td = s.search(q.get(), Math.min(k, Math.max(1, s.getIndexReader().maxDoc())));
      String[] ids = DocIds.of(s, td.scoreDocs);
      List<ScoredId> hits = new ArrayList<>(td.scoreDocs.length);
      for (int i = 0; i < ids.length; i++) {
        hits.add(new ScoredId(ids[i], td.scoreDocs[i].score));
      }
      return List.copyOf(hits);
    }));
  }
}
