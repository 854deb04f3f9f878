package dev.lychee.core.select;

import dev.lychee.api.Candidate;
import dev.lychee.api.TurnRef;
import dev.lychee.core.text.Terms;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
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

  /** Interns strings to dense ids for one selection call. Not thread-safe. */
  static final class Dictionary {
    private final Map<String, Integer> ids = new HashMap<>();

    int id(String s) {
      return ids.computeIfAbsent(s, x -> ids.size());
    }

    int[] ids(Collection<String> values) {
      int[] out = values.stream().mapToInt(this::id).distinct().toArray();
      Arrays.sort(out);
      return out;
    }
  }

  static Signature of(Candidate c, Dictionary d) {
    return new Signature(c.session().isEmpty() ? -1 : d.id("s\u0000" + c.session()),
        d.ids(c.entities().stream().map(e -> "e\u0000" + e.toLowerCase(Locale.ROOT).strip()).toList()),
        d.ids(c.provenance().queries().stream().map(q -> "q\u0000" + q.toLowerCase(Locale.ROOT)).toList()),
        d.ids(c.provenance().nodes().stream().map(n -> "n\u0000" + n).toList()),
        d.ids(c.turns().stream().map(t -> "i\u0000" + t.index()).toList()),
        d.ids(Terms.tokens(c.text()).stream().map(t -> "w\u0000" + t).toList()),
        d.ids(c.turns().stream().map(TurnRef::toString).map(t -> "t\u0000" + t).toList()));
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
