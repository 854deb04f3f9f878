package dev.lychee.core.select;

import dev.lychee.api.Candidate;
import dev.lychee.api.TurnRef;
import dev.lychee.core.recall.RetrievalConfig;
import dev.lychee.core.recall.Terms;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The diversity signature of a candidate (§4.11): session, entities, matched queries, evidence
 * nodes, cited turn indices and text tokens. Two signatures' similarity is
 * {@code min(1, session·[same] + Σ w·Jaccard)}.
 */
record Signature(String session, Set<String> entities, Set<String> queries, Set<String> nodes,
    Set<String> turns, Set<String> tokens, Set<TurnRef> refs) {

  static Signature of(Candidate c) {
    return new Signature(c.session(),
        c.entities().stream().map(e -> e.toLowerCase(Locale.ROOT).strip()).collect(Collectors.toSet()),
        c.provenance().queries().stream().map(q -> q.toLowerCase(Locale.ROOT)).collect(Collectors.toSet()),
        Set.copyOf(c.provenance().nodes()),
        c.turns().stream().map(TurnRef::index).map(String::valueOf).collect(Collectors.toSet()),
        Terms.tokens(c.text()), Set.copyOf(c.turns()));
  }

  double similarity(Signature o, RetrievalConfig.Mmr w) {
    double s = (!session.isEmpty() && session.equals(o.session) ? w.session() : 0)
        + w.entities() * Terms.jaccard(entities, o.entities)
        + w.queries() * Terms.jaccard(queries, o.queries)
        + w.nodes() * Terms.jaccard(nodes, o.nodes)
        + w.turns() * Terms.jaccard(turns, o.turns)
        + w.tokens() * Terms.jaccard(tokens, o.tokens)
        + w.contained() * containedIn(o);
    return Math.min(1, s);
  }

  /** The share of this item's cited turns that {@code o} cites too. */
  double containedIn(Signature o) {
    if (refs.isEmpty()) {
      return 0;
    }
    long shared = refs.stream().filter(o.refs::contains).count();
    return (double) shared / refs.size();
  }
}
