package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.StoreFields.KIND_RECORD;
import static dev.lychee.store.lucene.StoreFields.KIND_TURN;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.score.TopScored;
import dev.lychee.core.store.VersionedCache;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;

/**
 * BM25 search on the text field of turn and record documents. Queries are built from analyzed
 * tokens ({@link LexicalQuery}), never parsed, so no user text can make them throw. Their terms are
 * looked up in the index's segments once per reader version for all queries ({@link
 * SharedTermStates}); the namespace and kind they are filtered by are read once per index segment
 * ({@link ScopeFilter}). Scores count live documents only ({@link LiveStatistics}) and equal scores
 * come in id order ({@link TiedTop}), so a search's hits are a function of what the index holds,
 * not of how its segments lie (round twenty-two).
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
   * it, all read from one searcher (one staleness check and acquire for a route's variants). The
   * queries not cached yet are scored together in one pass per index segment ({@link VariantPass}):
   * each distinct term's postings are walked once for all of them, and each hit's id is decoded
   * once however many queries found it.
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
    return index.read(s -> {
      long version = ReaderCache.version(s);
      List<List<ScoredId>> out = new ArrayList<>(queries.size());
      // the distinct queries not cached at this version, by text, and their terms
      Map<String, Integer> missing = new LinkedHashMap<>();
      List<Set<String>> missingTerms = new ArrayList<>();
      for (int i = 0; i < queries.size(); i++) {
        List<ScoredId> cached = analyzed.get(i).isEmpty() ? List.of() : cache.get(version, key(namespace, kind, queries.get(i), k));
        out.add(cached);
        if (cached == null && !missing.containsKey(queries.get(i))) {
          missing.put(queries.get(i), missingTerms.size());
          missingTerms.add(analyzed.get(i));
        }
      }
      if (missing.isEmpty()) {
        return out;
      }
      List<List<ScoredId>> found = searchTogether(s, namespace, kind, missingTerms, k);
      for (Map.Entry<String, Integer> e : missing.entrySet()) {
        cache.put(version, key(namespace, kind, e.getKey(), k), found.get(e.getValue()));
      }
      for (int i = 0; i < out.size(); i++) {
        if (out.get(i) == null) {
          out.set(i, found.get(missing.get(queries.get(i))));
        }
      }
      return out;
    });
  }

  private static VersionedCache.Key key(String namespace, String kind, String query, int k) {
    return new VersionedCache.Key('s', namespace, List.of(kind, query, k));
  }

  /** The hits of each query (terms not empty) from one {@link VariantPass}, Lucene's search where it declines. */
  private List<List<ScoredId>> searchTogether(IndexSearcher s, String namespace, String kind,
      List<Set<String>> queries, int k) throws IOException {
    // never ask for a priority queue larger than the index
    int n = Math.min(k, Math.max(1, s.getIndexReader().maxDoc()));
    ScoreDoc[][] tops = VariantPass.top(s, StoreFields.TEXT, queries, leaf -> scopes.docs(leaf, namespace, kind),
        terms, n);
    HitIds ids = HitIds.of(s, tops);
    List<List<ScoredId>> out = new ArrayList<>(queries.size());
    for (int q = 0; q < queries.size(); q++) {
      if (tops[q] == null) {
        Query filter = scopes.query(namespace, kind);
        ScoreDoc[] found = TiedTop.search(s,
            LexicalQuery.build(queries.get(q), StoreFields.TEXT, filter, t -> terms.query(s, t)).orElseThrow(), n);
        out.add(best(found, DocIds.of(s, found), n));
        continue;
      }
      String[] hitIds = new String[tops[q].length];
      for (int i = 0; i < hitIds.length; i++) {
        hitIds[i] = ids.id(tops[q][i].doc);
      }
      out.add(best(tops[q], hitIds, n));
    }
    return out;
  }

  /**
   * The {@code n} best of {@link TiedTop#candidates} by score, then id (as every store orders
   * equal scores, {@link TopScored#BEST_FIRST}), so that ties do not follow the document numbers
   * the index's layout sets (round twenty-two).
   */
  private static List<ScoredId> best(ScoreDoc[] candidates, String[] ids, int n) {
    ScoredId[] hits = new ScoredId[candidates.length];
    for (int i = 0; i < hits.length; i++) {
      hits[i] = new ScoredId(ids[i], candidates[i].score);
    }
    Arrays.sort(hits, TopScored.BEST_FIRST);
    return List.of(hits).subList(0, Math.min(n, hits.length));
  }

  /** The ids of the hits of several queries, each document's decoded once. */
  private record HitIds(int[] docs, String[] ids) {
    static HitIds of(IndexSearcher s, ScoreDoc[][] tops) throws IOException {
      int total = 0;
      for (ScoreDoc[] top : tops) {
        total += top == null ? 0 : top.length;
      }
      int[] docs = new int[total];
      int n = 0;
      for (ScoreDoc[] top : tops) {
        if (top != null) {
          for (ScoreDoc d : top) {
            docs[n++] = d.doc;
          }
        }
      }
      Arrays.sort(docs);
      int distinct = 0;
      for (int i = 0; i < docs.length; i++) {
        if (i == 0 || docs[i] != docs[i - 1]) {
          docs[distinct++] = docs[i];
        }
      }
      docs = Arrays.copyOf(docs, distinct);
      return new HitIds(docs, DocIds.ofAscending(s, docs));
    }

    String id(int doc) {
      return ids[Arrays.binarySearch(docs, doc)];
    }
  }

  /** How many segment scope sets the filters hold (for tests). */
  int scopeSets() {
    return scopes.size();
  }

}
