package dev.lychee.core.select;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.core.strategy.Strategies;
import dev.lychee.core.strategy.StrategyProfile;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The episode limiter (§4.12): caps how many raw dialogue items (turns and windows) the selection
 * holds when records are available, keeping episodes that serve a route no record covers. Off by
 * default.
 */
final class EpisodeLimiter {
  private final Strategies strategies;

  EpisodeLimiter(Strategies strategies) {
    this.strategies = strategies;
  }

  static boolean isEpisode(Candidate c) {
    return c.kind() == CandidateKind.RAW_TURN || c.kind() == CandidateKind.WINDOW;
  }

  List<Candidate> limit(List<Candidate> picked, List<Candidate> pool, RecallContext context) {
    int k = context.k();
    double bestRecord = pool.stream().filter(c -> !isEpisode(c)).mapToDouble(Candidate::score).max().orElse(0);
    if (picked.stream().noneMatch(EpisodeLimiter::isEpisode) || bestRecord <= 0) {
      return picked;
    }
    StrategyProfile p = strategies.of(context.plan().type());
    Set<String> episodeRoutes = new HashSet<>();
    Set<String> recordRoutes = new HashSet<>();
    for (Candidate c : picked) {
      (isEpisode(c) ? episodeRoutes : recordRoutes).addAll(c.provenance().routes());
    }
    int ratio = new BigDecimal(k * p.episodeRatio()).setScale(0, RoundingMode.HALF_EVEN).intValue();
    int budget = Math.max(1, Math.min(k, Math.max(Math.max(2, ratio), episodeRoutes.size())));
    double floor = Math.max(0.35, p.minEpisodeRatio() * bestRecord);

    List<Candidate> kept = new ArrayList<>();
    int used = 0;
    for (Candidate c : picked) {
      if (!isEpisode(c)) {
        kept.add(c);
      } else if (c.provenance().routes().stream().anyMatch(r -> !recordRoutes.contains(r))) {
        // the first episode of a route no record covers keeps that route represented
        kept.add(c);
        recordRoutes.addAll(c.provenance().routes());
        used++;
      } else if (used < budget && c.score() >= floor) {
        kept.add(c);
        used++;
      }
    }
    Set<String> ids = new HashSet<>();
    kept.forEach(c -> ids.add(c.id()));
    for (Candidate c : pool) {
      if (kept.size() >= k) {
        break;
      }
      if (!isEpisode(c) && ids.add(c.id())) {
        kept.add(c);
      }
    }
    kept.sort(Comparator.comparingDouble(Candidate::score).reversed());
    return kept.size() > k ? new ArrayList<>(kept.subList(0, k)) : kept;
  }
}
