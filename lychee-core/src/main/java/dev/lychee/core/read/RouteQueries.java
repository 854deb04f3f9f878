package dev.lychee.core.read;

import dev.lychee.api.DateRange;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecallObserver;
import dev.lychee.api.spi.RouteQuery;
import dev.lychee.core.recall.PlanSearches;
import dev.lychee.core.text.Terms;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the {@link RouteQuery} of every route of a plan the way {@link RecallPipeline} does: the
 * route's variants ({@link RouteVariants}), every distinct variant of the plan embedded in one
 * {@link Embedder#embedQueries} batch, the route's date filter (else the plan's) and the content
 * terms of the question and the route's queries; the context shares vector searches between the
 * plan's routes ({@link PlanSearches}). Public so that tests of a custom channel can
 * hand it exactly what the pipeline would. The {@code context} and {@code of} methods embed every
 * variant, as the pipeline does with {@code RetrievalConfig.maxEmbeddedVariants} 0; the pipeline's
 * default bound (the question only) is {@link #embedded(List, Embedder, int)} with 1. Stateless.
 */
public final class RouteQueries {
  private RouteQueries() {}

  /** A context holding the route queries of {@code plan}, at the question's depth. */
  public static RecallContext context(Question question, RecallPlan plan, Embedder embedder, int maxVariants) {
    return context(question, plan, embedder, maxVariants, RecallObserver.NONE);
  }

  /** The same, with stages reporting to {@code observer}. */
  public static RecallContext context(Question question, RecallPlan plan, Embedder embedder, int maxVariants,
      RecallObserver observer) {
    return context(question, plan, embedder, maxVariants, question.k(), observer);
  }

  /** A context at depth {@code depth} (a question with a token budget is searched deeper than its k). */
  public static RecallContext context(Question question, RecallPlan plan, Embedder embedder, int maxVariants,
      int depth, RecallObserver observer) {
    List<RouteQuery> queries = of(question, plan, embedder, maxVariants);
    // the routes share their vector searches: every route searches with the question, among others
    return new RecallContext(question, plan, depth, queries, observer, new PlanSearches(queries));
  }

  /** One query object per route of {@code plan}, in plan order. */
  public static List<RouteQuery> of(Question question, RecallPlan plan, Embedder embedder, int maxVariants) {
    return embedded(withoutVectors(question, plan, maxVariants), embedder);
  }

  /**
   * The same route queries before anything is embedded ({@link RouteQuery#withoutVectors}): for the
   * channels that read no vectors while {@link #embedded} runs.
   */
  public static List<RouteQuery> withoutVectors(Question question, RecallPlan plan, int maxVariants) {
    Set<String> questionTerms = Terms.content(question.text());
    List<RouteQuery> out = new ArrayList<>();
    for (RecallRoute r : plan.routes()) {
      DateRange filter = r.temporalFilter() != null ? r.temporalFilter() : plan.temporalFilter();
      Set<String> terms = new LinkedHashSet<>(questionTerms);
      r.queries().forEach(q -> terms.addAll(Terms.content(q)));
      out.add(RouteQuery.withoutVectors(r, RouteVariants.of(question.text(), r, maxVariants), filter, terms));
    }
    return out;
  }

  /**
   * {@code queries} with their vectors: every distinct variant of all of them (in route order)
   * embedded in one {@link Embedder#embedQueries} batch.
   */
  public static List<RouteQuery> embedded(List<RouteQuery> queries, Embedder embedder) {
    return embedded(queries, embedder, 0);
  }

  /**
   * {@code queries} with vectors for at most {@code maxEmbedded} distinct variants of the plan
   * (docs/defaults.md §4.2; 0: all of them), embedded in one {@link Embedder#embedQueries} batch:
   * the first distinct ones in route order, so every route's first variant, the question, is always
   * among them. A plan of several routes also gets each route's second variant (its goal) embedded,
   * beyond the bound if need be, so that its routes do not all search by vector with the question
   * alone. The other variants stay in each route's {@link RouteQuery#variants} for the
   * channels that match words; vector channels search with {@link RouteQuery#embeddedVariants}.
   *
   * @param maxEmbedded the most texts embedded per plan besides the goals of a plan of several
   *     routes, {@code >= 1}, or 0 for no bound
   */
  public static List<RouteQuery> embedded(List<RouteQuery> queries, Embedder embedder, int maxEmbedded) {
    return embedded(queries, embedder, maxEmbedded, Map.of());
  }

  /**
   * The same, with the vectors of some texts already at hand ({@code ahead}, keyed by the variant's
   * text): those of the texts the bound picks are used as they are and only the others go to the
   * embedder, in one batch (none when {@code ahead} covers them all). The pipeline embeds the question
   * while the plan is made (round twenty-two); an embedder's vector of a text does not depend on
   * the batch it came in, so the route queries are the ones of one batch. A vector in {@code ahead}
   * for a text the bound leaves out is not used.
   */
  public static List<RouteQuery> embedded(List<RouteQuery> queries, Embedder embedder, int maxEmbedded,
      Map<String, float[]> ahead) {
    if (maxEmbedded < 0) {
      throw new IllegalArgumentException("maxEmbedded must be >= 0 (0: no bound), got " + maxEmbedded);
    }
    Set<String> distinct = new LinkedHashSet<>();
    // the question leads every route's variants: take each route's first before any other variant,
    // so a bound below the number of routes still embeds what every route searches with first
    for (RouteQuery q : queries) {
      if (!q.variants().isEmpty()) {
        distinct.add(q.variants().get(0));
      }
    }
    // several routes (one per person) all lead with the shared question: with it alone embedded they
    // would search by vector with the same text and differ only in words, so each route's second
    // variant (its goal, which names its person) is embedded too (docs/defaults.md §4.2)
    if (maxEmbedded > 0 && queries.size() > 1) {
      for (RouteQuery q : queries) {
        if (q.variants().size() > 1) {
          distinct.add(q.variants().get(1));
        }
      }
    }
    int firsts = distinct.size();
    for (RouteQuery q : queries) {
      distinct.addAll(q.variants());
    }
    List<String> texts = new ArrayList<>(distinct);
    if (maxEmbedded > 0 && texts.size() > maxEmbedded) {
      int keep = Math.max(maxEmbedded, firsts);
      texts = new ArrayList<>(texts.subList(0, Math.min(keep, texts.size())));
    }
    Map<String, float[]> byText = new HashMap<>();
    List<String> missing = new ArrayList<>(texts.size());
    for (String t : texts) {
      float[] known = ahead.get(t);
      if (known != null) {
        byText.put(t, known);
      } else {
        missing.add(t);
      }
    }
    if (!missing.isEmpty()) {
      List<float[]> vecs = embedder.embedQueries(missing);
      for (int i = 0; i < missing.size(); i++) {
        byText.put(missing.get(i), vecs.get(i));
      }
    }
    List<RouteQuery> out = new ArrayList<>(queries.size());
    for (RouteQuery q : queries) {
      Map<String, float[]> own = new LinkedHashMap<>();
      for (String v : q.variants()) {
        float[] vec = byText.get(v);
        if (vec != null) {
          own.put(v, vec);
        }
      }
      out.add(new RouteQuery(q.route(), q.variants(), own, q.dateFilter(), q.terms()));
    }
    return out;
  }
}
