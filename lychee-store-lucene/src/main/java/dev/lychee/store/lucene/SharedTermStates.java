package dev.lychee.store.lucene;

import dev.lychee.core.store.VersionedCache;
import java.io.IOException;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.Similarity;

/**
 * Term queries whose per-segment look-ups are shared by every lexical query on one reader version.
 * A {@link TermQuery} built from a bare term looks the term up in the term dictionary of every
 * segment each time it is searched ({@code TermStates.build}); a recall searches each route's text
 * variants over turns and over records, and these share most of their terms (and all of them
 * between the two fields, which are one Lucene field filtered by kind), so the same term was looked
 * up a dozen times per recall in every segment. Here each term is looked up once per reader
 * version, and the query carries those states: Lucene then seeks each segment's terms straight to
 * the stored position and takes the document frequencies from them, which are the same numbers the
 * look-up would find, so scores stay the same bit for bit. Why: JFR of Lucene recall at x20 put
 * half of what the timed recalls allocated (91 of 184 MB) in the lexical search, most of it the term
 * dictionary frames of these look-ups (docs/measurements.md §6, round seventeen and round eighteen).
 *
 * <p>States are filed under the reader version ({@link ReaderCache#version}), so a commit or reopen
 * retires them all; a state is used only when {@link TermStates#wasBuiltFor} the searcher's own
 * reader, so two readers of one version never share one. States are built in full (with
 * statistics) and never changed afterwards, so threads share them without locking.
 */
final class SharedTermStates {
  /**
   * At most this many entries per reader version, a term's states and its scorer one each: a
   * term's states hold one small entry per segment (a few KB at a few dozen segments) and its
   * scorer about 1 KB, so the bound keeps a long run of queries without writes to a few MB. A
   * recall at x20 uses a few hundred distinct terms.
   */
  static final int MAX_TERMS = 4096;

  /** Looks one term up in every segment of a searcher's reader. */
  @FunctionalInterface
  interface Lookup {
    TermStates build(IndexSearcher searcher, Term term) throws IOException;
  }

  /**
   * What {@link TermQuery} builds for a scoring clause, with statistics (for a filter clause it
   * would defer each segment's look-up to the scorer, which a shared state must not: it would then
   * change after it is shared).
   */
  static final Lookup LUCENE = (searcher, term) -> TermStates.build(searcher, term, true);

  private final VersionedCache states;
  private final Lookup lookup;

  SharedTermStates() {
    this(MAX_TERMS, LUCENE);
  }

  /**
   * @param maxTerms terms kept per reader version; 0 looks every term up afresh (for tests)
   * @param lookup how a term is looked up (tests count the look-ups)
   */
  SharedTermStates(int maxTerms, Lookup lookup) {
    this.states = new VersionedCache(maxTerms);
    this.lookup = lookup;
  }

  /**
   * The BM25 scorer of {@code term} over the reader behind {@code searcher}, built as {@link
   * TermQuery}'s weight builds it for a scoring clause at boost 1 (the searcher's similarity, the
   * field's collection statistics, the term's shared states), or null when no segment holds the
   * term or no live document has the field (the index's searchers count live documents only,
   * {@link LiveStatistics}). Kept beside the states: both are fixed for one reader, and building it
   * (BM25 fills a table of 256 floats) was a tenth of what a lexical search allocated after round twenty's
   * {@link VariantPass}.
   */
  Similarity.SimScorer scorer(IndexSearcher searcher, Term term) throws IOException {
    TermStates termStates = states(searcher, term);
    if (termStates.docFreq() == 0) {
      return null;
    }
    long version = ReaderCache.version(searcher);
    Object key = new ScorerKey(term);
    Scoring cached = states.get(version, key);
    if (cached != null && cached.states() == termStates && cached.similarity() == searcher.getSimilarity()) {
      return cached.scorer();
    }
    Similarity similarity = searcher.getSimilarity();
    CollectionStatistics collection = searcher.collectionStatistics(term.field());
    TermStatistics statistics = searcher.termStatistics(term, termStates.docFreq(), termStates.totalTermFreq());
    // no collection statistics when no live document has the field: the term scores no document
    Similarity.SimScorer built = collection == null ? null : similarity.scorer(1f, collection, statistics);
    states.put(version, key, new Scoring(termStates, similarity, built));
    return built;
  }

  /** Where a term's scorer is kept, beside its states. */
  private record ScorerKey(Term term) {}

  /** A term's scorer (null when no live document has the field), with the states and similarity it was built from. */
  private record Scoring(TermStates states, Similarity similarity, Similarity.SimScorer scorer) {}

  /** A query on {@code term} over the reader behind {@code searcher}, its look-ups shared. */
  TermQuery query(IndexSearcher searcher, Term term) throws IOException {
    return new TermQuery(term, states(searcher, term));
  }

  /** The states of {@code term} in every segment of the reader behind {@code searcher}. */
  TermStates states(IndexSearcher searcher, Term term) throws IOException {
    long version = ReaderCache.version(searcher);
    TermStates cached = states.get(version, term);
    if (cached != null && cached.wasBuiltFor(searcher.getTopReaderContext())) {
      return cached;
    }
    TermStates built = lookup.build(searcher, term);
    states.put(version, term, built);
    return built;
  }
}
