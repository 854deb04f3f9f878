package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.StoreFields.KIND_RECORD;
import static dev.lychee.store.lucene.StoreFields.KIND_TURN;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.store.VersionedCache;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;

/**
 * BM25 search on the text field of turn and record documents. Queries are built from analyzed
 * tokens ({@link LexicalQuery}), never parsed, so no user text can make them throw. Their terms are
 * looked up in the index's segments once per reader version for all queries ({@link
 * SharedTermStates}); the namespace and kind they are filtered by are read once per index segment
 * ({@link ScopeFilter}).
 */
final class LuceneTextSearch {
  private final LuceneIndex index;
  private final ReaderCache cache;
  private final Analyzer analyzer;
  private final int maxQueryTerms;
  private final SharedTermStates terms;
  private final ScopeFilter scopes = new ScopeFilter();

  LuceneTextSearch(LuceneIndex index, ReaderCache cache, Analyzer analyzer, int maxQueryTerms) {
    this(index, cache, analyzer, maxQueryTerms, new SharedTermStates());
  }

  /** As above, with the given term look-ups (for tests that switch the sharing off). */
  LuceneTextSearch(LuceneIndex index, ReaderCache cache, Analyzer analyzer, int maxQueryTerms,
      SharedTermStates terms) {
    this.index = index;
    this.cache = cache;
    this.analyzer = analyzer;
    this.maxQueryTerms = maxQueryTerms;
    this.terms = terms;
  }

  /** Routes of one question repeat their variants, so identical searches are cached. */
  List<ScoredId> search(String namespace, TextField field, String query, int k) {
    return search(namespace, field, List.of(query), k).get(0);
  }

  /**
   * One hit list per query, each what {@link #search(String, TextField, String, int)} returns for
   * it, all read from one searcher (one staleness check and acquire for a route's variants).
   */
  List<List<ScoredId>> search(String namespace, TextField field, List<String> queries, int k) {
    String kind = field == TextField.TURNS ? KIND_TURN : KIND_RECORD;
    List<Set<String>> analyzed = new ArrayList<>(queries.size());
    boolean any = false;
    for (String query : queries) {
      Set<String> t = LexicalQuery.terms(analyzer, StoreFields.TEXT, query, maxQueryTerms);
      analyzed.add(t);
      any |= !t.isEmpty();
    }
    if (!any) {
      return queries.stream().<List<ScoredId>>map(q -> List.of()).toList();
    }
    Query filter = scopes.query(namespace, kind);
    return index.read(s -> {
      List<List<ScoredId>> out = new ArrayList<>(queries.size());
      for (int i = 0; i < queries.size(); i++) {
        Set<String> queryTerms = analyzed.get(i);
        if (queryTerms.isEmpty()) {
          out.add(List.of());
          continue;
        }
        out.add(cache.get(s, new VersionedCache.Key('s', namespace, List.of(kind, queries.get(i), k)),
            () -> top(s, LexicalQuery.build(queryTerms, StoreFields.TEXT, filter, t -> terms.query(s, t)), k)));
      }
      return out;
    });
  }

  /** How many segment scope sets the filters hold (for tests). */
  int scopeSets() {
    return scopes.size();
  }

  private static List<ScoredId> top(IndexSearcher s, Optional<Query> q, int k) throws IOException {
    // never ask Lucene for a priority queue larger than the index
    TopDocs td = s.search(q.orElseThrow(), Math.min(k, Math.max(1, s.getIndexReader().maxDoc())));
    String[] ids = DocIds.of(s, td.scoreDocs);
    List<ScoredId> hits = new ArrayList<>(td.scoreDocs.length);
    for (int i = 0; i < ids.length; i++) {
      hits.add(new ScoredId(ids[i], td.scoreDocs[i].score));
    }
    return List.copyOf(hits);
  }
}
