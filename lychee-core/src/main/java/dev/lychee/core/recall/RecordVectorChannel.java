package dev.lychee.core.recall;

import dev.lychee.api.Candidate;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.Provenance;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.RouteQuery;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.score.CandidateMerger;
import dev.lychee.core.score.Scores;
import dev.lychee.core.strategy.Strategies;
import dev.lychee.core.strategy.StrategyProfile;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;

/**
 * Direct record recall (§4.5, 3.): every query variant searches the record index (vectors of
 * {@code "<type>: <text>"}); a hit with retrieval score {@code r} gets field
 * {@code recordBase + recordScale·r} (0.40 + 0.30·r; the reference has 0.30 + 0.30·r, docs/defaults.md §4.5).
 */
public final class RecordVectorChannel implements RecallChannel {
  /** The channel name used in provenance. */
  public static final String NAME = "record_vector";

  private final RecordStore store;
  private final VectorIndex vectors;
  private final ChannelBudgets budgets;
  private final ChannelWeights weights;
  private final Strategies strategies;

  @Inject
  public RecordVectorChannel(RecordStore store, VectorIndex vectors, ChannelBudgets budgets, ChannelWeights weights,
      Strategies strategies) {
    this.store = store;
    this.vectors = vectors;
    this.budgets = budgets;
    this.weights = weights;
    this.strategies = strategies;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Candidate> recall(RecallRoute route, RecallContext context) {
    String ns = context.namespace();
    StrategyProfile p = strategies.of(context.plan().type());
    int limit = budgets.records(context.k(), p);
    ChannelWeights w = weights;
    RouteQuery query = context.query(route);
    Map<String, VariantHit> best = VariantHit.search(vectors, VectorIndex.RECORDS, context, query, limit);
    if (best.isEmpty()) {
      return List.of();
    }
    CandidateMerger out = new CandidateMerger();
    for (MemoryRecord rec : store.records(ns, best.keySet())) {
      VariantHit h = best.get(rec.id());
      double field = Scores.clamp(w.recordBase() + w.recordScale() * h.r());
      Provenance prov = new Provenance(List.of(NAME), h.queries(), List.of(), List.of(route.id()));
      out.add(Candidate.ofRecord(rec, field, h.r(), prov));
    }
    return out.sorted();
  }
}
