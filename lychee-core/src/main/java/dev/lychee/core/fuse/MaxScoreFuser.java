package dev.lychee.core.fuse;

import dev.lychee.api.Candidate;
import dev.lychee.api.spi.Fuser;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RouteRanking;
import dev.lychee.core.score.CandidateMerger;
import java.util.List;

/**
 * The plainest fusion: route rankings are merged by id keeping each id's best per-route score,
 * with no rank fusion and no route quota (the evaluation's "no fusion" variant binds it). Stateless.
 */
public final class MaxScoreFuser implements Fuser {
  @Override
  public List<Candidate> fuse(List<RouteRanking> rankings, RecallContext context) {
    CandidateMerger m = new CandidateMerger();
    rankings.forEach(r -> m.addAll(r.candidates()));
    return m.sorted();
  }
}
