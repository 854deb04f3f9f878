package dev.lychee.api.spi;

import dev.lychee.api.DateRange;
import dev.lychee.api.RecallRoute;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Everything the pipeline worked out for one route before any channel runs, so that every channel
 * (a built-in one or one a user writes) searches with the same inputs and none recomputes them.
 *
 * @param route the route being recalled
 * @param variants the texts to search with, casefold-unique, best first: the question, the route
 *     goal and the route queries, cut to the configured maximum (constraints are never searched)
 * @param vectors the query-side embedding of the embedded variants ({@link #embeddedVariants}), all
 *     computed in one batch per question: every variant, or the first ones when the number embedded
 *     per plan is bounded (the pipeline's default embeds the question only); empty in the route queries a channel that needs no vectors
 *     ({@link RecallChannel#needsVectors}) may be given while that batch is being embedded
 *     ({@link #withoutVectors})
 * @param dateFilter the date range the evidence should fall in: the route's own filter, else the
 *     plan's; {@code null} when the question names no time
 * @param terms the content words of the question and the route's queries, casefolded and lightly
 *     stemmed (function words removed), for channels that match words
 */
public record RouteQuery(RecallRoute route, List<String> variants, Map<String, float[]> vectors,
    DateRange dateFilter, Set<String> terms) {

  public RouteQuery {
    Objects.requireNonNull(route, "route");
    variants = List.copyOf(variants);
    vectors = Map.copyOf(vectors);
    for (String v : vectors.keySet()) {
      if (!variants.contains(v)) {
        throw new IllegalArgumentException("route " + route.id() + ": a vector for '" + v + "', not one of its variants");
      }
    }
    terms = Collections.unmodifiableSet(new LinkedHashSet<>(terms));
  }

  /** A route query whose vectors are looked up in {@code byText} (the question's one batch). */
  public static RouteQuery of(RecallRoute route, List<String> variants, Map<String, float[]> byText,
      DateRange dateFilter, Set<String> terms) {
    Map<String, float[]> own = new LinkedHashMap<>();
    for (String v : variants) {
      float[] vec = byText.get(v);
      if (vec == null) {
        throw new IllegalArgumentException("route " + route.id() + ": no vector for variant '" + v + "'");
      }
      own.put(v, vec);
    }
    return new RouteQuery(route, variants, own, dateFilter, terms);
  }

  /**
   * A route query before its variants are embedded: for channels that read no vectors
   * ({@link RecallChannel#needsVectors}).
   */
  public static RouteQuery withoutVectors(RecallRoute route, List<String> variants, DateRange dateFilter,
      Set<String> terms) {
    return new RouteQuery(route, variants, Map.of(), dateFilter, terms);
  }

  /** Whether the vectors of the variants are here (false only {@link #withoutVectors before the batch}). */
  public boolean hasVectors() {
    return !vectors.isEmpty() || variants.isEmpty();
  }

  /**
   * The variants that have a vector, in variant order: the ones vector channels search with. All of
   * {@link #variants} unless the number of texts embedded per plan is bounded; the others still feed
   * channels that match words.
   *
   * @throws IllegalStateException in a route query {@link #withoutVectors without vectors}
   */
  public List<String> embeddedVariants() {
    if (!hasVectors()) {
      throw new IllegalStateException("route " + route.id() + ": the variants are not embedded yet; a channel that"
          + " reads vectors must not declare needsVectors() false");
    }
    if (vectors.size() == variants.size()) {
      return variants;
    }
    List<String> out = new ArrayList<>(vectors.size());
    for (String v : variants) {
      if (vectors.containsKey(v)) {
        out.add(v);
      }
    }
    return List.copyOf(out);
  }

  /**
   * The embedding of one variant.
   *
   * @throws IllegalStateException in a route query {@link #withoutVectors without vectors}: a
   *     channel that reads vectors must not declare {@link RecallChannel#needsVectors} false
   */
  public float[] vector(String variant) {
    if (!hasVectors()) {
      throw new IllegalStateException("route " + route.id() + ": the variants are not embedded yet; a channel that"
          + " reads vectors must not declare needsVectors() false");
    }
    float[] v = vectors.get(variant);
    if (v == null) {
      throw new IllegalArgumentException("route " + route.id() + ": '" + variant + "' is not one of its embedded"
          + " variants");
    }
    return v;
  }
}
