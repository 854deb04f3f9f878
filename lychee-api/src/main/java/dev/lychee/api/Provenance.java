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
    LinkedHashSet<String> s = new LinkedHashSet<>(a);
    s.addAll(b);
    return List.copyOf(s);
  }

  private static List<String> dedup(List<String> l) {
    return List.copyOf(new LinkedHashSet<>(l));
  }
}
