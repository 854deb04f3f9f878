package dev.lychee.core.recall;

import dev.lychee.api.Candidate;
import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.Provenance;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.score.CandidateMerger;
import jakarta.inject.Inject;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Temporal recall (§4.5, 1.): runs only when the route has a date filter. It scans all temporal
 * nodes, takes each node's span from its key ({@code day:YYYY-MM-DD} is one day,
 * {@code month:YYYY-MM} the whole month, anything else the node's own span), keeps the nodes that
 * overlap the filter, and gives their records the node score (day .42, month .28, other .34).
 */
public final class TemporalRangeChannel implements RecallChannel {
  public static final String NAME = "temporal_range";

  private final RecordStore store;
  private final ChannelBudgets budgets;
  private final ChannelWeights weights;

  @Inject
  public TemporalRangeChannel(RecordStore store, ChannelBudgets budgets, ChannelWeights weights) {
    this.store = store;
    this.budgets = budgets;
    this.weights = weights;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** No: {@value #NAME} reads no vector (it matches temporal nodes by their keys), so it can run while the query batch is embedded. */
  @Override
  public boolean needsVectors() {
    return false;
  }

  @Override
  public List<Candidate> recall(RecallRoute route, RecallContext context) {
    DateRange filter = context.query(route).dateFilter();
    if (filter == null) {
      return List.of();
    }
    String ns = context.namespace();
    String label = label(filter);
    List<ScoredNode> matched = new ArrayList<>();
    for (EvidenceNode node : store.nodes(ns, NodeKind.TEMPORAL)) {
      Optional<ScoredNode> s = score(node);
      if (s.isPresent() && s.get().span.overlaps(filter)) {
        matched.add(s.get());
      }
    }
    matched.sort(Comparator.comparingDouble(ScoredNode::score).reversed()
        .thenComparing(sn -> sn.node.key()));
    Map<String, Double> bestScore = new HashMap<>();
    Map<String, Set<String>> nodesOf = new HashMap<>();
    matched.stream().limit(budgets.temporalNodes(context.k())).forEach(sn -> {
      for (String rid : sn.node.recordIds()) {
        bestScore.merge(rid, sn.score, Math::max);
        nodesOf.computeIfAbsent(rid, x -> new LinkedHashSet<>()).add(sn.node.id());
      }
    });
    CandidateMerger out = new CandidateMerger();
    for (MemoryRecord rec : store.records(ns, bestScore.keySet())) {
      Provenance prov = new Provenance(List.of(NAME), List.of(label),
          new ArrayList<>(nodesOf.get(rec.id())), List.of(route.id()));
      out.add(Candidate.ofRecord(rec, bestScore.get(rec.id()), 0, prov));
    }
    return out.sorted();
  }

  private Optional<ScoredNode> score(EvidenceNode node) {
    ChannelWeights w = weights;
    String key = node.key();
    try {
      if (key.startsWith("day:")) {
        return Optional.of(new ScoredNode(node, DateRange.day(LocalDate.parse(key.substring(4))), w.temporalDay()));
      }
      if (key.startsWith("month:")) {
        LocalDate first = LocalDate.parse(key.substring(6) + "-01");
        return Optional.of(new ScoredNode(node, DateRange.monthOf(first), w.temporalMonth()));
      }
    } catch (DateTimeParseException e) {
      // a malformed key falls through to the node's own span
    }
    return node.span() == null ? Optional.empty() : Optional.of(new ScoredNode(node, node.span(), w.temporalOther()));
  }

  /** A human-readable label of the filter, recorded as the matched "query". */
  static String label(DateRange f) {
    if (f.start() != null && f.start().equals(f.end())) {
      return "time = " + f.start();
    }
    if (f.start() != null && f.end() != null) {
      return "time between " + f.start() + " and " + f.end();
    }
    return f.start() != null ? "time >= " + f.start() : "time <= " + f.end();
  }

  private record ScoredNode(EvidenceNode node, DateRange span, double score) {}
}
