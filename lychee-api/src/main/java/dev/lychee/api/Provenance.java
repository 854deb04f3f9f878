package dev.lychee.api;

import java.util.LinkedHashSet;
import java.util.List;

/**
 * How a candidate was found: the channels, queries, evidence nodes and routes that reached it.
 * Merging two provenances unions each list, keeping first-seen order.
 */
public record Provenance(List<String> channels, List<String> queries, List<String> nodes, List<String> routes) {

  public static final Provenance EMPTY = new Provenance(List.of(), List.of(), List.of(), List.of());

  public Provenance {
    channels = dedup(channels);
    queries = dedup(queries);
    nodes = dedup(nodes);
    routes = dedup(routes);
  }

  /** Provenance of one hit. {@code node} and {@code route} may be null. */
  public static Provenance of(String channel, String query, String node, String route) {
    return new Provenance(opt(channel), opt(query), opt(node), opt(route));
  }

  public Provenance merge(Provenance other) {
    return new Provenance(cat(channels, other.channels), cat(queries, other.queries),
        cat(nodes, other.nodes), cat(routes, other.routes));
  }

  private static List<String> opt(String s) {
    return s == null || s.isBlank() ? List.of() : List.of(s);
  }

  private static List<String> cat(List<String> a, List<String> b) {
    if (a.containsAll(b)) {
      return a; // a repeated hit usually adds nothing new, and a is deduplicated and immutable already
    }
    LinkedHashSet<String> s = new LinkedHashSet<>(a);
    s.addAll(b);
    return List.copyOf(s);
  }

  /**
   * The list without repeats, first occurrences kept. Candidates are rebuilt at every stage, so
   * the short lists they carry are checked pairwise and kept (not copied, when immutable already)
   * instead of going through a set each time.
   */
  private static List<String> dedup(List<String> l) {
    return isDistinct(l) ? List.copyOf(l) : List.copyOf(new LinkedHashSet<>(l));
  }

  /** True for a short list without repeats; longer lists are left to a set. */
  private static boolean isDistinct(List<String> l) {
    int n = l.size();
    if (n > 8) {
      return false;
    }
    for (int i = 1; i < n; i++) {
      for (int j = 0; j < i; j++) {
        if (l.get(i).equals(l.get(j))) {
          return false;
        }
      }
    }
    return true;
  }
}
