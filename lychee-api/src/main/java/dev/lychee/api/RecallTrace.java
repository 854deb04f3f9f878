package dev.lychee.api;

import dev.lychee.api.spi.RecallObserver;
import dev.lychee.api.spi.RouteRanking;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link RecallObserver} that keeps everything it is shown, so a caller can see why a recall
 * returned what it did (the inspector's recall playground shows it). One trace serves one recall;
 * it is not thread-safe.
 */
public final class RecallTrace implements RecallObserver {

  /**
   * One channel's candidates for one route.
   *
   * @param route the route id
   * @param channel the channel name
   * @param candidates what it returned, in its order
   */
  public record ChannelHits(String route, String channel, List<Candidate> candidates) {
    public ChannelHits {
      candidates = List.copyOf(candidates);
    }
  }

  /**
   * A reranker's view of one candidate.
   *
   * @param candidate the candidate as the reranker saw it
   * @param features feature name to value
   * @param score the score the features gave
   */
  public record Features(Candidate candidate, Map<String, Double> features, double score) {
    public Features {
      features = Collections.unmodifiableMap(new LinkedHashMap<>(features));
    }
  }

  /**
   * One selector step.
   *
   * @param step 1-based
   * @param candidate the candidate taken
   * @param relevance its relevance
   * @param maxSimilarity its highest similarity to earlier picks (0 for the first)
   * @param value the value it won the step with
   */
  public record Pick(int step, Candidate candidate, double relevance, double maxSimilarity, double value) {}

  private final List<ChannelHits> channels = new ArrayList<>();
  private final List<RouteRanking> routes = new ArrayList<>();
  private List<Candidate> fused = List.of();
  private final List<Features> features = new ArrayList<>();
  private List<Candidate> reranked = List.of();
  private final List<Pick> picks = new ArrayList<>();

  @Override
  public void channel(dev.lychee.api.RecallRoute route, String channel, List<Candidate> candidates) {
    channels.add(new ChannelHits(route.id(), channel, candidates));
  }

  @Override
  public void route(RouteRanking ranking) {
    routes.add(ranking);
  }

  @Override
  public void fused(List<Candidate> pool) {
    fused = List.copyOf(pool);
  }

  @Override
  public void features(Candidate candidate, Map<String, Double> values, double score) {
    features.add(new Features(candidate, values, score));
  }

  @Override
  public void reranked(List<Candidate> pool) {
    reranked = List.copyOf(pool);
  }

  @Override
  public void picked(int step, Candidate candidate, double relevance, double maxSimilarity, double value) {
    picks.add(new Pick(step, candidate, relevance, maxSimilarity, value));
  }

  /** Every channel's candidates, route by route, in pipeline order. */
  public List<ChannelHits> channels() {
    return List.copyOf(channels);
  }

  /** Each route's scored ranking. */
  public List<RouteRanking> routes() {
    return List.copyOf(routes);
  }

  /** The fused pool (empty until fusion ran). */
  public List<Candidate> fused() {
    return fused;
  }

  /** The reranker's features per candidate, in the order it scored them (empty without a reranker that reports). */
  public List<Features> features() {
    return List.copyOf(features);
  }

  /** The reranked pool. */
  public List<Candidate> reranked() {
    return reranked;
  }

  /** The selector's steps (empty for a selector that does not report). */
  public List<Pick> picks() {
    return List.copyOf(picks);
  }
}
