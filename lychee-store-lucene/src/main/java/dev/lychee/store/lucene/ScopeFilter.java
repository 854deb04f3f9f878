package dev.lychee.store.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.ConjunctionUtils;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.DocIdSet;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.DocIdSetBuilder;

/**
 * The documents of one kind in one namespace ({@link StoreFields#scopeTerms}), kept per index
 * segment as a doc id set, for the filter clause of the lexical queries. A segment never changes
 * once written (an update or delete only marks a document deleted in the segment's live docs, which
 * the searcher applies to every clause anyway), so the set read from one segment stays exact for as
 * long as the segment lives; it is dropped when the segment's core is closed, as {@link
 * SegmentCopies} drops its copies. A filter clause scores nothing, so a query filtered this way
 * matches and scores exactly the documents the two term filters let through.
 *
 * <p>Why: with the two term filters every lexical search opened a terms enum and a postings enum
 * per filter term in every segment and advanced both through each candidate; at x20 that was a
 * sixth of the enums a search opened (round nineteen, docs/measurements.md §6). A segment with no
 * document of the scope now answers no scorer before the query's terms are touched (the filter is
 * the first clause, see {@link LexicalQuery#build}).
 */
final class ScopeFilter {
  /**
   * At most this many sets are kept. One set is kept per segment, namespace and kind searched, and
   * an index shared by many namespaces (a server's tenants) would otherwise keep one per segment for
   * every namespace ever searched until the segment is merged away. A set of a small namespace is a
   * few dozen bytes, one of a namespace filling a segment one bit per document: at a few dozen
   * segments a recall uses two sets per segment, so the bound holds every set of a hundred busy
   * namespaces. Past it the kept sets are dropped and read again as searches need them.
   */
  static final int MAX_SETS = 8192;

  /** Which set: a segment's core (its cache key), a namespace and a kind. */
  private record Key(Object core, String namespace, String kind) {}

  private final ConcurrentHashMap<Key, DocIdSet> sets = new ConcurrentHashMap<>();
  /** Cores whose closing already drops their sets. */
  private final Set<Object> watched = ConcurrentHashMap.newKeySet();
  private final int maxSets;

  ScopeFilter() {
    this(MAX_SETS);
  }

  /** @param maxSets sets kept before the kept ones are dropped (tests use a small bound) */
  ScopeFilter(int maxSets) {
    if (maxSets < 1) {
      throw new IllegalArgumentException("maxSets must be at least 1, was " + maxSets);
    }
    this.maxSets = maxSets;
  }

  /** A filter query on the documents of {@code kind} in {@code namespace}, answered from the kept sets. */
  Query query(String namespace, String kind) {
    return new ScopeQuery(this, Objects.requireNonNull(namespace, "namespace"), Objects.requireNonNull(kind, "kind"));
  }

  /** How many segment sets are held (for tests). */
  int size() {
    return sets.size();
  }

  /** The scope's documents in one segment, deleted ones included (the searcher applies live docs). */
  DocIdSet docs(LeafReaderContext leaf, String namespace, String kind) throws IOException {
    IndexReader.CacheHelper core = leaf.reader().getCoreCacheHelper();
    if (core == null) {
      // not a segment of a directory reader: nothing to key a kept set on
      return read(leaf.reader(), namespace, kind);
    }
    Key key = new Key(core.getKey(), namespace, kind);
    DocIdSet set = sets.get(key);
    if (set == null) {
      set = read(leaf.reader(), namespace, kind);
      if (sets.size() >= maxSets) {
        sets.clear();
      }
      watch(core);
      DocIdSet raced = sets.putIfAbsent(key, set);
      if (raced != null) {
        set = raced;
      }
    }
    return set;
  }

  /** Drops a core's sets when Lucene closes it; registered once per core. */
  private void watch(IndexReader.CacheHelper core) {
    if (watched.add(core.getKey())) {
      core.addClosedListener(closed -> {
        sets.keySet().removeIf(k -> k.core() == closed);
        watched.remove(closed);
      });
    }
  }

  /** The documents of a segment holding every scope term. */
  private static DocIdSet read(LeafReader reader, String namespace, String kind) throws IOException {
    List<DocIdSetIterator> postings = new ArrayList<>(2);
    for (Term t : StoreFields.scopeTerms(namespace, kind)) {
      PostingsEnum p = reader.postings(t, PostingsEnum.NONE);
      if (p == null) {
        return DocIdSet.EMPTY;
      }
      postings.add(p);
    }
    DocIdSetBuilder builder = new DocIdSetBuilder(reader.maxDoc());
    builder.add(ConjunctionUtils.intersectIterators(postings));
    return builder.build();
  }

  /** The filter clause; equal for the same namespace, kind and kept sets. */
  private static final class ScopeQuery extends Query {
    private final ScopeFilter owner;
    private final String namespace;
    private final String kind;

    ScopeQuery(ScopeFilter owner, String namespace, String kind) {
      this.owner = owner;
      this.namespace = namespace;
      this.kind = kind;
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
      return new ConstantScoreWeight(this, boost) {
        @Override
        public Scorer scorer(LeafReaderContext context) throws IOException {
          DocIdSet docs = owner.docs(context, namespace, kind);
          DocIdSetIterator it = docs == DocIdSet.EMPTY ? null : docs.iterator();
          // no scorer: the whole conjunction skips the segment
          return it == null ? null : new ConstantScoreScorer(this, score(), scoreMode, it);
        }

        @Override
        public boolean isCacheable(LeafReaderContext ctx) {
          // kept here already; the searcher's query cache would only copy it again
          return false;
        }
      };
    }

    @Override
    public void visit(QueryVisitor visitor) {
      visitor.visitLeaf(this);
    }

    @Override
    public String toString(String field) {
      return "scope(" + namespace + "/" + kind + ")";
    }

    @Override
    public boolean equals(Object o) {
      return sameClassAs(o) && owner == ((ScopeQuery) o).owner && namespace.equals(((ScopeQuery) o).namespace)
          && kind.equals(((ScopeQuery) o).kind);
    }

    @Override
    public int hashCode() {
      return Objects.hash(classHash(), System.identityHashCode(owner), namespace, kind);
    }
  }
}
