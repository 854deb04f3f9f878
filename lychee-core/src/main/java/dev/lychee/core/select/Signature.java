package dev.lychee.core.select;

import dev.lychee.api.Candidate;
import dev.lychee.api.TurnRef;
import dev.lychee.core.text.Terms;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The diversity signature of a candidate (§4.11): session, entities, matched queries, evidence
 * nodes, cited turn indices and text tokens. Two signatures' similarity is
 * {@code min(1, session·[same] + Σ w·Jaccard)}. Every facet is held as a sorted array of ids from
 * one per-selection {@link Dictionary}, so a Jaccard index is one linear merge: MMR compares
 * every pool item with every pick, and this keeps that cheap.
 */
record Signature(int session, int[] entities, int[] queries, int[] nodes, int[] turns, int[] tokens, int[] refs) {

  /**
   * Interns strings to dense ids for one selection call, one id space per facet: ids are only ever
   * compared within a facet, so a facet needs no prefix to keep its strings apart from another's,
   * and the text's tokens go to their ids as they are found, without a set of them first. Not
   * thread-safe.
   */
  static final class Dictionary {
    private final Map<String, Integer> sessions = new HashMap<>();
    private final Map<String, Integer> entities = new HashMap<>();
    private final Map<String, Integer> queries = new HashMap<>();
    private final Map<String, Integer> nodes = new HashMap<>();
    private final Map<String, Integer> words = new HashMap<>();
    /** Keyed by the turn itself: a string per cited turn cost an allocation each, and a record
     * that gathered evidence from many sessions cites hundreds of turns. */
    private final Map<TurnRef, Integer> refs = new HashMap<>();
    private int[] scratch = new int[64];
    private int used;

    private static <K> int id(Map<K, Integer> facet, K s) {
      Integer id = facet.get(s);
      if (id == null) {
        id = facet.size();
        facet.put(s, id);
      }
      return id;
    }

    int session(String session) {
      return id(sessions, session);
    }

    private void add(int id) {
      if (used == scratch.length) {
        scratch = Arrays.copyOf(scratch, used * 2);
      }
      scratch[used++] = id;
    }

    /** The collected ids sorted and without repeats; the scratch is empty again afterwards. */
    private int[] drain() {
      Arrays.sort(scratch, 0, used);
      int n = 0;
      for (int i = 0; i < used; i++) {
        if (n == 0 || scratch[n - 1] != scratch[i]) {
          scratch[n++] = scratch[i];
        }
      }
      used = 0;
      return Arrays.copyOf(scratch, n);
    }

    int[] entities(List<String> values) {
      values.forEach(e -> add(id(entities, e.toLowerCase(Locale.ROOT).strip())));
      return drain();
    }

    int[] queries(List<String> values) {
      values.forEach(q -> add(id(queries, q.toLowerCase(Locale.ROOT))));
      return drain();
    }

    int[] nodes(List<String> values) {
      values.forEach(n -> add(id(nodes, n)));
      return drain();
    }

    /** The turn indices themselves serve as their ids. */
    int[] turnIndices(List<TurnRef> turns) {
      turns.forEach(t -> add(t.index()));
      return drain();
    }

    int[] refs(List<TurnRef> turns) {
      turns.forEach(t -> add(id(refs, t)));
      return drain();
    }

    int[] tokens(String text) {
      Terms.forEachToken(text, t -> add(id(words, t)));
      return drain();
    }
  }

  static Signature of(Candidate c, Dictionary d) {
    return new Signature(c.session().isEmpty() ? -1 : d.session(c.session()),
        d.entities(c.entities()),
        d.queries(c.provenance().queries()),
        d.nodes(c.provenance().nodes()),
        d.turnIndices(c.turns()),
        d.tokens(c.text()),
        d.refs(c.turns()));
  }

  double similarity(Signature o, MmrConfig w) {
    double s = (session >= 0 && session == o.session ? w.session() : 0)
        + w.entities() * jaccard(entities, o.entities)
        + w.queries() * jaccard(queries, o.queries)
        + w.nodes() * jaccard(nodes, o.nodes)
        + w.turns() * jaccard(turns, o.turns)
        + w.tokens() * jaccard(tokens, o.tokens);
    if (w.contained() > 0) {
      s += w.contained() * containedIn(o);
    }
    return Math.min(1, s);
  }

  /** The share of this item's cited turns that {@code o} cites too. */
  double containedIn(Signature o) {
    return refs.length == 0 ? 0 : (double) shared(refs, o.refs) / refs.length;
  }

  /** Jaccard index of two sorted id arrays; 0 when either is empty. */
  static double jaccard(int[] a, int[] b) {
    if (a.length == 0 || b.length == 0) {
      return 0;
    }
    int inter = shared(a, b);
    return (double) inter / (a.length + b.length - inter);
  }

  private static int shared(int[] a, int[] b) {
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length && j < b.length) {
      if (a[i] == b[j]) {
        n++;
        i++;
        j++;
      } else if (a[i] < b[j]) {
        i++;
      } else {
        j++;
      }
    }
    return n;
  }
}
