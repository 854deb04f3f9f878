package dev.lychee.core.recall;

import dev.lychee.api.Candidate;
import dev.lychee.api.Provenance;
import dev.lychee.api.RawTurn;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.Role;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.score.CandidateMerger;
import dev.lychee.core.score.Scores;
import dev.lychee.core.strategy.Strategies;
import dev.lychee.core.strategy.StrategyProfile;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Raw-turn recall (§4.5, 4.): every query variant searches the verbatim turn index over all
 * sessions; a hit gets {@code clamp((rawBase + rawScale·r)·μ_raw + β)} with β the assistant or user
 * bonus of the question type's strategy.
 */
public final class RawTurnChannel implements RecallChannel {
  public static final String NAME = "raw_turn";

  private final RecordStore store;
  private final VectorIndex vectors;
  private final ChannelBudgets budgets;
  private final ChannelWeights weights;
  private final Strategies strategies;

  @Inject
  public RawTurnChannel(RecordStore store, VectorIndex vectors, ChannelBudgets budgets, ChannelWeights weights,
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
    int limit = budgets.turns(context.k(), p);
    Map<String, VariantHit> best = VariantHit.search(vectors, VectorIndex.TURNS, context, context.query(route), limit);
    // one round trip for every hit: durable stores answer a batch far faster than one query each
    List<TurnRef> refs = best.keySet().stream().map(TurnIds::parse).flatMap(Optional::stream).toList();
    CandidateMerger out = new CandidateMerger();
    for (RawTurn turn : store.turns(ns, refs)) {
      VariantHit hit = best.get(turn.id());
      if (hit == null || turn.text().isBlank()) {
        continue;
      }
      double r = hit.r();
      double field = score(weights, p, r, turn.role());
      Provenance prov = new Provenance(List.of(NAME), hit.queries(), List.of(), List.of(route.id()));
      out.add(Candidate.ofTurn(turn, field, r, prov));
    }
    return out.sorted();
  }

  /** The raw-turn field score of §4.5 for a retrieval score and a role. */
  public static double score(ChannelWeights w, StrategyProfile p, double r, Role role) {
    double beta = role == Role.ASSISTANT ? p.assistantBonus() : p.userBonus();
    return Scores.clamp((w.rawBase() + w.rawScale() * r) * p.rawScoreMultiplier() + beta);
  }
}
