package dev.lychee.store.lucene;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSet;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.util.Bits;

/**
 * The top hits of several lexical queries ({@link LexicalQuery#build}: a scope filter and an OR of
 * term clauses) over one searcher, in one pass per index segment. Each distinct term of the queries
 * is sought once per segment, all of them through one terms enum, and its postings are walked once;
 * the norms are read once per document; each document's score for each query is the sum of its
 * terms' BM25 scores there, computed with the similarity scorer Lucene's term query builds from the
 * same statistics.
 *
 * <p>Why: a route searches its variants (the question and its rewrites) over turns and over
 * records, and the variants share most of their terms; Lucene's search of each variant opened a
 * terms enum, a postings enum and a norms iterator per term and segment, about 145 KB per search at
 * x20 (round nineteen and round twenty, docs/measurements.md §6).
 *
 * <p>Scores stay Lucene's bit for bit: each term's score is the same float ({@code
 * SimScorer.score(freq, norm)} with the same scorer, freq and norm), and Lucene sums a document's
 * term scores in a double and casts the sum to a float, in an order of its own. Here every
 * document's sum is checked to be exact: all the term scores are multiples of the smallest unit in
 * the last place among them, and when the sum stays below 2<sup>53</sup> of those units every
 * partial sum in every order is a double without rounding, so any order gives the same float. A
 * query with a document whose sum fails the check is answered null, for Lucene to search. Hits
 * are kept by score with every tie of the last kept score ({@link TiedTop}), so that equal scores
 * are ordered by id rather than by document number, which the index's layout sets (round
 * twenty-two).
 */
final class VariantPass {
  /** 2<sup>53</sup>: the units a double holds without rounding. */
  private static final double EXACT_UNITS = 0x1p53;

  private VariantPass() {}

  /** The documents of the search's scope in one segment (see {@link ScopeFilter#docs}). */
  @FunctionalInterface
  interface Scope {
    DocIdSet docs(LeafReaderContext leaf) throws IOException;
  }

  /**
   * Per query, its {@code k} best hits and every hit that ties the {@code k}-th score, in no order
   * ({@link TiedTop#candidates}: the caller orders equal scores by id), or null for a query this
   * pass cannot prove to score as Lucene does (the caller searches that one with Lucene).
   *
   * @param queries each query's distinct analyzed terms over {@code field}, none empty
   * @param states where the terms' per-segment states come from (shared per reader version)
   */
  static ScoreDoc[][] top(IndexSearcher searcher, String field, List<Set<String>> queries, Scope scope,
      SharedTermStates states, int k) throws IOException {
    int n = queries.size();
    Map<String, Integer> ids = new LinkedHashMap<>();
    int[][] termsOf = new int[n][];
    for (int q = 0; q < n; q++) {
      int[] own = new int[queries.get(q).size()];
      int j = 0;
      for (String t : queries.get(q)) {
        Integer id = ids.get(t);
        if (id == null) {
          id = ids.size();
          ids.put(t, id);
        }
        own[j++] = id;
      }
      termsOf[q] = own;
    }
    int u = ids.size();
    int[][] queriesOf = invert(termsOf, u);
    Term[] terms = new Term[u];
    for (Map.Entry<String, Integer> e : ids.entrySet()) {
      terms[e.getValue()] = new Term(field, e.getKey());
    }

    ScoreDoc[][] out = new ScoreDoc[n][];
    TermStates[] termStates = new TermStates[u];
    Similarity.SimScorer[] scorers = new Similarity.SimScorer[u];
    for (int i = 0; i < u; i++) {
      termStates[i] = states.states(searcher, terms[i]);
      // null for a term no segment holds
      scorers[i] = states.scorer(searcher, terms[i]);
    }

    TiedTop[] queues = new TiedTop[n];
    for (int q = 0; q < n; q++) {
      queues[q] = new TiedTop(k);
    }
    boolean[] inexact = new boolean[n];
    double[] sums = new double[n];
    // the smallest term score in each sum: its unit in the last place is the smallest of them all
    float[] smallest = new float[n];
    Arrays.fill(smallest, Float.POSITIVE_INFINITY);
    int[] touched = new int[n];
    PostingsEnum[] postings = new PostingsEnum[u];
    int[] at = new int[u];
    Heads heads = new Heads(at, u);

    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      DocIdSet scoped = scope.docs(leaf);
      DocIdSetIterator inScope = scoped == DocIdSet.EMPTY ? null : scoped.iterator();
      Terms fieldTerms = inScope == null ? null : leaf.reader().terms(field);
      if (fieldTerms == null) {
        continue;
      }
      open(leaf, fieldTerms, terms, termStates, scorers, postings, at, heads);
      if (heads.size() == 0) {
        continue;
      }
      NumericDocValues norms = leaf.reader().getNormValues(field);
      Bits live = leaf.reader().getLiveDocs();
      int scopeDoc = -1;
      while (heads.size() > 0) {
        int doc = at[heads.top()];
        if (scopeDoc < doc) {
          scopeDoc = inScope.advance(doc);
        }
        if (scopeDoc != doc) {
          // out of scope: every term before the scope's next document skips to it
          while (heads.size() > 0 && at[heads.top()] < scopeDoc) {
            int i = heads.top();
            at[i] = postings[i].advance(scopeDoc);
            heads.topMoved();
          }
          continue;
        }
        boolean alive = live == null || live.get(doc);
        // as LeafSimScorer reads it: the norm of a document that has the field, 1 without norms
        long norm = alive && norms != null && norms.advanceExact(doc) ? norms.longValue() : 1L;
        int count = 0;
        while (heads.size() > 0 && at[heads.top()] == doc) {
          int i = heads.top();
          if (alive) {
            float score = scorers[i].score(postings[i].freq(), norm);
            for (int q : queriesOf[i]) {
              if (smallest[q] == Float.POSITIVE_INFINITY) {
                touched[count++] = q;
              }
              sums[q] += score;
              smallest[q] = Math.min(smallest[q], score);
            }
          }
          at[i] = postings[i].nextDoc();
          heads.topMoved();
        }
        for (int c = 0; c < count; c++) {
          int q = touched[c];
          double sum = sums[q];
          if (!(sum < Math.ulp(smallest[q]) * EXACT_UNITS)) {
            inexact[q] = true;
          }
          queues[q].offer(leaf.docBase + doc, (float) sum);
          sums[q] = 0;
          smallest[q] = Float.POSITIVE_INFINITY;
        }
      }
    }
    for (int q = 0; q < n; q++) {
      out[q] = inexact[q] ? null : queues[q].candidates();
    }
    return out;
  }

  /** Per term, the queries that hold it. */
  private static int[][] invert(int[][] termsOf, int u) {
    int[] counts = new int[u];
    for (int[] own : termsOf) {
      for (int i : own) {
        counts[i]++;
      }
    }
    int[][] out = new int[u][];
    for (int i = 0; i < u; i++) {
      out[i] = new int[counts[i]];
      counts[i] = 0;
    }
    for (int q = 0; q < termsOf.length; q++) {
      for (int i : termsOf[q]) {
        out[i][counts[i]++] = q;
      }
    }
    return out;
  }

  /**
   * Positions each term the segment holds on its first document, through one terms enum sought to
   * the term's state (as TermQuery seeks it), and puts those with a document in {@code heads}.
   */
  private static void open(LeafReaderContext leaf, Terms fieldTerms, Term[] terms, TermStates[] states,
      Similarity.SimScorer[] scorers, PostingsEnum[] postings, int[] at, Heads heads) throws IOException {
    heads.clear();
    TermsEnum termsEnum = null;
    for (int i = 0; i < terms.length; i++) {
      postings[i] = null;
      if (scorers[i] == null) {
        continue;
      }
      TermState state = states[i].get(leaf);
      if (state == null) {
        continue;
      }
      if (termsEnum == null) {
        termsEnum = fieldTerms.iterator();
      }
      termsEnum.seekExact(terms[i].bytes(), state);
      postings[i] = termsEnum.postings(null, PostingsEnum.FREQS);
      at[i] = postings[i].nextDoc();
      if (at[i] != DocIdSetIterator.NO_MORE_DOCS) {
        heads.add(i);
      }
    }
  }

  /**
   * The terms positioned on a document, as a binary min-heap on their current document (ties in
   * any order), so that each step finds the next document in log(terms) rather than a scan of all.
   */
  private static final class Heads {
    private final int[] at;
    private final int[] heap;
    private int size;

    Heads(int[] at, int terms) {
      this.at = at;
      this.heap = new int[terms];
    }

    void clear() {
      size = 0;
    }

    int size() {
      return size;
    }

    /** The term on the lowest document. */
    int top() {
      return heap[0];
    }

    void add(int term) {
      int i = size++;
      heap[i] = term;
      while (i > 0) {
        int parent = (i - 1) >>> 1;
        if (at[heap[parent]] <= at[heap[i]]) {
          break;
        }
        swap(i, parent);
        i = parent;
      }
    }

    /** The top term moved on; it leaves when it has no document left. */
    void topMoved() {
      if (at[heap[0]] == DocIdSetIterator.NO_MORE_DOCS) {
        heap[0] = heap[--size];
      }
      int i = 0;
      while (true) {
        int least = i;
        int left = 2 * i + 1;
        if (left < size && at[heap[left]] < at[heap[least]]) {
          least = left;
        }
        if (left + 1 < size && at[heap[left + 1]] < at[heap[least]]) {
          least = left + 1;
        }
        if (least == i) {
          return;
        }
        swap(i, least);
        i = least;
      }
    }

    private void swap(int a, int b) {
      int t = heap[a];
      heap[a] = heap[b];
      heap[b] = t;
    }
  }
}
