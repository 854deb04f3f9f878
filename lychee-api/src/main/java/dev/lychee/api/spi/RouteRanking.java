package dev.lychee.api.spi;

import dev.lychee.api.Candidate;
import dev.lychee.api.RecallRoute;
import java.util.List;
import java.util.Objects;

/**
 * One route's candidates after per-route scoring, best first, without duplicate ids.
 */
public record RouteRanking(RecallRoute route, List<Candidate> candidates) {
  public RouteRanking {
    Objects.requireNonNull(route, "route");
    candidates = List.copyOf(candidates);
  }
}
