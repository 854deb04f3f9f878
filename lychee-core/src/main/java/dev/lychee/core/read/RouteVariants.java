package dev.lychee.core.read;

import dev.lychee.api.RecallRoute;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The query variants a route searches with (§4.2): the casefold-unique list of the question, the
 * route goal and the route queries, cut to a maximum. Constraints are never embedded.
 */
public final class RouteVariants {
  private RouteVariants() {}

  public static List<String> of(String question, RecallRoute route, int max) {
    Map<String, String> unique = new LinkedHashMap<>();
    List<String> all = new ArrayList<>();
    all.add(question);
    all.add(route.goal());
    all.addAll(route.queries());
    for (String q : all) {
      if (q == null || q.isBlank()) {
        continue;
      }
      String s = q.strip();
      unique.putIfAbsent(s.toLowerCase(Locale.ROOT), s);
      if (unique.size() >= max) {
        break;
      }
    }
    return List.copyOf(unique.values());
  }
}
