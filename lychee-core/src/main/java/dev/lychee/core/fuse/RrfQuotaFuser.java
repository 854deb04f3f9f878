package dev.lychee.core.fuse;

import dev.lychee.api.Candidate;
import dev.lychee.api.spi.Fuser;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RouteRanking;
import dev.lychee.core.score.Scores;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cross-route fusion (§4.10). Each route's ranks 1..max(4k, 4q) add {@code 1/(60 + rank)} to an
 * id's RRF sum; an id keeps its best per-route score; the fused score is
 * {@code clamp(0.82·best + 0.18·RRF/maxRRF)}. Route coverage is protected by a quota
 * {@code q = max(1, min(4, ⌊k/m⌋))}: for each route in plan order its q best unselected ids come
 * first; the rest of the pool follows in fused order. The whole pool is returned.
 */
public final class RrfQuotaFuser implements Fuser {
  private final FusionConfig fusion;

  @Inject
  public RrfQuotaFuser(FusionConfig fusion) {
    this.fusion = fusion;
  }

  /** The per-route quota for depth k and m routes. */
  public int quota(int k, int m) {
    return Math.max(1, Math.min(fusion.maxQuota(), k / Math.max(1, m)));
  }

  @Override
  public List<Candidate> fuse(List<RouteRanking> rankings, RecallContext context) {
    int k = context.k();
    int q = quota(k, rankings.size());
    int depth = Math.max(fusion.rankDepthFactor() * k, fusion.rankDepthFactor() * q);

    Map<String, Double> rrf = new HashMap<>();
    Map<String, Candidate> best = new LinkedHashMap<>();
    Map<String, Integer> bestRank = new HashMap<>();
    for (RouteRanking ranking : rankings) {
      int rank = 0;
      for (Candidate c : ranking.candidates()) {
        rank++;
        if (rank <= depth) {
          rrf.merge(c.id(), 1.0 / (fusion.rrfK() + rank), Double::sum);
        }
        bestRank.merge(c.id(), rank, Math::min);
        Candidate prev = best.get(c.id());
        if (prev == null) {
          best.put(c.id(), c);
        } else {
          // keep the best version's score; union what every route knows about it
          Candidate hi = c.score() > prev.score() ? c : prev;
          best.put(c.id(), hi.mergedWith(hi == c ? prev : c).withScore(hi.score()));
        }
      }
    }
    double maxRrf = rrf.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    Map<String, Candidate> fused = new HashMap<>();
    for (Candidate c : best.values()) {
      double r = maxRrf > 0 ? rrf.getOrDefault(c.id(), 0.0) / maxRrf : 0;
      fused.put(c.id(), c.withScore(Scores.clamp(fusion.bestWeight() * c.score() + fusion.rrfWeight() * r)));
    }
    List<Candidate> byFused = new ArrayList<>(fused.values());
    byFused.sort(Comparator.comparingDouble(Candidate::score).reversed()
        .thenComparingInt((Candidate c) -> bestRank.get(c.id()))
        .thenComparing(Candidate::id));

    Set<String> taken = new LinkedHashSet<>();
    for (RouteRanking ranking : rankings) {
      int n = 0;
      for (Candidate c : ranking.candidates()) {
        if (n >= q) {
          break;
        }
        if (taken.add(c.id())) {
          n++;
        }
      }
    }
    List<Candidate> out = new ArrayList<>(fused.size());
    taken.forEach(id -> out.add(fused.get(id)));
    for (Candidate c : byFused) {
      if (!taken.contains(c.id())) {
        out.add(c);
      }
    }
    return out;
  }
}
