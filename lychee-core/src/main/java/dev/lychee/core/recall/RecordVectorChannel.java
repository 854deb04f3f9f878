package dev.lychee.core.recall;

import dev.lychee.api.Candidate;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.Provenance;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;

/**
 * Direct record recall (§4.5, 3.): every query variant searches the record index (vectors of
 * {@code "<type>: <text>"}); a hit with retrieval score {@code r} gets field
 * {@code recordBase + recordScale·r} (0.30 + 0.30·r).
 */
public final class RecordVectorChannel implements RecallChannel {
  /** The channel name used in provenance. */
  public static final String NAME = "record_vector";

  private final RecordStore store;
  private final VectorIndex vectors;
  private final RetrievalConfig config;

  @Inject
  public RecordVectorChannel(RecordStore store, VectorIndex vectors, RetrievalConfig config) {
    this.store = store;
    this.vectors = vectors;
    this.config = config;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Candidate> recall(RecallRoute route, RecallContext context) {
    String ns = context.namespace();
    StrategyProfile p = config.strategy(context.plan().type());
    int limit = config.budgets().records(context.k(), p);
    RetrievalConfig.ChannelWeights w = config.weights();
    Map<String, VariantHit> best = VariantHit.search(vectors, VectorIndex.RECORDS,
        RouteVariants.of(context.question().text(), route, config.budgets().maxVariants()), context, limit);
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
