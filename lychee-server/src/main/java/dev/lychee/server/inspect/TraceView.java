package dev.lychee.server.inspect;

import dev.lychee.api.Candidate;
import dev.lychee.api.RecallTrace;
import dev.lychee.api.spi.RouteRanking;
import dev.lychee.server.api.RecallView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the inspector's recall playground shows: the recall as {@code POST .../recall} returns it,
 * and the trace of how it came about (JSON, snake_case).
 *
 * @param recall the recall
 * @param routes per route, what each channel found and the route's scored ranking
 * @param fused the fused pool, before reranking
 * @param reranked the reranked pool with each candidate's reranker features
 * @param selection the selector's picks, in order
 */
public record TraceView(RecallView recall, List<RouteTrace> routes, List<Item> fused, List<Item> reranked,
    List<Pick> selection) {

  /** At most this many candidates per list are shown: enough to see why, small enough to render. */
  public static final int MAX_ITEMS = 40;

  /** One route: its channels' candidates and its ranking. */
  public record RouteTrace(String route, List<ChannelTrace> channels, List<Item> ranking) {}

  /** One channel's candidates on one route. */
  public record ChannelTrace(String channel, int found, List<Item> candidates) {}

  /**
   * One candidate as a stage saw it.
   *
   * @param rank 1-based position in its list
   * @param id the candidate id
   * @param kind turn, record, window...
   * @param score the stage's score
   * @param similarity the vector similarity carried with it
   * @param text its text
   * @param features the reranker's features (only in the reranked list)
   */
  public record Item(int rank, String id, String kind, double score, double similarity, String text,
      Map<String, Double> features) {}

  /** One selector step: what was taken, and why it won. */
  public record Pick(int step, String id, String kind, double relevance, double maxSimilarity, double mmr, String text) {}

  /** The view of a trace taken while {@code recall} was computed. */
  public static TraceView of(RecallView recall, RecallTrace trace) {
    Map<String, List<ChannelTrace>> byRoute = new LinkedHashMap<>();
    for (RecallTrace.ChannelHits h : trace.channels()) {
      byRoute.computeIfAbsent(h.route(), r -> new ArrayList<>())
          .add(new ChannelTrace(h.channel(), h.candidates().size(), items(h.candidates(), Map.of())));
    }
    List<RouteTrace> routes = new ArrayList<>();
    for (RouteRanking r : trace.routes()) {
      routes.add(new RouteTrace(r.route().id(), byRoute.getOrDefault(r.route().id(), List.of()),
          items(r.candidates(), Map.of())));
    }
    Map<String, Map<String, Double>> features = new LinkedHashMap<>();
    trace.features().forEach(f -> features.put(f.candidate().id(), f.features()));
    List<Pick> picks = trace.picks().stream().map(p -> new Pick(p.step(), p.candidate().id(), kind(p.candidate()),
        p.relevance(), p.maxSimilarity(), p.value(), p.candidate().text())).toList();
    return new TraceView(recall, routes, items(trace.fused(), Map.of()), items(trace.reranked(), features), picks);
  }

  private static List<Item> items(List<Candidate> list, Map<String, Map<String, Double>> features) {
    List<Item> out = new ArrayList<>();
    for (int i = 0; i < Math.min(MAX_ITEMS, list.size()); i++) {
      Candidate c = list.get(i);
      out.add(new Item(i + 1, c.id(), kind(c), finite(c.score()), finite(c.similarity()), c.text(),
          features.getOrDefault(c.id(), Map.of())));
    }
    return out;
  }

  private static String kind(Candidate c) {
    return c.kind().name().toLowerCase(Locale.ROOT);
  }

  private static double finite(double x) {
    return Double.isFinite(x) ? x : 0;
  }
}
